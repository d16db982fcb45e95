"""E-mails of the store app to customers, built here in the customers' language
(CUSTOMER_LANGUAGE_CODE) and queued with `jobs.services.email_enqueue`: recorded in the
caller's transaction, sent by a worker (retried, never twice for one key).
"""

import math
import uuid

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from jobs.services import email_enqueue

from .models import Customer


def customer_uid(customer: Customer) -> str:
    """The account id as the reset link carries it (URL-safe base64)."""
    return urlsafe_base64_encode(force_bytes(customer.pk))


def password_reset_url(customer: Customer, token: str) -> str:
    path = settings.PASSWORD_RESET_URL.format(uid=customer_uid(customer), token=token)
    return settings.PUBLIC_BASE_URL.rstrip("/") + "/" + path.lstrip("/")


def password_reset_message(customer: Customer, token: str) -> tuple[str, str, str]:
    """(subject, text, html) of the reset e-mail with the one-time link."""
    context = {
        "customer": customer,
        "reset_url": password_reset_url(customer, token),
        "valid_hours": max(1, math.ceil(settings.PASSWORD_RESET_TIMEOUT / 3600)),
    }
    with translation.override(settings.CUSTOMER_LANGUAGE_CODE):
        return (
            _("Reset your password"),
            render_to_string("storefront/emails/password_reset.txt", context),
            render_to_string("storefront/emails/password_reset.html", context),
        )


def password_reset_email_enqueue(customer: Customer, token: str) -> None:
    """Queue the reset e-mail (one per request: a retried request with the same
    Idempotency-Key is answered from its first answer and queues nothing)."""
    subject, text, html = password_reset_message(customer, token)
    email_enqueue(
        key=f"password-reset.{customer.pk}.{uuid.uuid4().hex}",
        to=customer.email,
        subject=subject,
        text=text,
        html=html,
    )
