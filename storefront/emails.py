"""E-mails of the store app to customers. Every e-mail is built and sent here, in one
function per message, so sending can later move to a task queue in one place.

Call the senders after commit (`transaction.on_commit`). A failed send is logged, never
raised: the request that caused it has already done its work.
"""

import logging
import math

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from .models import Customer

logger = logging.getLogger(__name__)


def customer_uid(customer: Customer) -> str:
    """The account id as the reset link carries it (URL-safe base64)."""
    return urlsafe_base64_encode(force_bytes(customer.pk))


def password_reset_url(customer: Customer, token: str) -> str:
    path = settings.PASSWORD_RESET_URL.format(uid=customer_uid(customer), token=token)
    return settings.PUBLIC_BASE_URL.rstrip("/") + "/" + path.lstrip("/")


def password_reset_message(customer: Customer, token: str) -> EmailMultiAlternatives:
    """The reset e-mail (text and HTML) with the one-time link."""
    context = {
        "customer": customer,
        "reset_url": password_reset_url(customer, token),
        "valid_hours": max(1, math.ceil(settings.PASSWORD_RESET_TIMEOUT / 3600)),
    }
    message = EmailMultiAlternatives(
        subject=_("Reset your password"),
        body=render_to_string("storefront/emails/password_reset.txt", context),
        to=[customer.email],
    )
    message.attach_alternative(
        render_to_string("storefront/emails/password_reset.html", context), "text/html"
    )
    return message


def send_password_reset_email(customer: Customer, token: str) -> bool:
    """Send the reset e-mail; False when sending failed (logged)."""
    try:
        password_reset_message(customer, token).send()
    except Exception:
        logger.exception("Could not send the password reset e-mail to customer %s", customer.pk)
        return False
    return True
