"""Cache invalidation (the one side effect allowed in signals)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from infra.cache import cache_namespace_bump, invalidate_on_change

from .fetch import SHIPPING_CACHE
from .models import Carrier, Pickup, PostalCode, ShippingRow, ShippingTable
from .selectors import POSTAL_CODES_CACHE

invalidate_on_change(SHIPPING_CACHE, Carrier, ShippingTable, ShippingRow, Pickup)


@receiver([post_save, post_delete], sender=PostalCode)
def postal_codes_changed(**kwargs) -> None:
    cache_namespace_bump(POSTAL_CODES_CACHE)
