"""E-mails of the store app to customers, in CUSTOMER_LANGUAGE_CODE, queued with
`jobs.services.email_enqueue`; a one-time link is a hidden value of its e-mail."""

import math
import uuid

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from jobs.services import email_enqueue, hidden_marker

from .models import Customer

RESET_LINK = hidden_marker("reset link")


def password_reset_message(customer: Customer, token: str) -> tuple[str, str, str, dict[str, str]]:
    """(subject, text, html, hidden) of the reset e-mail; the bodies carry RESET_LINK."""
    uid = urlsafe_base64_encode(force_bytes(customer.pk))
    path = settings.PASSWORD_RESET_URL.format(uid=uid, token=token)
    hidden = {RESET_LINK: settings.PUBLIC_BASE_URL.rstrip("/") + "/" + path.lstrip("/")}
    context = {
        "customer": customer,
        "reset_url": RESET_LINK,
        "valid_hours": max(1, math.ceil(settings.PASSWORD_RESET_TIMEOUT / 3600)),
    }
    with translation.override(settings.CUSTOMER_LANGUAGE_CODE):
        return (
            _("Reset your password"),
            render_to_string("storefront/emails/password_reset.txt", context),
            render_to_string("storefront/emails/password_reset.html", context),
            hidden,
        )


def password_reset_email_enqueue(customer: Customer, token: str) -> None:
    subject, text, html, hidden = password_reset_message(customer, token)
    email_enqueue(
        key=f"password-reset.{customer.pk}.{uuid.uuid4().hex}",
        to=customer.email,
        subject=subject,
        text=text,
        html=html,
        hidden=hidden,
    )
