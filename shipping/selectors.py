"""Reads of the shipping app: postal codes and a quote's trade policy (the quote itself is
shipping.quoting's; what it reads, shipping.fetch's)."""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from django.db.models import QuerySet

from catalog.selectors import default_trade_policy_id, trade_policy_exists
from infra.caching.kept import cached
from infra.queries import Statements, instances

from .models import PostalCode
from .postal import format_postal_code

POSTAL_CODES_CACHE = "postal-codes"


class PostalCodeData(NamedTuple):
    """A postal code's address: the PostalCode columns, in database form."""

    country: str  # alpha-3
    code: str  # normalized
    public_place: str
    complement: str
    district: str
    city: str
    state_code: str
    latitude: Decimal | None
    longitude: Decimal | None

    @property
    def display_code(self) -> str:
        return format_postal_code(self.country, self.code)


_POSTAL_CODE_STATEMENTS = Statements(size=8)


def _postal_codes(country: str, code: str) -> QuerySet[PostalCode]:
    return PostalCode.objects.filter(country=country, code=code).only(*PostalCodeData._fields)[:1]


def postal_code_get(*, country: str, code: str) -> PostalCodeData | None:
    """The address of a normalized postal code (cached; invalidated on change), or None."""

    def build() -> tuple[PostalCodeData | None]:
        found = instances(PostalCode, _postal_codes, (country, code), _POSTAL_CODE_STATEMENTS)
        fields = [getattr(found[0], name) for name in PostalCodeData._fields] if found else []
        # Cache the miss too: a tuple is never a cache miss.
        return (PostalCodeData(*fields) if found else None,)

    return cached(POSTAL_CODES_CACHE, f"{country}:{code}", build)[0]


def quote_trade_policy_id(trade_policy_id: int | None) -> int | None:
    """The policy a quote uses: the given active one, else the default; None if unknown."""
    if trade_policy_id is None:
        return default_trade_policy_id()
    return trade_policy_id if trade_policy_exists(trade_policy_id=trade_policy_id) else None
