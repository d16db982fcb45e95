"""Reads of the store app."""

from typing import Literal, overload

from django.http import HttpRequest

from infra.cache import kept

from . import payments
from .models import PaymentOption, PaymentOptionKind, SalesChannel

SALES_CHANNEL_CACHE = "sales-channels"
PAYMENT_OPTIONS_CACHE = "payment-options"


def _request_domain(request: HttpRequest) -> str:
    host = request.get_host().lower()
    if host.startswith("["):  # IPv6 literal, e.g. [::1]:8000
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if ":" in host else host


def sales_channel_for_domain(*, domain: str) -> SalesChannel | None:

    def build() -> SalesChannel | None:
        channel = SalesChannel.objects.active().filter(domain=domain).first()
        return channel or SalesChannel.objects.filter(is_default=True).first()

    return kept(SALES_CHANNEL_CACHE, domain, build)


def current_sales_channel(request: HttpRequest) -> SalesChannel | None:
    """The sales channel of this request (memoized on the request)."""
    if not hasattr(request, "_sales_channel"):
        request._sales_channel = sales_channel_for_domain(  # type: ignore[attr-defined]
            domain=_request_domain(request)
        )
    return request._sales_channel  # type: ignore[attr-defined]


def payment_option_get(*, option_id: int | None, kind: str) -> PaymentOption | None:
    """The active option `option_id` of `kind`, or the default of `kind` without an id."""
    if option_id is None:
        return PaymentOption.objects.default_for(kind)
    return PaymentOption.objects.active().filter(pk=option_id, kind=kind).first()


PaymentTerms = payments.CashDiscountTerms | payments.InstallmentTerms


@overload
def payment_terms_get(
    *, option_id: int | None, kind: Literal[PaymentOptionKind.CASH_DISCOUNT]
) -> payments.CashDiscountTerms | None: ...
@overload
def payment_terms_get(
    *, option_id: int | None, kind: Literal[PaymentOptionKind.INSTALLMENTS]
) -> payments.InstallmentTerms | None: ...
def payment_terms_get(*, option_id: int | None, kind: str) -> PaymentTerms | None:
    """The terms of `payment_option_get(...)` as plain data, or None (cached)."""

    def build() -> tuple[PaymentTerms | None]:
        option = payment_option_get(option_id=option_id, kind=kind)
        if option is None:
            return (None,)  # a tuple: a known miss is cached too
        if kind == PaymentOptionKind.CASH_DISCOUNT:
            return (payments.cash_discount_terms_of(option),)
        return (payments.installment_terms_of(option),)

    return kept(PAYMENT_OPTIONS_CACHE, f"{kind}:{option_id}", build)[0]
