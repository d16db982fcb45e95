"""Demo shipping data: postal codes (the storages' and around the state capitals), local
holidays, carriers with delivery tables covering every postal code, and a pickup table.
Rows are looked up by natural key; a table gets its rows only when it has none."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from functools import partial

from catalog.models import CargoType, Storage
from demo import load_data, say_created
from infra.caching.versions import cache_namespace_bump
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
    """The storages' addresses, then `codes_per_city` codes around each city's centre."""
    fields = ("code", "public_place", "complement", "district", "city", "state_code")
    records = [
        PostalCode(
            country="BRA",
            **dict(zip(fields, address, strict=True)),
            latitude=Decimal(lat),
            longitude=Decimal(lon),
        )
        for *address, lat, lon in DATA["storage_addresses"]
    ]
    step = Decimal("0.000001")
    for city, state, prefix, latitude, longitude in DATA["cities"]:
        for index in range(DATA["codes_per_city"]):
            records.append(
                PostalCode(
                    country="BRA",
                    code=f"{prefix + index * 7:05d}{(index * 137) % 1000:03d}",
                    public_place=DATA["streets"][index],
                    district=DATA["districts"][index],
                    city=city,
                    state_code=state,
                    latitude=(Decimal(latitude) + Decimal(index % 4 - 1) / 100).quantize(step),
                    longitude=(Decimal(longitude) + Decimal(index // 4 - 1) / 100).quantize(step),
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


def _delivery_rows(prices: list, table: ShippingTable) -> list[ShippingRow]:
    """`prices`: the price columns of a row of DATA["delivery_tables"]."""
    price_factor, days, days_per_zone, extra_kg_value, order_value_percentage = prices
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


def _table(stdout, *, carrier: Carrier, label: str, storages, cargo_types, rows, **fields):
    """The carrier's table `label`, created with `fields` (kind, integration code)."""
    external_code = f"{carrier.name.upper()}-{fields['integration_code']}"
    table, created = ShippingTable.objects.get_or_create(
        carrier=carrier,
        label=label,
        defaults={**fields, "country": "BRA", "external_shipping_code": external_code},
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
            rows=partial(_delivery_rows, prices),
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
