"""Reads of the shipping app: postal-code lookup and the shipping quote (fetch, then
calculate: shipping.fetch reads, shipping.quote computes, `shipping_quote_get` joins)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from catalog.selectors import default_trade_policy_id, trade_policy_exists
from infra.cache import cached

from . import quote
from .fetch import ProductInfo, StorageInfo, TableInfo, quote_info_fetch
from .models import PostalCode
from .postal import format_postal_code, try_normalize_postal_code

POSTAL_CODES_CACHE = "postal-codes"


# --- Postal codes ---------------------------------------------------------------------


@dataclass(frozen=True)
class PostalCodeData:
    country: str
    code: str
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


def postal_code_get(*, country: str, code: str) -> PostalCodeData | None:
    """The address of a normalized postal code (cached; invalidated on change), or None."""

    def build() -> tuple[PostalCodeData | None]:
        record = PostalCode.objects.for_code(country=country, code=code).first()
        if record is None:
            return (None,)  # cache the miss too: a tuple is never a cache miss
        return (
            PostalCodeData(
                country=record.country,
                code=record.code,
                public_place=record.public_place,
                complement=record.complement,
                district=record.district,
                city=record.city,
                state_code=record.state_code,
                latitude=record.latitude,
                longitude=record.longitude,
            ),
        )

    return cached(POSTAL_CODES_CACHE, f"{country}:{code}", build)[0]


# --- Shipping quote -------------------------------------------------------------------


@dataclass(frozen=True)
class QuotedItem:
    item: quote.GroupItem
    info: ProductInfo


@dataclass(frozen=True)
class QuotedOption:
    option: quote.ShippingOption
    table: TableInfo
    selected_pickup_id: int | None = None  # the table's pickup point nearest the target

    @property
    def initial_zipcode(self) -> str:
        return format_postal_code(self.table.table.country, self.option.row.initial_zipcode)

    @property
    def final_zipcode(self) -> str:
        return format_postal_code(self.table.table.country, self.option.row.final_zipcode)


@dataclass(frozen=True)
class QuotedGroup:
    group: quote.QuoteGroup
    storage: StorageInfo
    items: tuple[QuotedItem, ...]
    options: tuple[QuotedOption, ...]
    trade_policy_id: int
    target_code: str  # as shown (01310-100)


@dataclass(frozen=True)
class QuoteOutcome:
    """The engine's result joined with the records it refers to, for the answer."""

    groups: tuple[QuotedGroup, ...]
    error_items: tuple[quote.ErrorItem, ...]
    product_ids: tuple[int, ...]  # the products found (their summaries go in the answer)
    # The next price-rule start or end: the quote may change by itself then.
    valid_until: datetime | None


def quote_trade_policy_id(trade_policy_id: int | None) -> int | None:
    """The policy a quote uses: the given active one, else the default; None if unknown."""
    if trade_policy_id is None:
        return default_trade_policy_id()
    return trade_policy_id if trade_policy_exists(trade_policy_id=trade_policy_id) else None


def nearest_pickup_id(table: TableInfo, request: quote.QuoteRequest) -> int | None:
    """The table's active pickup point nearest the quote's target (quote.nearest_pickup)."""
    points = []
    for pickup in table.pickups:
        code = try_normalize_postal_code(pickup.country_code, pickup.zip_code)
        points.append(
            quote.PickupPoint(
                id=pickup.pk,
                zip_code=code or "",
                latitude=None if pickup.latitude is None else float(pickup.latitude),
                longitude=None if pickup.longitude is None else float(pickup.longitude),
            )
        )
    return quote.nearest_pickup(
        points,
        target_zipcode=request.target_zipcode,
        target_latitude=request.target_latitude,
        target_longitude=request.target_longitude,
    )


def shipping_quote_get(
    *,
    items: list[tuple[int, int]],
    country: str,
    zip_code: str,
    trade_policy_id: int,
) -> QuoteOutcome:
    """Quote shipping of (product id, quantity) items to a normalized postal code: fetch
    (a fixed number of queries, shipping.fetch), calculate (shipping.quote), join."""
    target = postal_code_get(country=country, code=zip_code)
    info = quote_info_fetch(
        items=items,
        country=country,
        zip_code=zip_code,
        trade_policy_id=trade_policy_id,
        target_latitude=target.latitude if target else None,
        target_longitude=target.longitude if target else None,
    )
    result = quote.quote(info.request, info.data)
    selected = {
        table_id: nearest_pickup_id(table, info.request)
        for table_id, table in info.tables.items()
        if table.pickups
    }
    return QuoteOutcome(
        groups=tuple(
            QuotedGroup(
                group=group,
                storage=info.storages[group.storage_id],
                items=tuple(
                    QuotedItem(item, info.products[item.product_id]) for item in group.items
                ),
                options=tuple(
                    QuotedOption(o, info.tables[o.table_id], selected.get(o.table_id))
                    for o in group.options
                ),
                trade_policy_id=trade_policy_id,
                target_code=info.target_code,
            )
            for group in result.groups
        ),
        error_items=result.error_items,
        product_ids=tuple(info.products),
        valid_until=info.valid_until,
    )
