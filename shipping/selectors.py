"""Reads of the shipping app: postal-code lookup and the shipping quote (fetch, then
calculate: shipping.fetch reads, shipping.quote computes, `shipping_quote_get` joins)."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from django.utils import timezone

from catalog.selectors import default_trade_policy_id, product_namespaces, trade_policy_exists
from infra.caching.kept import cached
from infra.caching.records import depend_on
from infra.queries import CompiledQuery

from . import quote
from .calendar import Estimate, Place, city_key, dates_valid_until, estimate
from .carriers import Service
from .explain import TableVerdict, explain_group
from .fetch import (
    ProductInfo,
    QuoteInfo,
    StorageInfo,
    TableInfo,
    holiday_calendar,
    quote_info_fetch,
)
from .models import PostalCode, ShippingTable, ShippingTableKind
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


_POSTAL_CODE = CompiledQuery(
    lambda country, code: PostalCode.objects.filter(country=country, code=code).values(
        *PostalCodeData._fields
    )[:1]
)


def postal_code_get(*, country: str, code: str) -> PostalCodeData | None:
    """The address of a normalized postal code (cached; invalidated on change), or None."""

    def build() -> tuple[PostalCodeData | None]:
        records = _POSTAL_CODE.rows(country, code)
        # Cache the miss too: a tuple is never a cache miss.
        return (PostalCodeData(**records[0]) if records else None,)

    return cached(POSTAL_CODES_CACHE, f"{country}:{code}", build)[0]


@dataclass(frozen=True)
class QuotedItem:
    item: quote.GroupItem
    info: ProductInfo


@dataclass(frozen=True)
class QuotedOption:
    option: quote.ShippingOption
    table: TableInfo
    selected_pickup_id: int | None = None  # the table's pickup point nearest the target
    estimate: Estimate | None = None  # with deliveryDates=true: the option's dates
    live: Service | None = None  # a live table's carrier service (`option.row` is a stand-in)


@dataclass(frozen=True)
class ExplainedTable:
    table: ShippingTable  # with its carrier
    verdict: TableVerdict
    detail: str = ""  # why a live table gave no option (carrier_unavailable)


@dataclass(frozen=True)
class QuotedGroup:
    group: quote.QuoteGroup
    storage: StorageInfo
    items: tuple[QuotedItem, ...]
    options: tuple[QuotedOption, ...]
    trade_policy_id: int
    target_code: str  # as shown (01310-100)
    # With explain=true: the verdict on every table considered (shipping.explain).
    explanation: tuple[ExplainedTable, ...] | None = None


@dataclass(frozen=True)
class QuoteOutcome:
    """The engine's result joined with the records it refers to, for the answer."""

    groups: tuple[QuotedGroup, ...]
    error_items: tuple[quote.ErrorItem, ...]
    product_ids: tuple[int, ...]  # the products found (their summaries go in the answer)
    # The next price-rule start or end: the quote may change by itself then.
    valid_until: datetime | None
    explained: bool = False  # explain=true: groups carry `explanation`


def quote_trade_policy_id(trade_policy_id: int | None) -> int | None:
    """The policy a quote uses: the given active one, else the default; None if unknown."""
    if trade_policy_id is None:
        return default_trade_policy_id()
    return trade_policy_id if trade_policy_exists(trade_policy_id=trade_policy_id) else None


def shipping_quote_get(
    *,
    items: list[tuple[int, int]],
    country: str,
    zip_code: str,
    trade_policy_id: int,
    explain: bool = False,
    delivery_dates: bool = False,
) -> QuoteOutcome:
    """Quote shipping of (product id, quantity) items to a normalized postal code: fetch,
    calculate, join. With `explain`, each group carries the verdict on every table (one
    more query); with `delivery_dates`, each option its dates (then the outcome is valid
    until the next cut-off or midnight)."""
    started = time.monotonic()  # live carrier calls end by started + CARRIER_TIMEOUT_MS
    # the items' own versions (stock, prices), read before their rows, for the cached answer
    depend_on(product_namespaces(pid for pid, _ in items))
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
    explain_tables = _explain_tables(info, country) if explain else None
    selected = {
        table_id: quote.nearest_pickup(
            table.points,
            target_zipcode=info.request.target_zipcode,
            target_latitude=info.request.target_latitude,
            target_longitude=info.request.target_longitude,
        )
        for table_id, table in info.tables.items()
        if table.points
    }
    dates = _dates(info, country, target) if delivery_dates else None
    groups = tuple(
        QuotedGroup(
            group=group,
            storage=info.storages[group.storage_id],
            items=tuple(QuotedItem(item, info.products[item.product_id]) for item in group.items),
            options=tuple(
                QuotedOption(
                    o,
                    info.tables[o.table_id],
                    selected.get(o.table_id),
                    dates(
                        origin=info.storages[group.storage_id].origin,
                        delivers_on_saturdays=info.tables[o.table_id].table.delivers_on_saturdays,
                        handling_days=group.additional_time,
                        begin_days=o.row.begin_days,
                        end_days=o.row.end_days,
                    )
                    if dates
                    else None,
                )
                for o in group.options
            ),
            trade_policy_id=trade_policy_id,
            target_code=info.target_code,
            explanation=(
                None if explain_tables is None else _explained(info, group, explain_tables)
            ),
        )
        for group in result.groups
    )
    until = [info.valid_until]  # the outcome is valid until the earliest of these
    if any(table.table.kind == ShippingTableKind.LIVE for table in info.tables.values()):
        from .live import with_live_options  # (carrier integrations; it imports this module)

        groups, live_until = with_live_options(groups, info, dates=dates, started=started)
        until.append(live_until)
    if delivery_dates:
        cutoffs = [o.estimate.cutoff_at for g in groups for o in g.options if o.estimate]
        until.append(dates_valid_until(timezone.localtime(info.moment), cutoffs))
    return QuoteOutcome(
        groups=groups,
        error_items=result.error_items,
        product_ids=tuple(info.products),
        valid_until=min((moment for moment in until if moment is not None), default=None),
        explained=explain,
    )


# The dates of an option ordered now: `estimate` with the calendar, the moment and the
# destination bound; the caller gives the origin, the table's Saturdays and the days.
Dates = functools.partial[Estimate]


def _dates(info: QuoteInfo, country: str, target: PostalCodeData | None) -> Dates:
    destination = Place(
        country, target.state_code if target else "", city_key(target.city) if target else ""
    )
    return functools.partial(
        estimate, holiday_calendar(), now=timezone.localtime(info.moment), destination=destination
    )


def _explain_tables(info: QuoteInfo, country: str) -> dict[int, ShippingTable]:
    """Every table of the country by id: the engine's and, in one query, the switched-off ones."""
    tables = {pk: table_info.table for pk, table_info in info.tables.items()}
    inactive = (
        ShippingTable.objects.filter(country=country)
        .exclude(active=True, carrier__active=True)
        .select_related("carrier")
        .order_by("pk")
    )
    tables.update((table.pk, table) for table in inactive)
    return tables


def _explained(
    info: QuoteInfo, group: quote.QuoteGroup, tables: dict[int, ShippingTable]
) -> tuple[ExplainedTable, ...]:
    inactive = [quote.QuoteTable(pk, active=False) for pk in tables if pk not in info.tables]
    verdicts = explain_group(
        group, info.request.target_zipcode, (*info.data.tables, *inactive), info.data.rows
    )
    return tuple(ExplainedTable(tables[verdict.table_id], verdict) for verdict in verdicts)
