"""Cache invalidation (the one side effect allowed in signals)."""

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
from .selectors import CATEGORY_CACHE, PRICE_RULE_CACHE, PRODUCTS_CACHE, TRADE_POLICY_CACHE

invalidate_on_change(CATEGORY_CACHE, Category)
invalidate_on_change(PRICE_RULE_CACHE, PriceRule)  # its rows and its four target relations
invalidate_on_change(TRADE_POLICY_CACHE, TradePolicy)

# Everything a product's public shapes show (summary, full product, quote item): names,
# prices and rules, stock, medias, attributes, categories, brand, descriptions, and the
# payment options behind the installments of a price.
invalidate_on_change(
    PRODUCTS_CACHE,
    Product,
    ProductPrice,
    PriceRule,
    TradePolicy,
    Stock,
    Storage,
    CargoType,
    ProductMedia,
    ProductDescription,
    Attribute,
    AttributeValue,
    Category,
    Brand,
    PaymentOption,
    ProductReviewSummary,
    # relations, seals (and their products and categories) of the full product
    ProductRelation,
    Seal,
)
