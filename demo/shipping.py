"""Demo shipping data for `manage.py seed_demo`.

- Postal codes: the demo storages' addresses (01310-100 São Paulo, 20040-002 Rio de
  Janeiro, 80010-000 Curitiba) and about 330 more around the state capitals and
  Campinas, with coordinates near each city's centre.
- Holidays of the demo storages' cities and São Paulo state (Brazil's national and state
  holidays come from the `holidays` package; these show staff the store's own list).
- Carriers Correios (PAC, SEDEX) and Jadlog (.Package, and a pickup table with two pickup
  points in São Paulo). The delivery tables cover every Brazilian postal code
  (00000-000 to 99999-999) in ten regions by first digit and six weight bands; the last
  band charges per extra kilogram above 30 kg.

Idempotent: postal codes are inserted only when missing; holidays by place and date;
carriers, tables and pickup points are looked up by name; a table gets its rows only when
it has none. Nothing staff changed is overwritten.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from functools import partial

from catalog.models import CargoType, Storage
from demo import load_data, say_created
from infra.cache import cache_namespace_bump
from shipping.models import (
    MAX_ORDER_VALUE,
    MAX_WEIGHT,
    Carrier,
    Holiday,
    Pickup,
    PostalCode,
    ShippingRow,
    ShippingTable,
    ShippingTableKind,
)
from shipping.selectors import POSTAL_CODES_CACHE

DATA = load_data("shipping")
WEIGHT_BANDS = [
    (Decimal(low), MAX_WEIGHT if high == "max" else Decimal(high))
    for low, high in DATA["weight_bands"]
]


def _demo_postal_codes() -> list[PostalCode]:
    records = [
        PostalCode(
            country="BRA",
            code=code,
            public_place=street,
            complement=complement,
            district=district,
            city=city,
            state_code=state,
            latitude=Decimal(latitude),
            longitude=Decimal(longitude),
        )
        for code, street, complement, district, city, state, latitude, longitude in DATA[
            "storage_addresses"
        ]
    ]
    for city, state, prefix, latitude, longitude in DATA["cities"]:
        for index in range(DATA["codes_per_city"]):
            code = f"{prefix + index * 7:05d}{(index * 137) % 1000:03d}"
            records.append(
                PostalCode(
                    country="BRA",
                    code=code,
                    public_place=DATA["streets"][index],
                    district=DATA["districts"][index],
                    city=city,
                    state_code=state,
                    latitude=(Decimal(latitude) + Decimal(index % 4 - 1) / 100).quantize(
                        Decimal("0.000001")
                    ),
                    longitude=(Decimal(longitude) + Decimal(index // 4 - 1) / 100).quantize(
                        Decimal("0.000001")
                    ),
                )
            )
    return records


def _seed_postal_codes(stdout) -> None:
    before = PostalCode.objects.count()
    PostalCode.objects.bulk_create(_demo_postal_codes(), ignore_conflicts=True, batch_size=500)
    created = PostalCode.objects.count() - before
    if created:
        cache_namespace_bump(POSTAL_CODES_CACHE)
        stdout.write(f"  created {created} postal codes")


def _delivery_rows(
    price_factor: str,
    days: list[int],
    days_per_zone: list[int],
    extra_kg_value: str,
    order_value_percentage: str,
    table: ShippingTable,
) -> list[ShippingRow]:
    rows = []
    for initial_zipcode, final_zipcode, zone in DATA["regions"]:
        for band, (low, high) in enumerate(WEIGHT_BANDS):
            base, per_zone = DATA["band_base"][band], DATA["band_per_zone"][band]
            value = (Decimal(base) + Decimal(per_zone) * zone) * Decimal(price_factor)
            is_last_band = high == MAX_WEIGHT
            rows.append(
                ShippingRow(
                    table=table,
                    initial_zipcode=initial_zipcode,
                    final_zipcode=final_zipcode,
                    initial_weight=low,
                    final_weight=high,
                    initial_price=Decimal("0"),
                    final_price=MAX_ORDER_VALUE,
                    shipping_value=value.quantize(Decimal("0.01")),
                    begin_shipping_time=days[0] + days_per_zone[0] * zone,
                    end_shipping_time=days[1] + days_per_zone[1] * zone,
                    extra_kg_value=Decimal(extra_kg_value) if is_last_band else Decimal("0"),
                    extra_kg_threshold=Decimal("30") if is_last_band else Decimal("0"),
                    order_value_percentage=Decimal(order_value_percentage),
                )
            )
    return rows


def _table(
    stdout,
    *,
    carrier: Carrier,
    label: str,
    kind: str,
    integration_code: str,
    storages,
    cargo_types,
    rows,
) -> ShippingTable:
    table, created = ShippingTable.objects.get_or_create(
        carrier=carrier,
        label=label,
        defaults={
            "kind": kind,
            "country": "BRA",
            "integration_code": integration_code,
            "external_shipping_code": f"{carrier.name.upper()}-{integration_code}",
        },
    )
    if created:
        table.storages.set(storages)
        table.cargo_types.set(cargo_types)
        stdout.write(f"  created shipping table {table}")
    if not table.rows.exists():
        ShippingRow.objects.bulk_create(rows(table))
        stdout.write(f"  created {table.rows.count()} rows of {table}")
    return table


def _seed_holidays(stdout) -> None:
    for name, scope, state_code, city, ibge_code, month, day in DATA["holidays"]:
        _, created = Holiday.objects.get_or_create(
            scope=scope,
            state_code=state_code,
            city=city,
            date=date(2000, month, day),
            yearly=True,
            defaults={"name": name, "ibge_code": ibge_code},
        )
        say_created(stdout, f"holiday {name}", created)


def seed(*, stdout) -> None:
    stdout.write("Shipping: postal codes, holidays, carriers, shipping tables, pickup points")
    _seed_postal_codes(stdout)
    _seed_holidays(stdout)

    storages = list(Storage.objects.filter(code__in=DATA["storage_codes"]))
    small_cargo = list(CargoType.objects.filter(name__in=["Regular", "Frágil"]))

    carriers = {}
    for name, tracking_url_template in DATA["carriers"]:
        carriers[name], created = Carrier.objects.get_or_create(
            name=name, defaults={"tracking_url_template": tracking_url_template}
        )
        say_created(stdout, f"carrier {name}", created)
    for carrier, label, code, every_cargo_type, *prices in DATA["delivery_tables"]:
        _table(
            stdout,
            carrier=carriers[carrier],
            label=label,
            kind=ShippingTableKind.DELIVERY,
            integration_code=code,
            storages=storages,
            cargo_types=[] if every_cargo_type else small_cargo,
            rows=partial(_delivery_rows, *prices),
        )
    pickup_table = _table(
        stdout,
        carrier=carriers["Jadlog"],
        label="Jadlog Pickup",
        kind=ShippingTableKind.PICKUP,
        integration_code="40",
        storages=storages,
        cargo_types=small_cargo,
        rows=lambda table: [ShippingRow(table=table, **DATA["pickup_row"])],
    )
    for spec in DATA["pickups"]:
        _, created = Pickup.objects.get_or_create(
            table=pickup_table, name=spec["name"], defaults=spec
        )
        say_created(stdout, f"pickup point {spec['name']}", created)
