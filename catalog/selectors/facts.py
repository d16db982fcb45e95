"""Full product facts: what the full product shows beyond its own columns (prices,
variations, description, breadcrumb), computed once per product and rendered by the API
layer."""

from dataclasses import dataclass
from datetime import datetime

from infra.prefetch import prefetched

from .. import pricing
from ..models import AttributeValue, Product, ProductDescription
from ..tree import breadcrumb
from .merchandising import (
    FilterFacts,
    SealData,
    active_seals,
    product_category_ids,
    product_filters_get,
    product_relation_ids,
    product_seals_get,
)
from .price_context import PriceContext
from .prices import default_trade_policy_id, product_price_get
from .products import product_available_stock


@dataclass(frozen=True)
class VariationFacts:
    """The `variations` block of a full product: its family's active variations."""

    values: tuple[AttributeValue, ...]  # every value used, in display order
    combinations: tuple[dict, ...]  # {productId, sku, name, combination, active, stock}
    attributes: tuple[dict, ...]  # {id, name, values: [value ids]}


@dataclass(frozen=True)
class FullProductFacts:
    """What the full product shows beyond its own columns (prices, variations, ...)."""

    price: pricing.Price
    original_price: pricing.Price
    variations: VariationFacts
    description: ProductDescription | None
    breadcrumb: list[dict]
    # ids of the sellable products of `indicatedProducts` / `relatedProducts`, in order
    indicated_ids: tuple[int, ...] = ()
    related_ids: tuple[int, ...] = ()
    seals: tuple[SealData, ...] = ()  # live at the context's moment
    filters: tuple[FilterFacts, ...] = ()
    # The next moment these facts may change by themselves (a seal's start or end); the
    # rendered full product is not kept past it.
    valid_until: datetime | None = None
    # Every category of the product with their ancestors (banner groups, seals)
    category_ids: frozenset[int] = frozenset()


def _family_variations(product: Product) -> list[Product]:
    """Active variations of the product's family (its own, or its parent's for a variation);
    from the `active_variations` prefetch of `product_full_queryset()`."""
    owner = product.parent if product.parent_id else product
    return owner.active_variations


def product_variations_get(product: Product) -> VariationFacts:
    values: dict[int, AttributeValue] = {}
    combinations = []
    for variation in _family_variations(product):
        own = prefetched(variation, "attribute_values")
        for value in own:
            values.setdefault(value.pk, value)
        combinations.append(
            {
                "productId": variation.pk,
                "sku": variation.sku,
                "name": variation.name,
                "combination": [value.pk for value in own],
                "active": variation.active,
                "stock": product_available_stock(variation),
            }
        )
    ordered = sorted(
        values.values(),
        key=lambda v: (v.attribute.position, v.attribute_id, v.order, v.label, v.pk),
    )
    attributes: dict[int, dict] = {}
    for value in ordered:
        entry = attributes.setdefault(
            value.attribute_id,
            {"id": value.attribute_id, "name": value.attribute.name, "values": []},
        )
        entry["values"].append(value.pk)
    return VariationFacts(
        values=tuple(ordered),
        combinations=tuple(combinations),
        attributes=tuple(attributes.values()),
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


def full_product_facts_get(
    *, product: Product, context: PriceContext, quantity: int = 1
) -> FullProductFacts:
    """Everything the full product shows that is computed (product from
    `product_full_queryset()`: no query here but the cached category index and seals)."""
    variations = product_variations_get(product)
    category_ids = product_category_ids(product, context.categories)
    seals, seals_change_at = product_seals_get(
        product=product, category_ids=category_ids, moment=context.moment, seals=active_seals()
    )
    relations = product_relation_ids(product)
    return FullProductFacts(
        price=product_price_get(product=product, context=context, quantity=quantity),
        original_price=product_price_get(product=product, context=context, apply_rules=False),
        variations=variations,
        description=product_description_pick(product, context.trade_policy_id),
        breadcrumb=breadcrumb(context.categories, product.main_category_id),
        indicated_ids=relations["indicated"],
        related_ids=relations["related"],
        seals=seals,
        filters=product_filters_get(product, variations.values),
        valid_until=seals_change_at,
        category_ids=category_ids,
    )
