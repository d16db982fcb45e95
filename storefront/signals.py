"""Cache invalidation (the one side effect allowed in signals)."""

from infra.caching.versions import invalidate_on_change

from .models import PaymentOption, SalesChannel
from .selectors import PAYMENT_OPTIONS_CACHE, SALES_CHANNEL_CACHE

invalidate_on_change(PAYMENT_OPTIONS_CACHE, PaymentOption)
invalidate_on_change(SALES_CHANNEL_CACHE, SalesChannel)
