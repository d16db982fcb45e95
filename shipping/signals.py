"""Cache invalidation (the one side effect allowed in signals)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from storefront.api.caching import cache_namespace_bump

from .models import PostalCode
from .selectors import POSTAL_CODES_CACHE


@receiver([post_save, post_delete], sender=PostalCode)
def postal_codes_changed(**kwargs) -> None:
    cache_namespace_bump(POSTAL_CODES_CACHE)
