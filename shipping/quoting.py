"""The shipping quote (contract 2.10), step by step: fetch (shipping.fetch: everything it
reads, in a fixed number of queries) -> engine (shipping.quote) -> live carriers
(shipping.live) -> dates (shipping.calendar) -> join (shipping.results, what the answer
renders). It only reads: a postal code learned from the provider and the carrier calls are
recorded through infra.deferred and written after the answer."""

from __future__ import annotations

import functools
import time
from datetime import datetime

from django.utils import timezone

from catalog.selectors import product_namespaces
from infra.caching.records import depend_on

from . import quote
from .calendar import Place, city_key, dates_valid_until, estimate
from .explain import explain_group
from .fetch import QuoteInfo, holiday_calendar, quote_info_fetch
from .live import with_live_options
from .models import ShippingTable, ShippingTableKind
from .results import (
    Dates,
    ExplainedTable,
    QuotedGroup,
    QuotedItem,
    QuotedOption,
    QuoteOutcome,
)
from .selectors import PostalCodeData
from .services import postal_code_find


def shipping_quote_get(
    *,
    items: list[tuple[int, int]],
    country: str,
    zip_code: str,
    trade_policy_id: int,
    explain: bool = False,
    delivery_dates: bool = False,
) -> QuoteOutcome:
    """Quote shipping of (product id, quantity) items to a normalized postal code. With
    `explain`, each group carries the verdict on every table (one more query); with
    `delivery_dates`, each option its dates (then the outcome is valid until the next
    cut-off or midnight)."""
    started = time.monotonic()  # live carrier calls end by started + CARRIER_TIMEOUT_MS
    # the items' own versions (stock, prices), read before their rows, for the cached answer
    depend_on(product_namespaces(pid for pid, _ in items))
    # from the database, else the provider (its address is stored after the answer)
    target = postal_code_find(country=country, code=zip_code)
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
    dates = _dates(info, country, target) if delivery_dates else None
    pickups = _nearest_pickups(info)
    groups = tuple(
        QuotedGroup(
            group=group,
            storage=info.storages[group.storage_id],
            items=tuple(QuotedItem(item, info.products[item.product_id]) for item in group.items),
            options=_options(info, group, pickups, dates),
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
        groups, live_until = with_live_options(groups, info, dates=dates, started=started)
        until.append(live_until)
    if delivery_dates:
        until.append(_dates_valid_until(info, groups))
    return QuoteOutcome(
        groups=groups,
        error_items=result.error_items,
        product_ids=tuple(info.products),
        valid_until=min((moment for moment in until if moment is not None), default=None),
        explained=explain,
    )


def _nearest_pickups(info: QuoteInfo) -> dict[int, int | None]:
    """{pickup table id: its point nearest the target}."""
    return {
        table_id: quote.nearest_pickup(
            table.points,
            target_zipcode=info.request.target_zipcode,
            target_latitude=info.request.target_latitude,
            target_longitude=info.request.target_longitude,
        )
        for table_id, table in info.tables.items()
        if table.points
    }


def _options(
    info: QuoteInfo, group: quote.QuoteGroup, pickups: dict[int, int | None], dates: Dates | None
) -> tuple[QuotedOption, ...]:
    """The group's table options with their records, nearest pickup point and dates."""
    options = []
    for option in group.options:
        table = info.tables[option.table_id]
        estimate = None
        if dates is not None:
            estimate = dates(
                origin=info.storages[group.storage_id].origin,
                delivers_on_saturdays=table.table.delivers_on_saturdays,
                handling_days=group.additional_time,
                begin_days=option.row.begin_days,
                end_days=option.row.end_days,
            )
        options.append(QuotedOption(option, table, pickups.get(option.table_id), estimate))
    return tuple(options)


def _dates(info: QuoteInfo, country: str, target: PostalCodeData | None) -> Dates:
    destination = Place(
        country, target.state_code if target else "", city_key(target.city) if target else ""
    )
    return functools.partial(
        estimate, holiday_calendar(), now=timezone.localtime(info.moment), destination=destination
    )


def _dates_valid_until(info: QuoteInfo, groups: tuple[QuotedGroup, ...]) -> datetime:
    """When the options' dates may change by themselves: the next cut-off or midnight."""
    cutoffs = [o.estimate.cutoff_at for g in groups for o in g.options if o.estimate]
    return dates_valid_until(timezone.localtime(info.moment), cutoffs)


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
