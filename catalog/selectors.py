"""Reads of the catalog, and the read API other apps import.

Product summary (contract 2.2), for any model that points at a product::

    select, prefetch = product_summary_related("product")   # "" for Product itself
    Review.objects.select_related(*select).prefetch_related(*prefetch)
    # then ProductSummarySerializer(review.product) / ReviewProductSummarySerializer

  A fixed number of queries whatever the number of rows, medias or attributes: the
  summary reads `medias`, `active_stocks` (stock in active storages), `default_prices`
  (price row of the default trade policy) and `attribute_values` (with their attribute).

- `products_for_summary()`: Product queryset with those relations.
- `product_full_queryset()`: everything `FullProductSerializer` (contract 2.11) needs.
- `product_get_active(*, product_id)`: the active product (summary relations loaded) or None.
- `category_tree_get(*, channel=None)`, `category_subtree_get(*, category_id)`,
  `category_index()`: the category tree (cached; one query on a miss).
- `price_context_get(...)` + `product_price_get(*, product, context, quantity)`: the
  contract's Price object of a product (see catalog/pricing.py for the rules).
- `stock_by_storage(*, product_ids)`: {product_id: {storage_id: available}} in active
  storages (shipping quotes).
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from infra.cache import cached
from infra.ids import MAX_ID as MAX_DB_ID
from storefront import payments
from storefront.models import PaymentOptionKind
from storefront.selectors import payment_terms_get

from . import pricing
from .models import (
    AttributeValue,
    Category,
    PriceRule,
    Product,
    ProductDescription,
    ProductPrice,
    Stock,
    TradePolicy,
)
from .tree import (
    CategoryIndex,
    CategoryRow,
    breadcrumb,
    build_index,
    full_tree,
    specific_tree,
    with_ancestors,
)

CATEGORY_CACHE = "categories"
PRICE_RULE_CACHE = "price-rules"
# Every public shape of a product (summary, full product, quote item) and answers showing one.
PRODUCTS_CACHE = "products"
TRADE_POLICY_CACHE = "trade-policies"



# --- Categories ----------------------------------------------------------------


def category_rows() -> list[CategoryRow]:
    """Every category as a plain row, in ONE query."""
    return [
        CategoryRow(*values)
        for values in Category.objects.order_by().values_list(
            "id", "name", "url", "parent_id", "active", "position"
        )
    ]


def category_index() -> CategoryIndex:
    """Visible categories with parents and ordered children (cached; invalidated by signals)."""
    return cached(CATEGORY_CACHE, "index", lambda: build_index(category_rows()))


def category_tree_get(*, channel=None) -> list[dict]:
    """Full-tree nodes of every visible category.

    Categories are shared by all sales channels of the store, so `channel` does not
    change the result (it is accepted so callers need not care).
    """
    return cached(CATEGORY_CACHE, "tree", lambda: full_tree(category_index()))


def category_subtree_get(*, category_id: int) -> dict | None:
    """{current, children, sisters, parent} of a visible category, or None."""
    if not 0 < category_id <= MAX_DB_ID:
        return None
    # Cached per id ({} for a hidden or unknown id: the cache treats None as a miss).
    tree = cached(
        CATEGORY_CACHE,
        f"subtree:{category_id}",
        lambda: specific_tree(category_index(), category_id) or {},
    )
    return tree or None


# --- Products ------------------------------------------------------------------


def _attribute_values() -> QuerySet:
    return AttributeValue.objects.select_related("attribute").order_by(
        "attribute__position", "attribute_id", "order", "id"
    )


def product_summary_related(prefix: str = "") -> tuple[list[str], list[Prefetch | str]]:
    """select_related names and prefetches feeding the Product summary at `prefix`.

    `prefix` is the relation path from the queried model to the product ("" for
    Product itself, "product" for reviews and comments).
    """
    p = f"{prefix}__" if prefix else ""
    select = [f"{p}brand", f"{p}main_category"]
    if prefix:
        select.insert(0, prefix)
    prefetch: list[Prefetch | str] = [
        # feeds `medias`
        f"{p}medias",
        # feeds `stock` (total available over active storages) and the Stock objects
        Prefetch(
            f"{p}stocks",
            queryset=Stock.objects.in_active_storages().order_by("storage_id"),
            to_attr="active_stocks",
        ),
        # feeds `comparisonPrice` (price row of the default trade policy)
        Prefetch(
            f"{p}prices",
            queryset=ProductPrice.objects.filter(trade_policy__is_default=True),
            to_attr="default_prices",
        ),
        # feeds `combination` and `currentAttributes`
        Prefetch(f"{p}attribute_values", queryset=_attribute_values()),
    ]
    return select, prefetch


def products_for_summary() -> QuerySet:
    select, prefetch = product_summary_related()
    return Product.objects.select_related(*select).prefetch_related(*prefetch)


def _variations() -> QuerySet:
    return Product.objects.active().prefetch_related(
        # feeds variations.combinations[].combination and variations.valueList/attributes
        Prefetch("attribute_values", queryset=_attribute_values()),
        # feeds variations.combinations[].stock
        Prefetch("stocks", queryset=Stock.objects.in_active_storages(), to_attr="active_stocks"),
    )


def product_full_queryset() -> QuerySet:
    """Products with everything FullProductSerializer (the Upsell product) reads."""
    select, prefetch = product_summary_related()
    return Product.objects.select_related(*select, "cargo_type", "parent").prefetch_related(
        *prefetch,
        # feeds `categories` and category price rules
        "categories",
        # feeds category price rules of a variation (its parent's categories)
        "parent__categories",
        # feeds `price` and `originalPrice` (the row of the requested trade policy)
        Prefetch(
            "prices",
            queryset=ProductPrice.objects.select_related("trade_policy"),
            to_attr="all_prices",
        ),
        # feeds `description` (the one of the requested trade policy)
        "descriptions",
        # feeds `variations` of a main product
        Prefetch("variations", queryset=_variations(), to_attr="active_variations"),
        # feeds `variations` of a variation (its siblings)
        Prefetch("parent__variations", queryset=_variations(), to_attr="active_variations"),
    )


def product_get_active(*, product_id: int) -> Product | None:
    """The active product (summary relations loaded), or None when unknown or inactive."""
    if not isinstance(product_id, int) or not 0 < product_id <= MAX_DB_ID:
        return None
    return products_for_summary().sellable().filter(pk=product_id).first()


def product_available_stock(product: Product) -> int:
    """Units available over active storages, from the `active_stocks` prefetch (a product
    loaded without it fails loudly rather than querying once per row)."""
    return sum(stock.available for stock in product.active_stocks)


def stock_by_storage(*, product_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    """{product_id: {storage_id: available}} over active storages, in one query."""
    result: dict[int, dict[int, int]] = {}
    rows = (
        Stock.objects.in_active_storages()
        .filter(product_id__in=list(product_ids))
        .values_list("product_id", "storage_id", "available")
    )
    for product_id, storage_id, available in rows:
        result.setdefault(product_id, {})[storage_id] = available
    return result


# --- Trade policies and prices -------------------------------------------------


def default_trade_policy_id() -> int | None:
    def build():
        policy = TradePolicy.objects.default()
        return {"id": policy.pk if policy else None}

    return cached(TRADE_POLICY_CACHE, "default", build)["id"]


def trade_policy_exists(*, trade_policy_id: int) -> bool:
    if not 0 < trade_policy_id <= MAX_DB_ID:
        return False
    return TradePolicy.objects.active().filter(pk=trade_policy_id).exists()


def price_rule_data(rule: PriceRule) -> pricing.RuleData:
    """Plain data of a rule (reads its four many-to-many relations; prefetch them)."""
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
        trade_policy_ids=frozenset(p.pk for p in rule.trade_policies.all()),
        product_ids=frozenset(p.pk for p in rule.products.all()),
        category_ids=frozenset(c.pk for c in rule.categories.all()),
        brand_ids=frozenset(b.pk for b in rule.brands.all()),
    )


PRICE_RULE_RELATIONS = ("trade_policies", "products", "categories", "brands")


def price_rules_with_targets() -> QuerySet:
    # feeds RuleData.trade_policy_ids / product_ids / category_ids / brand_ids
    return PriceRule.objects.prefetch_related(*PRICE_RULE_RELATIONS)


def active_price_rules() -> tuple[pricing.RuleData, ...]:
    """Every active rule as plain data (cached; the moment is checked by pricing.py)."""
    return cached(
        PRICE_RULE_CACHE,
        "active",
        lambda: tuple(price_rule_data(rule) for rule in price_rules_with_targets().active()),
    )


@dataclass(frozen=True)
class PriceContext:
    """Everything product prices of one request share."""

    trade_policy_id: int | None
    moment: datetime
    rules: tuple[pricing.RuleData, ...]
    categories: CategoryIndex
    forced_rule: pricing.RuleData | None = None
    coupon_code: str | None = None
    triggers: frozenset[str] = frozenset({pricing.Trigger.AUTOMATIC})
    cash_discount: payments.CashDiscountTerms = payments.NO_CASH_DISCOUNT
    installment_terms: payments.InstallmentTerms = payments.SINGLE_PAYMENT
    group_quantities: dict[int, int] = field(default_factory=dict)


def price_context_get(
    *,
    trade_policy_id: int | None = None,
    moment: datetime | None = None,
    price_rule: PriceRule | pricing.RuleData | None = None,
    coupon_code: str | None = None,
) -> PriceContext:
    """Price context for a trade policy (default: the store's default) at `moment` (now).

    `price_rule` is an extra rule that wins whenever it applies (an upsell offer's).
    """
    forced = price_rule
    if isinstance(price_rule, PriceRule):
        forced = price_rule_data(price_rule)
    cash_terms = payment_terms_get(option_id=None, kind=PaymentOptionKind.CASH_DISCOUNT)
    installment_terms = payment_terms_get(option_id=None, kind=PaymentOptionKind.INSTALLMENTS)
    if trade_policy_id is None:
        trade_policy_id = default_trade_policy_id()
    return PriceContext(
        trade_policy_id=trade_policy_id,
        moment=moment or timezone.now(),
        rules=active_price_rules(),
        categories=category_index(),
        forced_rule=forced,
        coupon_code=coupon_code,
        cash_discount=cash_terms or payments.NO_CASH_DISCOUNT,
        installment_terms=installment_terms or payments.SINGLE_PAYMENT,
    )


def _stored_price(product: Product, trade_policy_id: int | None) -> ProductPrice | None:
    rows = getattr(product, "all_prices", None)
    if rows is None:
        rows = getattr(product, "default_prices", None)
        if rows is None or trade_policy_id != default_trade_policy_id():
            rows = list(ProductPrice.objects.filter(product=product))
    return next((row for row in rows if row.trade_policy_id == trade_policy_id), None)


def product_pricing_data(product: Product, context: PriceContext) -> pricing.ProductData:
    category_ids = {c.pk for c in product.categories.all()}
    if product.parent_id is not None:
        category_ids.update(c.pk for c in product.parent.categories.all())
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


# --- Full product facts (computed once per product, rendered by the API layer) --------


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


def _family_variations(product: Product) -> list[Product]:
    """Active variations of the product's family (its own, or its parent's for a variation);
    from the `active_variations` prefetch of `product_full_queryset()`."""
    owner = product.parent if product.parent_id else product
    return owner.active_variations


def product_variations_get(product: Product) -> VariationFacts:
    values: dict[int, AttributeValue] = {}
    combinations = []
    for variation in _family_variations(product):
        own = list(variation.attribute_values.all())
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
    descriptions = list(product.descriptions.all())
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
    `product_full_queryset()`: no query here but the cached category index)."""
    return FullProductFacts(
        price=product_price_get(product=product, context=context, quantity=quantity),
        original_price=product_price_get(product=product, context=context, apply_rules=False),
        variations=product_variations_get(product),
        description=product_description_pick(product, context.trade_policy_id),
        breadcrumb=breadcrumb(context.categories, product.main_category_id),
    )
