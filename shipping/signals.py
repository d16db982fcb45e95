"""Cache invalidation (the one side effect allowed in signals)."""

from infra.caching.versions import invalidate_on_change

from .fetch import SHIPPING_CACHE
from .models import (
    Carrier,
    CarrierIntegration,
    Holiday,
    Pickup,
    PostalCode,
    ShippingRow,
    ShippingTable,
)
from .selectors import POSTAL_CODES_CACHE

invalidate_on_change(
    SHIPPING_CACHE, Carrier, ShippingTable, ShippingRow, Pickup, Holiday, CarrierIntegration
)
invalidate_on_change(POSTAL_CODES_CACHE, PostalCode)
