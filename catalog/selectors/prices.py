"""Reads of trade policies, price rules and prices: the contract's Price object of a
product in a price context (the rules themselves are catalog/pricing.py's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import QuerySet

from infra.cache import kept
from infra.ids import is_db_id
from infra.prefetch import prefetched

from .. import pricing
from ..models import PriceRule, Product, ProductPrice, TradePolicy
from ..tree import with_ancestors

if TYPE_CHECKING:  # price_context.py reads the rules and policies of this module
    from .price_context import PriceContext

PRICE_RULE_CACHE = "price-rules"
TRADE_POLICY_CACHE = "trade-policies"


def default_trade_policy_id() -> int | None:
    def build() -> dict[str, int | None]:
        policy = TradePolicy.objects.default()
        return {"id": policy.pk if policy else None}

    return kept(TRADE_POLICY_CACHE, "default", build)["id"]


def trade_policy_exists(*, trade_policy_id: int) -> bool:
    if not is_db_id(trade_policy_id):
        return False
    return TradePolicy.objects.active().filter(pk=trade_policy_id).exists()


def price_rule_data(rule: PriceRule) -> pricing.RuleData:
    """Plain data of a rule (reads its four many-to-many relations, PRICE_RULE_RELATIONS:
    prefetch them)."""
    return pricing.RuleData(
        id=rule.pk,
        name=rule.name,
        value=rule.value,
        value_type=rule.value_type,
        trigger=rule.trigger,
        rule_target=rule.rule_target,
        priority=rule.priority,
        active=rule.active,
        start_at=rule.start_at,
        end_at=rule.end_at,
        begin_quantity=rule.begin_quantity,
        end_quantity=rule.end_quantity,
        apply_in_group=rule.apply_in_group,
        code=rule.code or None,
        base_price_field=rule.base_price_field,
        update_comparison_price=rule.update_comparison_price,
        trade_policy_ids=frozenset(p.pk for p in prefetched(rule, "trade_policies")),
        product_ids=frozenset(p.pk for p in prefetched(rule, "products")),
        category_ids=frozenset(c.pk for c in prefetched(rule, "categories")),
        brand_ids=frozenset(b.pk for b in prefetched(rule, "brands")),
    )


PRICE_RULE_RELATIONS = ("trade_policies", "products", "categories", "brands")


def price_rules_with_targets() -> QuerySet[PriceRule]:
    # feeds RuleData.trade_policy_ids / product_ids / category_ids / brand_ids
    return PriceRule.objects.prefetch_related(*PRICE_RULE_RELATIONS)


def active_price_rules() -> tuple[pricing.RuleData, ...]:
    """Every active rule as plain data (kept; the moment is checked by pricing.py)."""
    return kept(
        PRICE_RULE_CACHE,
        "active",
        lambda: tuple(price_rule_data(rule) for rule in price_rules_with_targets().active()),
    )


def active_price_rule_records() -> dict[int, PriceRule]:
    """Every active rule as a model instance with its targets prefetched, by id (cached:
    what the full product's `priceRules` renders; a fixed number of queries on a miss)."""
    return kept(
        PRICE_RULE_CACHE,
        "active-records",
        lambda: {rule.pk: rule for rule in price_rules_with_targets().active()},
    )


def _stored_price(product: Product, trade_policy_id: int | None) -> ProductPrice | None:
    """The price row of the policy, from the `all_prices` prefetch (`product_full_queryset()`,
    or the quote's rows of its policy): a product loaded without it fails loudly
    (AttributeError) rather than querying once per product."""
    rows: list[ProductPrice] = product.all_prices
    return next((row for row in rows if row.trade_policy_id == trade_policy_id), None)


def product_pricing_data(product: Product, context: PriceContext) -> pricing.ProductData:
    category_ids = {c.pk for c in prefetched(product, "categories")}
    if product.parent_id is not None:
        category_ids.update(c.pk for c in prefetched(product.parent, "categories"))
    if product.main_category_id is not None:
        category_ids.add(product.main_category_id)
    return pricing.ProductData(
        id=product.pk,
        base_price=product.base_price,
        active=product.active,
        parent_id=product.parent_id,
        brand_id=product.brand_id,
        category_ids=with_ancestors(context.categories, category_ids),
    )


def product_price_get(
    *,
    product: Product,
    context: PriceContext,
    quantity: int = 1,
    apply_rules: bool = True,
) -> pricing.Price:
    """The contract's Price of `product` in the context's trade policy.

    `apply_rules=False` gives the stored price (the Upsell product's `originalPrice`).
    """
    row = _stored_price(product, context.trade_policy_id)
    stored = None
    if row is not None:
        stored = pricing.StoredPrice(
            sale_price=row.sale_price,
            comparison_price=row.comparison_price,
            markup=row.markup,
            available_for_sale=row.available_for_sale,
        )
    request = pricing.PriceRequest(
        trade_policy_id=context.trade_policy_id,
        moment=context.moment,
        quantity=quantity,
        triggers=context.triggers,
        coupon_code=context.coupon_code,
        group_quantities=context.group_quantities,
        cash_discount=context.cash_discount,
        installment_terms=context.installment_terms,
    )
    return pricing.compute_price(
        product_pricing_data(product, context),
        stored,
        context.rules if apply_rules else (),
        request,
        forced_rule=context.forced_rule if apply_rules else None,
    )
