"""Cache invalidation (the one side effect allowed in signals)."""

from collections.abc import Iterable

from infra.cache import invalidate_on_change
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
from .selectors import product_namespaces
from .selectors.caches import CATEGORY_CACHE, PRICE_RULE_CACHE, PRODUCTS_CACHE, TRADE_POLICY_CACHE

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


def _own_product(row: Stock) -> Iterable[str]:
    """The product's own version and its main product's (which shows its variations)."""
    product_id = row.product_id
    parent_id = (
        row.product.parent_id
        if row._meta.get_field("product").is_cached(row)
        else Product.objects.filter(pk=product_id).values_list("parent_id", flat=True).first()
    )
    return product_namespaces(pk for pk in (product_id, parent_id) if pk is not None)


# A record of one product changes that product's shapes only.
invalidate_on_change(
    _own_product,
    Stock,
    ProductPrice,
    ProductMedia,
    ProductDescription,
    ProductRelation,
    ProductReviewSummary,
)
