from typing import Literal, overload

from django.http import HttpRequest

from infra.caching.kept import kept

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
    """The sales channel of this request (kept per domain: a dictionary lookup)."""
    return sales_channel_for_domain(domain=_request_domain(request))


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
    """The terms of the active option `option_id` of `kind` (without an id: the default of
    `kind`) as plain data, or None (cached)."""

    def build() -> tuple[PaymentTerms | None]:
        wanted = {"is_default": True} if option_id is None else {"pk": option_id}
        option = PaymentOption.objects.active().filter(kind=kind, **wanted).first()
        if option is None:
            return (None,)  # a tuple: a known miss is cached too
        if kind == PaymentOptionKind.CASH_DISCOUNT:
            return (payments.cash_discount_terms_of(option),)
        return (payments.installment_terms_of(option),)

    return kept(PAYMENT_OPTIONS_CACHE, f"{kind}:{option_id}", build)[0]
