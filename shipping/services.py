"""Writes of the shipping app: postal codes learned from the provider and the carrier call
log. A GET writes neither itself: it records them (infra.deferred) and the handlers here,
registered in ShippingConfig.ready, write them after the answer; the jobs worker prunes the
call log (`carrier_calls_prune`, infra.deferred.every)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from infra import deferred
from infra.caching.versions import cache_namespace_bump

from .models import CarrierCall, CarrierIntegration, PostalCode
from .provider import provider_address_get, provider_enabled_for
from .selectors import POSTAL_CODES_CACHE, PostalCodeData, postal_code_get

# The deferred records of addresses learned from the provider (written by postal_codes_store).
LEARNED_POSTAL_CODES = "shipping.postal-codes"


def postal_code_find(*, country: str, code: str) -> PostalCodeData | None:
    """The address of a normalized postal code: from the database, else from the provider
    (then recorded, to be stored after the answer); None when neither knows it. Without a
    provider for the country, only the database (cached) is read."""
    found = postal_code_get(country=country, code=code)
    if found is not None or not provider_enabled_for(country):
        return found
    address = provider_address_get(country=country, code=code)
    if address is not None:
        deferred.record(LEARNED_POSTAL_CODES, address)
    return address


def postal_codes_store(addresses: Sequence[PostalCodeData]) -> None:
    """Store the learned addresses (one INSERT; a code stored meanwhile, by another process
    or an import, keeps its record) and retire the cached reads of postal codes."""
    unique = {(address.country, address.code): address for address in addresses}
    PostalCode.objects.bulk_create(
        [PostalCode(**address._asdict()) for address in unique.values()], ignore_conflicts=True
    )
    cache_namespace_bump(POSTAL_CODES_CACHE)  # bulk_create sends no post_save


def carrier_calls_store(calls: Sequence[CarrierCall]) -> None:
    """Write the carrier call log rows recorded by quotes (one INSERT); the calls of an
    integration deleted meanwhile are left out."""
    ids = {call.integration_id for call in calls}
    existing = set(CarrierIntegration.objects.filter(pk__in=ids).values_list("pk", flat=True))
    CarrierCall.objects.bulk_create(call for call in calls if call.integration_id in existing)


def carrier_calls_prune() -> int:
    """Delete the calls older than CARRIER_CALL_LOG_DAYS days; how many went."""
    oldest = timezone.now() - timedelta(days=settings.CARRIER_CALL_LOG_DAYS)
    deleted, _ = CarrierCall.objects.filter(created_at__lt=oldest).delete()
    return deleted
