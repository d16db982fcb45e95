"""Payment-condition maths (pure, Decimal throughout): cash discount and installments
("Tabela Price": compound monthly interest) of a value (DESIGN §6)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import ROUND_CEILING, Decimal, localcontext
from functools import lru_cache
from typing import Any

from infra.money import CENT, ZERO, money

# (1 + i) ** -n needs more digits than money does: 99 months at 100%/month is 2 ** -99.
_RATE_PRECISION = 60


@dataclass(frozen=True)
class CashDiscountTerms:
    percentage: Decimal  # 0..100


@dataclass(frozen=True)
class InstallmentTerms:
    max_installments: int
    min_installment_value: Decimal
    interest_free_installments: int
    monthly_interest_rate: Decimal  # percent per month, e.g. Decimal("1.99")


@dataclass(frozen=True)
class CashDiscount:
    discount_percentage: Decimal
    discount_value: Decimal
    value_with_discount: Decimal


@dataclass(frozen=True)
class Installment:
    installment: int
    installment_value: Decimal
    total_value: Decimal
    fee: Decimal  # the monthly rate in percent, 0 when interest-free
    fee_total_value: Decimal


NO_CASH_DISCOUNT = CashDiscountTerms(percentage=Decimal("0"))
SINGLE_PAYMENT = InstallmentTerms(1, Decimal("0"), 1, Decimal("0"))


def cash_discount_terms_of(option: Any) -> CashDiscountTerms:
    return CashDiscountTerms(percentage=option.discount_percentage)


def installment_terms_of(option: Any) -> InstallmentTerms:
    return InstallmentTerms(**{f.name: getattr(option, f.name) for f in fields(InstallmentTerms)})


def cash_discount(value: Decimal, terms: CashDiscountTerms = NO_CASH_DISCOUNT) -> CashDiscount:
    """discountValue = money(value * pct / 100); valueWithDiscount = value - discount."""
    discount = money(value * terms.percentage / 100)
    return CashDiscount(
        discount_percentage=terms.percentage,
        discount_value=discount,
        value_with_discount=value - discount,
    )


@lru_cache(maxsize=4096)
def _price_factor(rate_percent: Decimal, count: int) -> Decimal:
    """i / (1 - (1 + i) ** -n): the Tabela Price installment per unit of value."""
    with localcontext() as context:
        context.prec = _RATE_PRECISION
        monthly = rate_percent / 100
        return monthly / (1 - 1 / (1 + monthly) ** count)


def installment(value: Decimal, count: int, terms: InstallmentTerms) -> Installment:
    """The plan paying `value` in `count` installments: an even split up to the
    interest-free count, else Tabela Price, never below the even split rounded up (so a
    financed plan never totals less than the price)."""
    rate = terms.monthly_interest_rate
    if count <= terms.interest_free_installments or rate == 0:
        return Installment(count, money(value / count), value, Decimal("0"), ZERO)
    # The factor carries 60 digits; the default context's 28 are plenty to round to the cent.
    payment = money(value * _price_factor(rate, count))
    each = max(payment, (value / count).quantize(CENT, rounding=ROUND_CEILING))
    return Installment(count, each, each * count, rate, each * count - value)


def installment_plan(
    value: Decimal, terms: InstallmentTerms = SINGLE_PAYMENT
) -> tuple[Installment, ...]:
    """1x (always) .. max installments, up to the first below the minimum installment."""
    plan = [installment(value, 1, terms)]
    for count in range(2, terms.max_installments + 1):
        entry = installment(value, count, terms)
        if entry.installment_value < terms.min_installment_value:
            break
        plan.append(entry)
    return tuple(plan)
