"""Live carrier options in a quote (issue 22; a step of shipping.quoting): each group's live
tables asked through shipping.carriers, all at once with one deadline (CARRIER_TIMEOUT_MS),
their services merged with the group's table options by price. A carrier that fails, is slow
or over its budget only leaves its options out (explain=true: `carrier_unavailable`, and why).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal

from django.conf import settings

from infra.caching.kept import kept
from infra.money import money

from . import quote
from .carrier_client import Package, Parcel, Service
from .carriers import LiveAnswer, live_answers
from .explain import Rejection, TableVerdict
from .fetch import SHIPPING_CACHE, QuoteInfo, TableInfo
from .models import CarrierIntegration, ShippingTableKind
from .postal import try_normalize_postal_code
from .results import Dates, ExplainedTable, QuotedGroup, QuotedOption


def _parcel(quoted: QuotedGroup, origin: str, destination: str) -> Parcel:
    return Parcel(
        origin=origin,
        destination=destination,
        packages=tuple(
            Package(
                id=str(item.item.product_id),
                width=item.info.product.width,
                height=item.info.product.height,
                length=item.info.product.length,
                weight=item.item.unit_weight,
                insurance_value=item.item.unit_price,
                quantity=item.item.quantity,
            )
            for item in quoted.items
        ),
    )


def _price(service: Service, integration: CarrierIntegration) -> Decimal:
    return money(service.price * (1 + integration.markup_percent / 100) + integration.markup_fixed)


def with_live_options(
    groups: tuple[QuotedGroup, ...],
    info: QuoteInfo,
    *,
    dates: Dates | None,
    started: float,
) -> tuple[tuple[QuotedGroup, ...], datetime | None]:
    """The groups with their live options (and verdicts), and the earliest carrier answer's
    expiry (None without calls). The calls end by `started` + CARRIER_TIMEOUT_MS."""
    integrations = kept(
        SHIPPING_CACHE,
        "carrier-integrations",
        lambda: {item.table_id: item for item in CarrierIntegration.objects.all()},
    )
    destination = info.request.target_zipcode
    # (group index, table, integration or None, parcel)
    asked: list[tuple[int, TableInfo, CarrierIntegration | None, Parcel | None]] = []
    for index, quoted in enumerate(groups):
        group, storage = quoted.group, quoted.storage.storage
        if group.service:
            continue
        origin = try_normalize_postal_code(storage.country_code, storage.zip_code)
        for table in info.tables.values():
            if table.table.kind != ShippingTableKind.LIVE:
                continue
            if not table.engine.serves(group.storage_id, group.cargo_type_ids):
                continue
            integration = integrations.get(table.table.pk)
            parcel = _parcel(quoted, origin, destination) if origin and integration else None
            asked.append((index, table, integration, parcel))
    calls = [(integration, parcel) for _, _, integration, parcel in asked if parcel and integration]
    deadline = started + settings.CARRIER_TIMEOUT_MS / 1000
    answers = iter(live_answers(calls, deadline=deadline))
    results: dict[int, Found] = {}
    for index, table, integration, parcel in asked:
        if integration is None:
            answer = LiveAnswer(None, "the table has no carrier integration")
        elif parcel is None:
            answer = LiveAnswer(None, "the storage has no valid postal code")
        else:
            answer = next(answers)
        results.setdefault(index, []).append((table, integration, answer))
    merged = tuple(
        _merged(quoted, results[index], dates) if index in results else quoted
        for index, quoted in enumerate(groups)
    )
    expiries = [answer.expires for found in results.values() for *_, answer in found]
    expires = min((moment for moment in expiries if moment), default=None)
    return merged, None if expires is None else datetime.fromtimestamp(expires, UTC)


Found = list[tuple[TableInfo, CarrierIntegration | None, LiveAnswer]]


def _merged(quoted: QuotedGroup, found: Found, dates: Dates | None) -> QuotedGroup:
    group = quoted.group
    options = list(quoted.options)
    explained: dict[int, ExplainedTable] = {}  # the live tables' verdicts, by table id
    for table, integration, answer in found:
        table_id = table.table.pk
        enabled = integration.service_ids if integration else frozenset()
        services = [s for s in answer.services or () if not enabled or s.id in enabled]
        for service in services:
            assert integration is not None  # (services come from an integration's answer)
            handling = group.additional_time + integration.extra_days
            row = quote.QuoteRow(
                id=0,
                table_id=table_id,
                initial_zipcode=quoted.target_code,
                final_zipcode=quoted.target_code,
                shipping_value=service.price,
                begin_days=service.min_days,
                end_days=service.max_days,
            )
            option = quote.ShippingOption(
                table_id=table_id,
                row=row,
                value=_price(service, integration),
                begin_days=handling + service.min_days,
                end_days=handling + service.max_days,
            )
            options.append(
                QuotedOption(
                    option,
                    table,
                    estimate=dates(
                        origin=quoted.storage.origin,
                        delivers_on_saturdays=table.table.delivers_on_saturdays,
                        handling_days=handling,
                        begin_days=service.min_days,
                        end_days=service.max_days,
                    )
                    if dates
                    else None,
                    live=service,
                )
            )
        reasons = () if services else (Rejection.CARRIER_UNAVAILABLE,)
        detail = "" if services else answer.error or "no enabled service can carry this parcel"
        explained[table_id] = ExplainedTable(table.table, TableVerdict(table_id, reasons), detail)
    options.sort(key=lambda o: (o.option.value, o.option.end_days, o.option.begin_days))
    explanation = quoted.explanation and tuple(
        explained.get(table.table.pk, table) for table in quoted.explanation
    )
    problem = None if options else group.problem
    return replace(
        quoted,
        group=replace(group, problem=problem),
        options=tuple(options),
        explanation=explanation,
    )
