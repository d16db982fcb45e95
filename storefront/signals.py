"""Cache invalidation (the one side effect allowed in signals)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from infra.cache import cache_namespace_bump, invalidate_on_change

from .models import PaymentOption, SalesChannel
from .selectors import PAYMENT_OPTIONS_CACHE, SALES_CHANNEL_CACHE

invalidate_on_change(PAYMENT_OPTIONS_CACHE, PaymentOption)


@receiver([post_save, post_delete], sender=SalesChannel)
def sales_channels_changed(**kwargs) -> None:
    cache_namespace_bump(SALES_CHANNEL_CACHE)
