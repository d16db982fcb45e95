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
from infra.cache import cache_namespace_bump
from storefront.demo import say_created

from .models import (
    MAX_ORDER_VALUE,
    MAX_WEIGHT,
    Carrier,
    Holiday,
    HolidayScope,
    Pickup,
    PickupType,
    PostalCode,
    ShippingRow,
    ShippingTable,
    ShippingTableKind,
)
from .selectors import POSTAL_CODES_CACHE

DEMO_STORAGE_CODES = ("cd-sao-paulo", "loja-rio-centro", "cd-curitiba")

# The demo storages' own addresses.
STORAGE_ADDRESSES = [
    (
        "01310100",
        "Avenida Paulista",
        "de 612 a 1510 - lado par",
        "Bela Vista",
        "São Paulo",
        "BR-SP",
        "-23.561684",
        "-46.655981",
    ),
    (
        "20040002",
        "Avenida Rio Branco",
        "",
        "Centro",
        "Rio de Janeiro",
        "BR-RJ",
        "-22.903811",
        "-43.177144",
    ),
    (
        "80010000",
        "Rua XV de Novembro",
        "",
        "Centro",
        "Curitiba",
        "BR-PR",
        "-25.429596",
        "-49.271272",
    ),
]

# City, state, first five digits of its postal codes, latitude, longitude of the centre.
CITIES = [
    ("São Paulo", "BR-SP", 1000, "-23.550520", "-46.633308"),
    ("Campinas", "BR-SP", 13000, "-22.909938", "-47.062633"),
    ("Rio de Janeiro", "BR-RJ", 20000, "-22.906847", "-43.172896"),
    ("Vitória", "BR-ES", 29000, "-20.315500", "-40.312800"),
    ("Belo Horizonte", "BR-MG", 30100, "-19.916681", "-43.934493"),
    ("Salvador", "BR-BA", 40000, "-12.971400", "-38.501400"),
    ("Aracaju", "BR-SE", 49000, "-10.947200", "-37.073100"),
    ("Recife", "BR-PE", 50000, "-8.047600", "-34.877000"),
    ("Maceió", "BR-AL", 57000, "-9.649800", "-35.708900"),
    ("João Pessoa", "BR-PB", 58000, "-7.119500", "-34.845000"),
    ("Natal", "BR-RN", 59000, "-5.794500", "-35.211000"),
    ("Fortaleza", "BR-CE", 60000, "-3.731900", "-38.526700"),
    ("Teresina", "BR-PI", 64000, "-5.091900", "-42.803400"),
    ("São Luís", "BR-MA", 65000, "-2.530700", "-44.306800"),
    ("Belém", "BR-PA", 66000, "-1.455800", "-48.490200"),
    ("Macapá", "BR-AP", 68900, "0.034900", "-51.069400"),
    ("Manaus", "BR-AM", 69000, "-3.119000", "-60.021700"),
    ("Boa Vista", "BR-RR", 69300, "2.823500", "-60.675800"),
    ("Rio Branco", "BR-AC", 69900, "-9.975400", "-67.824900"),
    ("Brasília", "BR-DF", 70000, "-15.793900", "-47.882800"),
    ("Goiânia", "BR-GO", 74000, "-16.686900", "-49.264800"),
    ("Palmas", "BR-TO", 77000, "-10.184000", "-48.333600"),
    ("Cuiabá", "BR-MT", 78000, "-15.601400", "-56.097900"),
    ("Campo Grande", "BR-MS", 79000, "-20.469700", "-54.620100"),
    ("Porto Velho", "BR-RO", 76800, "-8.761200", "-63.900400"),
    ("Curitiba", "BR-PR", 80000, "-25.428400", "-49.273300"),
    ("Florianópolis", "BR-SC", 88000, "-27.595400", "-48.548000"),
    ("Porto Alegre", "BR-RS", 90000, "-30.034600", "-51.217700"),
]
DISTRICTS = [
    "Centro",
    "Jardim América",
    "Vila Nova",
    "Boa Vista",
    "Santa Cruz",
    "São José",
    "Liberdade",
    "Bela Vista",
    "Cidade Nova",
    "Jardim das Flores",
    "Alto da Glória",
    "Industrial",
]
STREETS = [
    "Rua das Flores",
    "Avenida Brasil",
    "Rua Sete de Setembro",
    "Rua Tiradentes",
    "Avenida Getúlio Vargas",
    "Rua Quinze de Novembro",
    "Rua Dom Pedro II",
    "Avenida Santos Dumont",
    "Rua José Bonifácio",
    "Rua Marechal Deodoro",
    "Avenida Independência",
    "Rua Barão do Rio Branco",
]
CODES_PER_CITY = 12

# Regions by the first digit of the postal code, with a distance zone from São Paulo.
REGIONS = [
    ("00000000", "09999999", 0),  # Grande São Paulo
    ("10000000", "19999999", 1),  # interior of São Paulo
    ("20000000", "29999999", 2),  # Rio de Janeiro, Espírito Santo
    ("30000000", "39999999", 2),  # Minas Gerais
    ("40000000", "49999999", 3),  # Bahia, Sergipe
    ("50000000", "59999999", 4),  # Pernambuco, Alagoas, Paraíba, Rio Grande do Norte
    ("60000000", "69999999", 5),  # Ceará to the North region
    ("70000000", "79999999", 3),  # Centre-West, Tocantins, Rondônia
    ("80000000", "89999999", 2),  # Paraná, Santa Catarina
    ("90000000", "99999999", 3),  # Rio Grande do Sul
]
WEIGHT_BANDS = [
    (Decimal("0"), Decimal("1")),
    (Decimal("1"), Decimal("3")),
    (Decimal("3"), Decimal("5")),
    (Decimal("5"), Decimal("10")),
    (Decimal("10"), Decimal("30")),
    (Decimal("30"), MAX_WEIGHT),  # above 30 kg: per extra kilogram
]
BAND_BASE = [Decimal(v) for v in ("18.90", "24.90", "32.90", "45.90", "79.90", "119.90")]
BAND_PER_ZONE = [Decimal(v) for v in ("4.00", "5.00", "7.00", "9.00", "14.00", "20.00")]
CARRIERS = [
    ("Correios", "https://rastreamento.correios.com.br/app/index.php?objetos={code}"),
    ("Jadlog", "https://www.jadlog.com.br/tracking?cte={code}"),
]
# Carrier, label, integration code, every cargo type (oversized included) or the small
# ones, then the rows': price factor, days, days per zone, price per kg above 30 kg and
# percentage of the order value (ad valorem insurance).
DELIVERY_TABLES = [
    ("Correios", "PAC", "03298", False, ("1", (3, 6), (1, 2), "4.50", "0")),
    ("Correios", "SEDEX", "03220", False, ("1.8", (1, 2), (0, 1), "8.90", "0")),
    ("Jadlog", ".Package", "3", True, ("1.25", (2, 4), (1, 1), "3.90", "0.5")),
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
        for code, street, complement, district, city, state, latitude, longitude in (
            STORAGE_ADDRESSES
        )
    ]
    for city, state, prefix, latitude, longitude in CITIES:
        for index in range(CODES_PER_CITY):
            code = f"{prefix + index * 7:05d}{(index * 137) % 1000:03d}"
            records.append(
                PostalCode(
                    country="BRA",
                    code=code,
                    public_place=STREETS[index],
                    district=DISTRICTS[index],
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
    days: tuple[int, int],
    days_per_zone: tuple[int, int],
    extra_kg_value: str,
    order_value_percentage: str,
    table: ShippingTable,
) -> list[ShippingRow]:
    rows = []
    for initial_zipcode, final_zipcode, zone in REGIONS:
        for band, (low, high) in enumerate(WEIGHT_BANDS):
            value = (BAND_BASE[band] + BAND_PER_ZONE[band] * zone) * Decimal(price_factor)
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


# (name, scope, state, city, IBGE code, month, day): yearly holidays. 9 July is also in the
# holidays package (São Paulo state's): listed to show a state holiday kept as data.
HOLIDAYS = [
    ("Aniversário de São Paulo", HolidayScope.CITY, "BR-SP", "São Paulo", "3550308", 1, 25),
    ("Revolução Constitucionalista", HolidayScope.STATE, "BR-SP", "", "", 7, 9),
    ("São Sebastião", HolidayScope.CITY, "BR-RJ", "Rio de Janeiro", "3304557", 1, 20),
    ("Nossa Senhora da Luz dos Pinhais", HolidayScope.CITY, "BR-PR", "Curitiba", "4106902", 9, 8),
]


def _seed_holidays(stdout) -> None:
    for name, scope, state_code, city, ibge_code, month, day in HOLIDAYS:
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

    storages = list(Storage.objects.filter(code__in=DEMO_STORAGE_CODES))
    small_cargo = list(CargoType.objects.filter(name__in=["Regular", "Frágil"]))

    carriers = {}
    for name, tracking_url_template in CARRIERS:
        carriers[name], created = Carrier.objects.get_or_create(
            name=name, defaults={"tracking_url_template": tracking_url_template}
        )
        say_created(stdout, f"carrier {name}", created)
    for carrier, label, code, every_cargo_type, prices in DELIVERY_TABLES:
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
        rows=lambda table: [
            ShippingRow(
                table=table,
                initial_zipcode="00000000",
                final_zipcode="09999999",
                initial_weight=Decimal("0"),
                final_weight=Decimal("30"),
                shipping_value=Decimal("9.90"),
                begin_shipping_time=2,
                end_shipping_time=4,
            )
        ],
    )
    for name, address, number, district, zip_code, latitude, longitude, hours in (
        (
            "Pickup Augusta",
            "Rua Augusta",
            "1500",
            "Consolação",
            "01304001",
            "-23.556700",
            "-46.659500",
            "Mon-Fri 9:00-20:00; Sat 9:00-14:00",
        ),
        (
            "Pickup Pinheiros",
            "Rua dos Pinheiros",
            "870",
            "Pinheiros",
            "05422001",
            "-23.565400",
            "-46.682900",
            "Mon-Sat 10:00-22:00",
        ),
    ):
        _, created = Pickup.objects.get_or_create(
            table=pickup_table,
            name=name,
            defaults={
                "type": PickupType.PARTNER,
                "address": address,
                "number": number,
                "district": district,
                "city": "São Paulo",
                "state_code": "BR-SP",
                "country_code": "BRA",
                "zip_code": zip_code,
                "latitude": Decimal(latitude),
                "longitude": Decimal(longitude),
                "opening_hours": hours,
            },
        )
        say_created(stdout, f"pickup point {name}", created)
