"""Cache invalidation (the one side effect allowed in signals)."""

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver

from storefront.api.caching import cache_namespace_bump

from .models import Category, PriceRule, TradePolicy
from .selectors import CATEGORY_CACHE, PRICE_RULE_CACHE, TRADE_POLICY_CACHE


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
