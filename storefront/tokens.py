"""Signed, expiring customer tokens (Django signing: stateless, any instance accepts them),
and the one-time tokens of the password-reset e-mail.

A token signs the customer id and a short HMAC of the stored password hash, so a new password
voids every token issued before; the signer's timestamp gives the expiry.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core import signing
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

if TYPE_CHECKING:
    from .models import Customer

# Salts separate signing purposes; they are not secrets (SECRET_KEY is).
TOKEN_SALT = "storefront.customer-token"  # noqa: S105
PASSWORD_VERSION_SALT = "storefront.customer-token.password-version"  # noqa: S105
# Real tokens are about 100 characters; anything much longer is refused unread.
MAX_TOKEN_LENGTH = 512


@dataclass(frozen=True)
class IssuedToken:
    token: str
    expires_at: datetime
    max_age: int


@dataclass(frozen=True)
class TokenPayload:
    customer_id: int
    password_version: str


def password_version(password_hash: str) -> str:
    return salted_hmac(PASSWORD_VERSION_SALT, password_hash or "").hexdigest()[:16]


def password_version_matches(payload: TokenPayload, password_hash: str) -> bool:
    return constant_time_compare(payload.password_version, password_version(password_hash))


def token_issue(*, customer_id: int, password_hash: str) -> IssuedToken:
    max_age = settings.CUSTOMER_TOKEN_MAX_AGE
    issued_at = timezone.now()
    token = signing.dumps(
        {"cid": customer_id, "pwv": password_version(password_hash)}, salt=TOKEN_SALT
    )
    return IssuedToken(
        token=token, expires_at=issued_at + timedelta(seconds=max_age), max_age=max_age
    )


def token_read(token: str) -> TokenPayload | None:
    """The payload of a valid, unexpired token; None for anything else (never raises)."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    try:
        data = signing.loads(token, salt=TOKEN_SALT, max_age=settings.CUSTOMER_TOKEN_MAX_AGE)
    except (signing.BadSignature, ValueError, TypeError, UnicodeError):  # expired included
        return None
    if not isinstance(data, dict):
        return None
    customer_id, version = data.get("cid"), data.get("pwv")
    if type(customer_id) is not int or customer_id <= 0 or not isinstance(version, str):
        return None
    return TokenPayload(customer_id=customer_id, password_version=version)


class CustomerPasswordResetTokenGenerator(PasswordResetTokenGenerator):
    """Django's password-reset tokens for customers: void once the password, the last
    sign-in or the e-mail changes."""

    key_salt = "storefront.tokens.CustomerPasswordResetTokenGenerator"

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        customer = user
        login = customer.last_login
        login_text = "" if login is None else login.replace(microsecond=0, tzinfo=None)
        return f"{customer.pk}{customer.password}{login_text}{timestamp}{customer.email}"

    # Typed for Customer (the base class is typed for Django's User).
    def make_customer_token(self, customer: "Customer") -> str:
        return self.make_token(customer)  # type: ignore[arg-type]

    def check_customer_token(self, customer: "Customer", token: str) -> bool:
        return self.check_token(customer, token)  # type: ignore[arg-type]


customer_password_reset_tokens = CustomerPasswordResetTokenGenerator()
