"""Cache invalidation (the one side effect allowed in signals): any change to a banner
group, a banner or a group's links drops every cached banner listing at once."""

from django.db.models.signals import post_delete
from django.dispatch import receiver

from catalog.models import Brand, Category, Product
from infra.caching.versions import cache_namespace_bump, invalidate_on_change

from .models import Banner, BannerGroup, Upsell
from .selectors import BANNERS_CACHE, UPSELLS_CACHE

invalidate_on_change(UPSELLS_CACHE, Upsell)
invalidate_on_change(BANNERS_CACHE, BannerGroup, Banner)


@receiver(post_delete, sender=Product)
@receiver(post_delete, sender=Brand)
@receiver(post_delete, sender=Category)
def catalog_record_deleted(**kwargs) -> None:
    """A deleted product, brand or category leaves groups' links (no m2m_changed signal)."""
    cache_namespace_bump(BANNERS_CACHE)
