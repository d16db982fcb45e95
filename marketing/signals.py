"""Cache invalidation (the one side effect allowed in signals): any change to a banner
group, a banner or a group's links drops every cached banner listing at once."""

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver

from catalog.models import Brand, Category, Product
from infra.cache import cache_namespace_bump, invalidate_on_change

from .models import Banner, BannerGroup, Upsell
from .selectors import BANNERS_CACHE, UPSELLS_CACHE

invalidate_on_change(UPSELLS_CACHE, Upsell)


@receiver([post_save, post_delete], sender=BannerGroup)
@receiver([post_save, post_delete], sender=Banner)
def banners_changed(**kwargs) -> None:
    cache_namespace_bump(BANNERS_CACHE)


@receiver(m2m_changed, sender=BannerGroup.products.through)
@receiver(m2m_changed, sender=BannerGroup.brands.through)
@receiver(m2m_changed, sender=BannerGroup.categories.through)
def banner_group_links_changed(action: str, **kwargs) -> None:
    if action in ("post_add", "post_remove", "post_clear"):
        cache_namespace_bump(BANNERS_CACHE)


@receiver(post_delete, sender=Product)
@receiver(post_delete, sender=Brand)
@receiver(post_delete, sender=Category)
def catalog_record_deleted(**kwargs) -> None:
    """A deleted product, brand or category leaves the `products`/`brands`/`categories`
    ids of groups (its M2M rows go without an m2m_changed signal)."""
    cache_namespace_bump(BANNERS_CACHE)
