"""Customers reset a forgotten password with a one-time, expiring e-mailed link; a request
does the same work whether or not an account uses the e-mail (no account enumeration)."""

from django.db import transaction
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode

from infra.ids import is_db_id

from .emails import password_reset_email_enqueue, password_reset_message
from .errors import PasswordResetLinkInvalid
from .models import Customer
from .services import customer_normalize_email, customer_password_validate
from .tokens import customer_password_reset_tokens

# Real uids are a few characters and tokens about 40: anything longer is refused unread.
MAX_UID_LENGTH, MAX_RESET_TOKEN_LENGTH = 24, 100


def password_reset_request(*, email: str) -> None:
    normalized = customer_normalize_email(email)
    customer = Customer.objects.active().by_email(normalized).first()
    if customer is None:
        # The same work as for an account, minus the sending.
        stand_in = Customer(pk=0, name="", email=normalized, password="!")  # noqa: S106
        password_reset_message(
            stand_in, customer_password_reset_tokens.make_customer_token(stand_in)
        )
        return
    token = customer_password_reset_tokens.make_customer_token(customer)
    password_reset_email_enqueue(customer, token)


def _customer_for_uid(uid: str) -> Customer | None:
    if not 0 < len(uid) <= MAX_UID_LENGTH:
        return None
    try:
        text = force_str(urlsafe_base64_decode(uid))
    except (ValueError, TypeError, UnicodeDecodeError):
        return None
    if not text.isascii() or not text.isdigit():
        return None
    pk = int(text)
    if not is_db_id(pk):
        return None
    return Customer.objects.active().filter(pk=pk).first()


def password_reset_confirm(*, uid: str, token: str, password: str) -> Customer:
    customer = _customer_for_uid(uid)
    if (
        customer is None
        or len(token) > MAX_RESET_TOKEN_LENGTH
        or not customer_password_reset_tokens.check_customer_token(customer, token)
    ):
        raise PasswordResetLinkInvalid
    customer_password_validate(password, customer)
    with transaction.atomic():
        locked = Customer.objects.select_for_update().filter(pk=customer.pk).first()
        if locked is None or locked.password != customer.password:
            raise PasswordResetLinkInvalid  # the same link was used meanwhile
        locked.set_password(password)
        locked.updated_at = timezone.now()
        locked.save(update_fields=["password", "updated_at"])
    return locked
