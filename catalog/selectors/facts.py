"""What the full product shows beyond its own columns, computed once per product."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from infra.prefetch import prefetched

from .. import pricing
from ..models import (
    AttributeValue,
    PriceRule,
    Product,
    ProductDescription,
    ProductReviewSummary,
    Stock,
    TradePolicy,
)
from ..tree import breadcrumb
from .merchandising import (
    FilterFacts,
    SealData,
    active_seals,
    product_category_ids,
    product_filters_get,
    product_relation_ids,
    product_seals_get,
    values_by_attribute,
)
from .prices import (
    PriceContext,
    active_price_rule_records,
    default_trade_policy_id,
    product_price_get,
    product_pricing_data,
)


class ProductStatus(StrEnum):
    """The full product's `status.code` (docs/decisions.md, issue 12)."""

    PUBLISHED = "published"  # active and sellable now (in stock, a service, or sold without)
    OUT_OF_STOCK = "out-of-stock"  # active, but no unit available and not sold without stock
    INACTIVE = "inactive"  # not sold: inactive, or a variation of an inactive product


@dataclass(frozen=True)
class StockFacts:
    """Units of a product in one storage (or, as the total, in all of them)."""

    product_id: int
    storage_id: int
    available: int
    reserved: int
    updated_at: datetime


@dataclass(frozen=True)
class VariationFacts:
    values: tuple[AttributeValue, ...]  # every value used, in display order
    combinations: tuple[dict[str, Any], ...]  # {productId, sku, name, combination, active, stock}
    attributes: tuple[dict[str, Any], ...]  # {id, name, values: [value ids]}


@dataclass(frozen=True)
class FullProductFacts:
    product: Product
    price: pricing.Price
    original_price: pricing.Price
    variations: VariationFacts
    description: ProductDescription | None
    breadcrumb: list[dict[str, Any]]
    stock: StockFacts
    stocks: tuple[StockFacts, ...]
    status: ProductStatus
    review: ProductReviewSummary | None  # None without approved reviews
    price_rules: tuple[PriceRule, ...] | None
    linked_trade_policies: tuple[TradePolicy, ...] | None
    # ids of the sellable products of `indicatedProducts` / `relatedProducts`, in order
    indicated_ids: tuple[int, ...] = ()
    related_ids: tuple[int, ...] = ()
    seals: tuple[SealData, ...] = ()  # live at the context's moment
    filters: tuple[FilterFacts, ...] = ()
    # The next moment these facts may change by themselves (a seal's start or end).
    valid_until: datetime | None = None
    # The product's categories with their ancestors.
    category_ids: frozenset[int] = frozenset()


def product_variations_get(product: Product) -> VariationFacts:
    # the family's: its own, or its parent's for a variation (`product_full_queryset()`)
    variations = (product.parent or product).active_variations
    grouped = values_by_attribute(
        value for variation in variations for value in prefetched(variation, "attribute_values")
    )
    return VariationFacts(
        values=tuple(value for group in grouped.values() for value in group),
        combinations=tuple(
            {
                "productId": variation.pk,
                "sku": variation.sku,
                "name": variation.name,
                "combination": [value.pk for value in prefetched(variation, "attribute_values")],
                "active": variation.active,
                "stock": sum(stock.available for stock in variation.active_stocks),
            }
            for variation in variations
        ),
        attributes=tuple(
            {"id": attribute_id, "name": group[0].attribute.name, "values": [v.pk for v in group]}
            for attribute_id, group in grouped.items()
        ),
    )


def product_description_pick(
    product: Product, trade_policy_id: int | None
) -> ProductDescription | None:
    """The description of the trade policy, else of the default policy, else None."""
    descriptions = prefetched(product, "descriptions")
    chosen = next((d for d in descriptions if d.trade_policy_id == trade_policy_id), None)
    if chosen is None:
        default_id = default_trade_policy_id()
        chosen = next((d for d in descriptions if d.trade_policy_id == default_id), None)
    if chosen is not None:
        chosen.product = product  # saves a query for productCategoryId / productBrandId
    return chosen


def product_stocks_get(product: Product) -> tuple[StockFacts, tuple[StockFacts, ...]]:
    """(total, per storage) units in active storages, a main product's with its active
    variations'; the total's storage is the one holding the most available units (0 when
    none)."""
    variations = product.active_variations if product.parent_id is None else []
    by_storage: dict[int, list[Stock]] = {}
    for row in [*product.active_stocks, *(s for v in variations for s in v.active_stocks)]:
        by_storage.setdefault(row.storage_id, []).append(row)
    stocks = tuple(_summed(product, i, by_storage[i]) for i in sorted(by_storage))
    best = max(stocks, key=lambda s: (s.available, -s.storage_id), default=None)
    return _summed(product, best.storage_id if best else 0, stocks), stocks


def _summed(product: Product, storage_id: int, rows: Sequence[Stock | StockFacts]) -> StockFacts:
    return StockFacts(
        product_id=product.pk,
        storage_id=storage_id,
        available=sum(row.available for row in rows),
        reserved=sum(row.reserved for row in rows),
        updated_at=max((row.updated_at for row in rows), default=product.updated_at),
    )


def product_status_get(product: Product, stock: StockFacts) -> ProductStatus:
    parent = product.parent if product.parent_id else None
    if not product.active or (parent is not None and not parent.active):
        return ProductStatus.INACTIVE
    if product.service or product.sale_without_stock or stock.available > 0:
        return ProductStatus.PUBLISHED
    return ProductStatus.OUT_OF_STOCK


def product_price_rules_get(
    product: Product, context: PriceContext
) -> tuple[PriceRule, ...] | None:
    """The rule records `pricing.rules_for_product` picks (cached), None when none."""
    applying = pricing.rules_for_product(
        product_pricing_data(product, context),
        context.rules,
        trade_policy_id=context.trade_policy_id,
        moment=context.moment,
    )
    records = active_price_rule_records() if applying else {}
    return tuple(records[rule.id] for rule in applying if rule.id in records) or None


def product_trade_policies_get(product: Product) -> tuple[TradePolicy, ...] | None:
    """The active policies the product has a price in, default first; None when only the
    default one (or none)."""
    policies = {
        row.trade_policy.pk: row.trade_policy
        for row in product.all_prices
        if row.trade_policy.active
    }
    if all(policy.is_default for policy in policies.values()):
        return None
    return tuple(sorted(policies.values(), key=lambda p: (not p.is_default, p.name, p.pk)))


def full_product_facts_get(
    *, product: Product, context: PriceContext, quantity: int = 1
) -> FullProductFacts:
    """The facts of a product of `product_full_queryset()` (no query but cached reads)."""
    stock, stocks = product_stocks_get(product)
    variations = product_variations_get(product)
    category_ids = product_category_ids(product, context.categories)
    seals, seals_change_at = product_seals_get(
        product=product, category_ids=category_ids, moment=context.moment, seals=active_seals()
    )
    relations = product_relation_ids(product)
    # (a missing one-to-one row raises an AttributeError: None without a summary)
    review: ProductReviewSummary | None = getattr(product, "review_summary", None)
    return FullProductFacts(
        product=product,
        price=product_price_get(product=product, context=context, quantity=quantity),
        original_price=product_price_get(product=product, context=context, apply_rules=False),
        variations=variations,
        description=product_description_pick(product, context.trade_policy_id),
        breadcrumb=breadcrumb(context.categories, product.main_category_id),
        stock=stock,
        stocks=stocks,
        status=product_status_get(product, stock),
        review=review if review is not None and review.count else None,
        price_rules=product_price_rules_get(product, context),
        linked_trade_policies=product_trade_policies_get(product),
        indicated_ids=relations["indicated"],
        related_ids=relations["related"],
        seals=seals,
        filters=product_filters_get(product, variations.values),
        valid_until=seals_change_at,
        category_ids=category_ids,
    )
