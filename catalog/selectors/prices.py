"""Reads of trade policies, price rules and prices (the rules are catalog/pricing.py's), the
PriceContext of a request, and what a list of products sells at now."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone

from infra.caching.kept import kept
from infra.ids import is_db_id
from infra.models import LiveQuerySet
from infra.prefetch import prefetched
from storefront import payments
from storefront.models import PaymentOptionKind
from storefront.selectors import payment_terms_get

from .. import pricing
from ..models import PriceRule, Product, ProductPrice, TradePolicy
from ..tree import CategoryIndex, with_ancestors
from .caches import PRICE_RULE_CACHE, TRADE_POLICY_CACHE
from .categories import category_index


@dataclass(frozen=True)
class PriceContext:
    """Everything product prices of one request share."""

    trade_policy_id: int | None
    moment: datetime
    rules: tuple[pricing.RuleData, ...]
    categories: CategoryIndex
    forced_rule: pricing.RuleData | None = None
    cash_discount: payments.CashDiscountTerms = payments.NO_CASH_DISCOUNT
    installment_terms: payments.InstallmentTerms = payments.SINGLE_PAYMENT


def default_trade_policy_id() -> int | None:
    def build() -> dict[str, int | None]:
        default: int | None = (
            TradePolicy.objects.filter(is_default=True).values_list("pk", flat=True).first()
        )
        return {"id": default}

    return kept(TRADE_POLICY_CACHE, "default", build)["id"]


def trade_policy_exists(*, trade_policy_id: int) -> bool:
    if not is_db_id(trade_policy_id):
        return False
    active = kept(
        TRADE_POLICY_CACHE,
        "active-ids",
        lambda: frozenset(TradePolicy.objects.active().values_list("pk", flat=True)),
    )
    return trade_policy_id in active


# The rule columns pricing.RuleData takes as they are.
RULE_FIELDS = (
    "name", "value", "value_type", "trigger", "rule_target", "priority", "active", "start_at",
    "end_at", "begin_quantity", "end_quantity", "apply_in_group", "base_price_field",
    "update_comparison_price",
)  # fmt: skip


def price_rule_data(rule: PriceRule) -> pricing.RuleData:
    """Plain data of a rule (prefetch PRICE_RULE_RELATIONS)."""
    return pricing.RuleData(
        id=rule.pk,
        code=rule.code or None,
        trade_policy_ids=frozenset(p.pk for p in prefetched(rule, "trade_policies")),
        product_ids=frozenset(p.pk for p in prefetched(rule, "products")),
        category_ids=frozenset(c.pk for c in prefetched(rule, "categories")),
        brand_ids=frozenset(b.pk for b in prefetched(rule, "brands")),
        **{name: getattr(rule, name) for name in RULE_FIELDS},
    )


PRICE_RULE_RELATIONS = ("trade_policies", "products", "categories", "brands")


def price_rules_with_targets() -> LiveQuerySet[PriceRule]:
    return PriceRule.objects.prefetch_related(*PRICE_RULE_RELATIONS)


def active_price_rules() -> tuple[pricing.RuleData, ...]:
    """Every active rule as plain data (kept)."""
    return kept(
        PRICE_RULE_CACHE,
        "active",
        lambda: tuple(price_rule_data(rule) for rule in price_rules_with_targets().active()),
    )


def active_price_rule_records() -> dict[int, PriceRule]:
    """Every active rule record with its targets, by id (kept: `priceRules` renders them)."""
    return kept(
        PRICE_RULE_CACHE,
        "active-records",
        lambda: {rule.pk: rule for rule in price_rules_with_targets().active()},
    )


# What pricing reads of a product row and of its price row (pricing.StoredPrice's fields).
PRICING_FIELDS = ("id", "base_price", "active", "parent_id", "brand_id", "main_category_id")
STORED_PRICE_FIELDS = ("sale_price", "comparison_price", "markup", "available_for_sale")


def pricing_data_from_row(
    row: Mapping[str, Any], category_ids: Iterable[int], context: PriceContext
) -> pricing.ProductData:
    """pricing.ProductData of a product row (PRICING_FIELDS) and its and its parent's
    categories (the main category is added here)."""
    ids = set(category_ids)
    if row["main_category_id"] is not None:
        ids.add(row["main_category_id"])
    return pricing.ProductData(
        id=row["id"],
        base_price=row["base_price"],
        active=row["active"],
        parent_id=row["parent_id"],
        brand_id=row["brand_id"],
        category_ids=with_ancestors(context.categories, ids),
    )


def product_pricing_data(product: Product, context: PriceContext) -> pricing.ProductData:
    """pricing_data_from_row of an instance (categories prefetched)."""
    category_ids = [c.pk for c in prefetched(product, "categories")]
    if product.parent is not None:
        category_ids += [c.pk for c in prefetched(product.parent, "categories")]
    row = {name: getattr(product, name) for name in PRICING_FIELDS}
    return pricing_data_from_row(row, category_ids, context)


def _stored_price(product: Product, trade_policy_id: int | None) -> pricing.StoredPrice | None:
    """The policy's price row, from the `all_prices` prefetch."""
    rows: list[ProductPrice] = product.all_prices
    row = next((row for row in rows if row.trade_policy_id == trade_policy_id), None)
    if row is None:
        return None
    return pricing.StoredPrice(**{name: getattr(row, name) for name in STORED_PRICE_FIELDS})


def price_get(
    product: pricing.ProductData,
    stored: pricing.StoredPrice | None,
    *,
    context: PriceContext,
    quantity: int = 1,
    apply_rules: bool = True,
) -> pricing.Price:
    """The contract's Price of a product in the context (`apply_rules=False`: the stored
    price, the Upsell product's `originalPrice`)."""
    request = pricing.PriceRequest(
        trade_policy_id=context.trade_policy_id,
        moment=context.moment,
        quantity=quantity,
        cash_discount=context.cash_discount,
        installment_terms=context.installment_terms,
    )
    return pricing.compute_price(
        product,
        stored,
        context.rules if apply_rules else (),
        request,
        forced_rule=context.forced_rule if apply_rules else None,
    )


def product_price_get(
    *, product: Product, context: PriceContext, quantity: int = 1, apply_rules: bool = True
) -> pricing.Price:
    return price_get(
        product_pricing_data(product, context),
        _stored_price(product, context.trade_policy_id),
        context=context,
        quantity=quantity,
        apply_rules=apply_rules,
    )


def price_context_get(
    *,
    trade_policy_id: int | None = None,
    moment: datetime | None = None,
    price_rule: PriceRule | None = None,
) -> PriceContext:
    """Price context of a trade policy (else the default) at `moment` (else now);
    `price_rule` wins whenever it applies (an upsell offer's)."""
    cash = payment_terms_get(option_id=None, kind=PaymentOptionKind.CASH_DISCOUNT)
    installments = payment_terms_get(option_id=None, kind=PaymentOptionKind.INSTALLMENTS)
    return PriceContext(
        trade_policy_id=default_trade_policy_id() if trade_policy_id is None else trade_policy_id,
        moment=moment or timezone.now(),
        rules=active_price_rules(),
        categories=category_index(),
        forced_rule=price_rule_data(price_rule) if price_rule is not None else None,
        # the store's default options (none: no discount, a single payment)
        cash_discount=cash or payments.NO_CASH_DISCOUNT,
        installment_terms=installments or payments.SINGLE_PAYMENT,
    )


def selling_prices_get(products: list[Product]) -> dict[int, pricing.Price]:
    """{product id: its price now in the default trade policy} (one item, no coupon), in a
    fixed number of queries."""
    prefetch_related_objects(
        products,
        # what product_price_get reads
        Prefetch("prices", to_attr="all_prices"),
        "categories",
        "parent__categories",
    )
    context = price_context_get()
    return {product.pk: product_price_get(product=product, context=context) for product in products}
