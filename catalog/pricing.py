"""Price computation (pure: frozen dataclasses in and out, no ORM, Decimal only).

`compute_price` gives the contract's Price (2.11) of one product in one trade policy: the
stored price (else the base price), the best applicable rule (highest priority, then lower
price, then lower id; a `forced_rule` wins whenever it applies), rounded half-up to cents,
never below zero nor above the sale price. Cash discount and installments are
storefront/payments.py's maths. Without a rule: `rule_id` 0 and "" (the contract has no nulls).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from functools import cached_property

from django.db.models import TextChoices
from django.utils.translation import gettext_lazy as _

from infra.money import ZERO, money
from infra.scheduling import Window, next_boundary
from storefront.payments import (
    NO_CASH_DISCOUNT,
    SINGLE_PAYMENT,
    CashDiscountTerms,
    Installment,
    InstallmentTerms,
    cash_discount,
    installment_plan,
)

HUNDRED = Decimal("100")


# The rule fields' choices, with the admin's labels (TextChoices: no database involved).
class Trigger(TextChoices):
    AUTOMATIC = "automatic", _("Automatic (always applies)")
    COUPON = "coupon", _("Coupon code")
    UPSELL = "upsell", _("Upsell offer")


class Target(TextChoices):
    ALL = "all", _("Every product")
    PRODUCT = "product", _("Chosen products")
    CATEGORY = "category", _("Products of chosen categories")
    BRAND = "brand", _("Products of chosen brands")


class ValueType(TextChoices):
    PERCENTAGE = "percentage", _("Percentage off")
    FIXED = "fixed", _("Fixed amount off")


class BaseField(TextChoices):
    SALE_PRICE = "sale-price", _("Sale price")
    COMPARISON_PRICE = "comparison-price", _("Comparison price")


class UpdateComparison(TextChoices):
    KEEP = "keep", _("Keep the comparison price")
    SALE_PRICE = "sale-price", _("Show the price before the rule as comparison price")


@dataclass(frozen=True)
class ProductData:
    """What rules match on: the product (and its parent), brand and categories."""

    id: int
    base_price: Decimal
    active: bool = True
    parent_id: int | None = None
    brand_id: int | None = None
    category_ids: frozenset[int] = frozenset()

    @property
    def product_ids(self) -> frozenset[int]:
        """A rule on a main product applies to its variations too."""
        return frozenset(i for i in (self.id, self.parent_id) if i is not None)


@dataclass(frozen=True)
class StoredPrice:
    """The product's price row in the trade policy."""

    sale_price: Decimal
    comparison_price: Decimal = ZERO
    markup: Decimal = ZERO
    available_for_sale: bool = True


@dataclass(frozen=True)
class RuleData:
    id: int
    name: str
    value: Decimal
    value_type: str = ValueType.PERCENTAGE
    trigger: str = Trigger.AUTOMATIC
    rule_target: str = Target.ALL
    priority: int = 0
    active: bool = True
    start_at: datetime | None = None
    end_at: datetime | None = None
    begin_quantity: int = 1
    end_quantity: int = 0
    apply_in_group: bool = False
    code: str | None = None
    base_price_field: str = BaseField.SALE_PRICE
    update_comparison_price: str = UpdateComparison.KEEP
    trade_policy_ids: frozenset[int] = frozenset()
    product_ids: frozenset[int] = frozenset()
    category_ids: frozenset[int] = frozenset()
    brand_ids: frozenset[int] = frozenset()

    @cached_property  # once per rule: the active rules are kept
    def window(self) -> Window:
        return Window(self.start_at, self.end_at)


@dataclass(frozen=True)
class PriceRequest:
    trade_policy_id: int | None
    moment: datetime
    quantity: int = 1
    triggers: frozenset[str] = frozenset({Trigger.AUTOMATIC})
    coupon_code: str | None = None
    # Quantity counted over every cart line a rule targets, per rule id (apply_in_group).
    group_quantities: Mapping[int, int] = field(default_factory=dict)
    cash_discount: CashDiscountTerms = NO_CASH_DISCOUNT
    installment_terms: InstallmentTerms = SINGLE_PAYMENT


@dataclass(frozen=True)
class Price:
    comparison_price: Decimal
    sale_price: Decimal
    markup: Decimal
    rule_id: int
    rule_trigger: str
    rule_name: str
    available_for_sale: bool
    base_price: bool
    price_with_discount: Decimal
    installments: tuple[Installment, ...] = ()


def next_rule_boundary(rules: Iterable[RuleData], moment: datetime) -> datetime | None:
    """The first start or end of an active rule after `moment` (prices stay exact until)."""
    return next_boundary((rule.window for rule in rules if rule.active), moment)


def rule_targets(rule: RuleData, product: ProductData) -> bool:
    if rule.rule_target == Target.ALL:
        return True
    if rule.rule_target == Target.PRODUCT:
        return bool(rule.product_ids & product.product_ids)
    if rule.rule_target == Target.CATEGORY:
        return bool(rule.category_ids & product.category_ids)
    if rule.rule_target == Target.BRAND:
        return product.brand_id is not None and product.brand_id in rule.brand_ids
    return False


def rule_quantity_fits(rule: RuleData, request: PriceRequest) -> bool:
    quantity = request.quantity
    if rule.apply_in_group:
        quantity = request.group_quantities.get(rule.id, quantity)
    if quantity < rule.begin_quantity:
        return False
    return rule.end_quantity == 0 or quantity <= rule.end_quantity


def rule_trigger_fires(rule: RuleData, request: PriceRequest) -> bool:
    if rule.trigger == Trigger.COUPON:
        given = (request.coupon_code or "").strip().casefold()
        return bool(given) and given == (rule.code or "").strip().casefold()
    return rule.trigger in request.triggers


def rule_reaches(
    rule: RuleData, product: ProductData, trade_policy_id: int | None, moment: datetime
) -> bool:
    """Live at `moment`, for the trade policy (no policies: all) and targeting the product."""
    return (
        rule.active
        and rule.window.contains(moment)
        and (not rule.trade_policy_ids or trade_policy_id in rule.trade_policy_ids)
        and rule_targets(rule, product)
    )


def rule_applies(
    rule: RuleData, product: ProductData, request: PriceRequest, *, check_trigger: bool = True
) -> bool:
    return (
        rule_reaches(rule, product, request.trade_policy_id, request.moment)
        and rule_quantity_fits(rule, request)
        and (not check_trigger or rule_trigger_fires(rule, request))
    )


def discounted(rule: RuleData, *, sale_price: Decimal, comparison_price: Decimal) -> Decimal:
    """The sale price after the rule: never negative, never above the sale price."""
    base = sale_price
    if rule.base_price_field == BaseField.COMPARISON_PRICE and comparison_price > ZERO:
        base = comparison_price
    if rule.value_type == ValueType.PERCENTAGE:
        percentage = min(max(rule.value, ZERO), HUNDRED)
        result = base - money(base * percentage / HUNDRED)
    else:
        result = base - max(rule.value, ZERO)
    return money(min(max(result, ZERO), sale_price))


def best_rule(
    product: ProductData,
    rules: Iterable[RuleData],
    request: PriceRequest,
    *,
    sale_price: Decimal,
    comparison_price: Decimal,
) -> RuleData | None:
    def rank(rule: RuleData) -> tuple[int, Decimal, int]:
        price = discounted(rule, sale_price=sale_price, comparison_price=comparison_price)
        return (-rule.priority, price, rule.id)

    applicable = (rule for rule in rules if rule_applies(rule, product, request))
    return min(applicable, key=rank, default=None)


def rules_for_product(
    product: ProductData,
    rules: Iterable[RuleData],
    *,
    trade_policy_id: int | None,
    moment: datetime,
) -> tuple[RuleData, ...]:
    """The live automatic rules reaching the product, whatever the quantity (coupon and
    upsell rules are not shown), highest priority first, then id."""
    chosen = [
        rule
        for rule in rules
        if rule.trigger == Trigger.AUTOMATIC
        and rule_reaches(rule, product, trade_policy_id, moment)
    ]
    return tuple(sorted(chosen, key=lambda rule: (-rule.priority, rule.id)))


def compute_price(
    product: ProductData,
    stored: StoredPrice | None,
    rules: Iterable[RuleData],
    request: PriceRequest,
    *,
    forced_rule: RuleData | None = None,
) -> Price:
    from_base = stored is None
    if stored is None:
        stored = StoredPrice(sale_price=product.base_price)
    sale_price = money(max(stored.sale_price, ZERO))
    comparison_price = money(max(stored.comparison_price, ZERO))

    rule = forced_rule
    if rule is None or not rule_applies(rule, product, request, check_trigger=False):
        rule = best_rule(
            product, rules, request, sale_price=sale_price, comparison_price=comparison_price
        )

    final = sale_price
    if rule is not None:
        final = discounted(rule, sale_price=sale_price, comparison_price=comparison_price)
        if rule.update_comparison_price == UpdateComparison.SALE_PRICE and sale_price > final:
            comparison_price = sale_price

    return Price(
        comparison_price=comparison_price,
        sale_price=final,
        markup=stored.markup,
        rule_id=rule.id if rule else 0,
        rule_trigger=rule.trigger if rule else "",
        rule_name=rule.name if rule else "",
        available_for_sale=stored.available_for_sale and product.active,
        base_price=from_base,
        price_with_discount=cash_discount(final, request.cash_discount).value_with_discount,
        installments=installment_plan(final, request.installment_terms),
    )


# A price staff change by more than this factor, up or down, is confirmed before it is saved
# (a mistyped decimal separator makes prices 100 times too high).
PRICE_CHANGE_FACTOR = 5


def price_change_needs_confirmation(old: Decimal, new: Decimal) -> bool:
    """A change beyond PRICE_CHANGE_FACTOR either way (a first price, from 0, never is)."""
    return old > 0 and (new > old * PRICE_CHANGE_FACTOR or new * PRICE_CHANGE_FACTOR < old)
