"""Writes of the store app: customer accounts and sign-in, and the database counters of the
sign-in rate limits (used while the shared cache is down)."""

import threading
import time
from dataclasses import dataclass
from functools import lru_cache

from django.contrib.auth.base_user import BaseUserManager
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from .errors import EmailAlreadyRegistered, InvalidCredentials, PasswordRejected
from .models import Customer, ThrottleCounter
from .tokens import IssuedToken, TokenPayload, password_version_matches, token_issue


@dataclass(frozen=True)
class CustomerSession:
    customer: Customer
    token: IssuedToken


@lru_cache(maxsize=1)
def _dummy_password_hash() -> str:
    # Checked against when the e-mail is unknown, so both paths cost one hasher run.
    return make_password("storefront-dummy-password-for-timing")


def customer_normalize_email(email: str) -> str:
    return BaseUserManager.normalize_email((email or "").strip())


def customer_password_validate(password: str, customer: Customer) -> None:
    try:
        # The validators only read attributes (name, email) of the customer, saved or not.
        validate_password(password, user=customer)  # type: ignore[arg-type]
    except DjangoValidationError as exc:
        raise PasswordRejected(messages=list(exc.messages)) from exc


def customer_register(*, name: str, email: str, password: str) -> Customer:
    customer = Customer(name=name.strip(), email=customer_normalize_email(email), active=True)
    if Customer.objects.by_email(customer.email).exists():
        raise EmailAlreadyRegistered
    customer_password_validate(password, customer)
    customer.set_password(password)
    try:
        with transaction.atomic():
            customer.save()
    except IntegrityError as exc:  # a concurrent registration won the unique constraint
        raise EmailAlreadyRegistered from exc
    return customer


def customer_login(*, email: str, password: str) -> CustomerSession:
    """A token for the active customer with these credentials, else InvalidCredentials (after
    one hasher run either way: timing tells nothing)."""
    customer = Customer.objects.by_email(customer_normalize_email(email)).first()
    if customer is None:
        check_password(password, _dummy_password_hash())
        raise InvalidCredentials

    def upgrade_hash(raw_password: str) -> None:
        customer.set_password(raw_password)
        Customer.objects.filter(pk=customer.pk).update(password=customer.password)

    if not check_password(password, customer.password, setter=upgrade_hash) or not customer.active:
        raise InvalidCredentials
    customer.last_login = timezone.now()
    Customer.objects.filter(pk=customer.pk).update(last_login=customer.last_login)
    token = token_issue(customer_id=customer.pk, password_hash=customer.password)
    return CustomerSession(customer=customer, token=token)


def customer_for_token(*, payload: TokenPayload | None) -> Customer | None:
    """The active customer of the token, unless its password changed since."""
    if payload is None:
        return None
    customer = Customer.objects.active().filter(pk=payload.customer_id).first()
    if customer is None or not password_version_matches(payload, customer.password):
        return None
    return customer


def customers_set_active(*, customers: QuerySet, active: bool) -> int:
    """Activate or deactivate accounts; how many changed."""
    return customers.exclude(active=active).update(active=active, updated_at=timezone.now())


# --- Rate-limit counters in the database -----------------------------------------------

_COUNTER_PURGE_EVERY = 60.0  # seconds between two purges of ended windows (per process)
_counter_purge = {"next": 0.0}
_counter_purge_lock = threading.Lock()


def throttle_counter_hit(*, key: str, now: float, duration: int) -> tuple[int, float]:
    """One hit on `key` at Unix time `now`, one atomic upsert: (hits in the window, its end)."""
    quote = connection.ops.quote_name
    table = quote(ThrottleCounter._meta.db_table)
    key_c, count_c, end_c = quote("key"), quote("count"), quote("window_end")
    sql = (
        f"INSERT INTO {table} ({key_c}, {count_c}, {end_c}) VALUES (%s, 1, %s) "  # noqa: S608
        f"ON CONFLICT ({key_c}) DO UPDATE SET "
        f"{count_c} = CASE WHEN {table}.{end_c} <= %s THEN 1 ELSE {table}.{count_c} + 1 END, "
        f"{end_c} = CASE WHEN {table}.{end_c} <= %s THEN %s ELSE {table}.{end_c} END "
        f"RETURNING {count_c}, {end_c}"
    )
    window_end = now + duration
    with connection.cursor() as cursor:
        cursor.execute(sql, [key, window_end, now, now, window_end])
        count, end = cursor.fetchone()
    _throttle_counters_purge(now)
    return count, end


def _throttle_counters_purge(now: float) -> None:
    tick = time.monotonic()
    with _counter_purge_lock:
        if tick < _counter_purge["next"]:
            return
        _counter_purge["next"] = tick + _COUNTER_PURGE_EVERY
    ThrottleCounter.objects.filter(window_end__lt=now).delete()
