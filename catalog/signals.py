"""Cache invalidation (the one side effect allowed in signals)."""

from collections.abc import Iterable
from typing import Any

from infra.caching.journal import journal_on_change
from infra.caching.versions import invalidate_on_change
from storefront.models import PaymentOption

from .models import (
    Attribute,
    AttributeValue,
    Brand,
    CargoType,
    Category,
    PriceRule,
    Product,
    ProductDescription,
    ProductMedia,
    ProductPrice,
    ProductRelation,
    ProductReviewSummary,
    Seal,
    Stock,
    Storage,
    TradePolicy,
)
from .selectors import product_own_namespaces, stock_namespaces
from .selectors.caches import (
    CATALOGUE_CACHE,
    CATEGORY_CACHE,
    LISTING_CACHE,
    PRICE_RULE_CACHE,
    PRODUCTS_CACHE,
    TRADE_POLICY_CACHE,
)

invalidate_on_change(CATEGORY_CACHE, Category)
invalidate_on_change(PRICE_RULE_CACHE, PriceRule)  # its rows and its four target relations
invalidate_on_change(TRADE_POLICY_CACHE, TradePolicy)

# What many products show, and a product's own row: every product's shapes.
invalidate_on_change(
    PRODUCTS_CACHE,
    Product,
    PriceRule,
    TradePolicy,
    Storage,
    CargoType,
    Attribute,
    AttributeValue,
    Category,
    Brand,
    PaymentOption,  # the installments of every price
    Seal,  # with its products and categories
)


def _family(row: Any) -> tuple[int, ...]:
    """The row's product and its main product (which shows its variations)."""
    product_id = row.product_id
    parent_id = (
        row.product.parent_id
        if row._meta.get_field("product").is_cached(row)
        else Product.objects.filter(pk=product_id).values_list("parent_id", flat=True).first()
    )
    return tuple(pk for pk in (product_id, parent_id) if pk is not None)


def _stock_of(row: Stock) -> Iterable[str]:
    return stock_namespaces(_family(row))


def _own_product(row: Any) -> Iterable[str]:
    return product_own_namespaces(_family(row))


# A product's stock changes its `stock` only; another record of one product, its shapes only.
invalidate_on_change(_stock_of, Stock)
invalidate_on_change(
    _own_product,
    ProductPrice,
    ProductMedia,
    ProductDescription,
    ProductRelation,
    ProductReviewSummary,
)


def _listed_ids(row: Any, *, pk_set: set[int] | None = None, **signal: Any) -> Iterable[int] | None:
    """The products a change concerns (the catalogue reads their main products again); None
    (every product) when a category or value cleared its products from its side."""
    if isinstance(row, Product):
        return (row.pk, row.parent_id) if row.parent_id else (row.pk,)
    if hasattr(row, "product_id"):
        return (row.product_id,)
    return pk_set  # category.products.add(...) and the like: the products named


# The listing filters, sorts, counts and searches every product by its row, categories,
# values, price, stock, reviews and search description (catalog/selectors/listing.py), and
# shows its summary (its media too) kept per catalogue entry (catalog.api.products): each
# change is noted in the listing's journal, and every process patches those products into
# its catalogue; what many products show rebuilds it (CATALOGUE_CACHE).
journal_on_change(
    LISTING_CACHE,
    _listed_ids,
    Product,
    ProductPrice,
    Stock,
    ProductReviewSummary,
    ProductDescription,
    ProductMedia,
)
invalidate_on_change(
    CATALOGUE_CACHE,
    Attribute,
    AttributeValue,
    Brand,
    Category,
    PriceRule,
    Seal,
    Storage,
    TradePolicy,
    PaymentOption,  # the installments and cash discount of every listed price
)
