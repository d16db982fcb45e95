"""Cache invalidation (the one side effect allowed in signals)."""

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver

from infra.cache import cache_namespace_bump, invalidate_on_change
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


@receiver([post_save, post_delete], sender=Category)
def categories_changed(**kwargs) -> None:
    cache_namespace_bump(CATEGORY_CACHE)


@receiver([post_save, post_delete], sender=PriceRule)
def price_rules_changed(**kwargs) -> None:
    cache_namespace_bump(PRICE_RULE_CACHE)


@receiver(m2m_changed, sender=PriceRule.trade_policies.through)
@receiver(m2m_changed, sender=PriceRule.products.through)
@receiver(m2m_changed, sender=PriceRule.categories.through)
@receiver(m2m_changed, sender=PriceRule.brands.through)
def price_rule_targets_changed(action: str, **kwargs) -> None:
    if action in {"post_add", "post_remove", "post_clear"}:
        cache_namespace_bump(PRICE_RULE_CACHE)


@receiver([post_save, post_delete], sender=TradePolicy)
def trade_policies_changed(**kwargs) -> None:
    cache_namespace_bump(TRADE_POLICY_CACHE)


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
