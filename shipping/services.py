"""Writes of the shipping app: postal codes learned from the provider."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from .models import PostalCode
from .provider import provider_address_get, provider_enabled_for
from .selectors import PostalCodeData, postal_code_get


def postal_code_find(*, country: str, code: str) -> PostalCodeData | None:
    """The address of a normalized postal code: from the database, else from the provider
    (then stored in the database); None when neither knows it."""
    found = postal_code_get(country=country, code=code)
    if found is not None or not provider_enabled_for(country):
        return found
    address = provider_address_get(country=country, code=code)
    if address is None:
        return None
    try:
        with transaction.atomic():
            PostalCode.objects.create(**address._asdict())
    except IntegrityError:
        pass  # another request stored it first; its record is the one served
    return postal_code_get(country=country, code=code)


def postal_code_learn(*, country: str, code: str) -> None:
    """Before a quote: store the provider's address of a code the database lacks (nothing at
    all, not even a cache read, without a provider for the country)."""
    if provider_enabled_for(country):
        postal_code_find(country=country, code=code)
