"""Fetch: everything a shipping quote reads, in a fixed number of queries (as Saleor's
checkout/fetch.py), mapped to what the engine and the calendar read. Storages, tables and
their rows (an in-memory range index) are kept in process memory until the shipping data
changes; each product (price, stock, categories) until it changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from operator import attrgetter
from typing import Any, NamedTuple

from django.conf import settings
from django.db.models import F, FilteredRelation, Q
from django.utils import timezone

from catalog import pricing
from catalog.models import Product, Storage
from catalog.selectors import (
    PRICING_FIELDS,
    PRODUCTS_CACHE,
    STORED_PRICE_FIELDS,
    PriceContext,
    active_price_rules,
    catalogue_ids,
    category_index,
    price_get,
    pricing_data_from_row,
    product_namespaces,
)
from infra.caching.kept import Warm, kept, kept_many

from . import quote
from .calendar import Calendar, Origin, Place, city_key
from .models import (
    ROW_COLUMNS,
    VARIABLE_FIELDS,
    Holiday,
    Pickup,
    ShippingRow,
    ShippingTable,
    ShippingTableKind,
)
from .postal import format_postal_code, try_normalize_postal_code
from .ranges import RangeIndex

# Carriers, tables, rows and pickups (quote answers also follow catalog.PRODUCTS_CACHE).
SHIPPING_CACHE = "shipping"


@dataclass(frozen=True)
class StorageInfo:
    storage: Storage
    engine: quote.QuoteStorage  # what the engine reads
    origin: Origin  # what the calendar reads
    zip_code: str  # in the country's usual format (as typed when not valid)


@dataclass(frozen=True)
class TableInfo:
    table: ShippingTable  # with its carrier
    engine: quote.QuoteTable  # what the engine reads
    pickups: tuple[Pickup, ...]  # the active pickup points of a pickup table
    points: tuple[quote.PickupPoint, ...]  # what the engine reads of them


@dataclass(frozen=True)
class ProductStock:
    storage: StorageInfo
    quantity: int  # sellable now: available minus reserved (> 0)


class ProductRow(NamedTuple):
    """A product as the quote reads it (PRODUCT_FIELDS, then what comes with it), kept in
    process memory per product and trade policy until the product changes."""

    id: int
    base_price: Decimal
    active: bool
    parent_id: int | None
    brand_id: int | None
    main_category_id: int | None
    name: str
    sku: str
    service: bool
    sale_without_stock: bool
    weight: Decimal
    height: Decimal
    width: Decimal
    length: Decimal
    cargo_type_id: int | None
    additional_time: int
    main_category_name: str | None
    parent_active: bool | None  # None: no parent
    price: pricing.StoredPrice | None  # its price in the policy; None: none
    stocks: tuple[tuple[int, int, int], ...]  # (storage id, available, reserved), by storage
    category_ids: tuple[int, ...] = ()  # its categories' and its parent's

    def pricing_fields(self) -> dict[str, Any]:
        """The PRICING_FIELDS, as catalog's pricing reads a row."""
        return {name: getattr(self, name) for name in PRICING_FIELDS}


@dataclass(frozen=True)
class ProductInfo:
    product: ProductRow
    price: pricing.Price  # in the quote's trade policy, for the quantity requested
    engine: quote.QuoteProduct  # what the engine reads
    stocks: tuple[ProductStock, ...]  # the active storages that hold units, by id


@dataclass(frozen=True)
class QuoteInfo:
    request: quote.QuoteRequest
    data: quote.QuoteData
    target_code: str  # as shown (01310-100)
    products: dict[int, ProductInfo]
    storages: dict[int, StorageInfo]
    tables: dict[int, TableInfo]
    # The next price-rule start or end: the quote may change by itself then.
    valid_until: datetime | None
    moment: datetime  # when the quote was computed (prices, dates)


def _coordinate(value: Decimal | None) -> float | None:
    return None if value is None else float(value)


def _load_storages() -> dict[int, StorageInfo]:
    """Active storages with their trade-policy exceptions, in one query."""
    found: dict[int, tuple[Storage, set[int]]] = {}
    for row in Storage.objects.active().annotate(excluded_id=F("trade_policy_exceptions__id")):
        _, excluded = found.setdefault(row.pk, (row, set()))
        if row.excluded_id is not None:
            excluded.add(row.excluded_id)
    return {
        pk: StorageInfo(
            storage=storage,
            engine=quote.QuoteStorage(
                id=pk,
                latitude=_coordinate(storage.latitude),
                longitude=_coordinate(storage.longitude),
                excluded_trade_policy_ids=frozenset(excluded),
                additional_time=storage.additional_time,
                priority=storage.priority,
            ),
            origin=Origin(
                place=Place(storage.country_code, storage.state_code, city_key(storage.city)),
                cutoff=storage.cutoff_time,
                saturdays=storage.dispatches_on_saturdays,
            ),
            zip_code=_display_zip_code(storage.country_code, storage.zip_code),
        )
        for pk, (storage, excluded) in found.items()
    }


def _display_zip_code(country: str, zip_code: str) -> str:
    code = try_normalize_postal_code(country, zip_code)
    return format_postal_code(country, code) if code else zip_code


def _load_tables(country: str) -> dict[int, TableInfo]:
    """Active tables of the country with their storages, cargo types and pickups: two
    queries (the tables, a row per storage and cargo type; the pickups if any)."""
    found: dict[int, tuple[ShippingTable, set[int], set[int]]] = {}
    rows = (
        ShippingTable.objects.active()
        .filter(country=country)
        .select_related("carrier")
        .annotate(storage_ref=F("storages__id"), cargo_type_ref=F("cargo_types__id"))
    )
    for row in rows:
        _, storage_ids, cargo_type_ids = found.setdefault(row.pk, (row, set(), set()))
        if row.storage_ref is not None:
            storage_ids.add(row.storage_ref)
        if row.cargo_type_ref is not None:
            cargo_type_ids.add(row.cargo_type_ref)
    pickup_tables = [pk for pk, (t, _, _) in found.items() if t.kind == ShippingTableKind.PICKUP]
    pickups: dict[int, list[Pickup]] = {}
    for pickup in (
        Pickup.objects.active().filter(table_id__in=pickup_tables) if pickup_tables else ()
    ):
        pickups.setdefault(pickup.table_id, []).append(pickup)
    return {
        pk: TableInfo(
            table=table,
            engine=quote.QuoteTable(pk, frozenset(storage_ids), frozenset(cargo_type_ids)),
            pickups=tuple(pickups.get(pk, ())),
            points=tuple(
                quote.PickupPoint(
                    id=pickup.pk,
                    zip_code=try_normalize_postal_code(pickup.country_code, pickup.zip_code) or "",
                    latitude=_coordinate(pickup.latitude),
                    longitude=_coordinate(pickup.longitude),
                )
                for pickup in pickups.get(pk, ())
            ),
        )
        for pk, (table, storage_ids, cargo_type_ids) in found.items()
    }


def holiday_calendar() -> Calendar:
    """Brazil's holidays and the store's, kept in process memory until the shipping data
    changes."""
    return kept(
        SHIPPING_CACHE,
        "holiday-calendar",
        lambda: Calendar(holiday.rule() for holiday in Holiday.objects.all()),
    )


# What the engine and the answer read of a product row (pricing's fields too).
PRODUCT_FIELDS = (
    *PRICING_FIELDS,
    "name",
    "sku",
    "service",
    "sale_without_stock",
    "weight",
    "height",
    "width",
    "length",
    "cargo_type_id",
    "additional_time",
)


def _product_rows(ids: list[int], trade_policy_id: int) -> dict[int, ProductRow]:
    """The products with their price in the policy and stocks, in one query: a row per
    product and stock row (without their categories: `_products` adds them)."""
    price = {f"price_{name}": F(f"policy_price__{name}") for name in STORED_PRICE_FIELDS}
    rows = (
        Product.objects.filter(pk__in=ids)
        .annotate(
            policy_price=FilteredRelation(
                "prices", condition=Q(prices__trade_policy_id=trade_policy_id)
            )
        )
        .values(
            *PRODUCT_FIELDS,
            **price,
            main_category_name=F("main_category__name"),
            parent_active=F("parent__active"),
            stock_storage_id=F("stocks__storage_id"),
            stock_available=F("stocks__available"),
            stock_reserved=F("stocks__reserved"),
        )
    )
    firsts: dict[int, dict[str, Any]] = {}  # each product's first row
    stocks: dict[int, list[tuple[int, int, int]]] = {}
    for row in rows:
        firsts.setdefault(row["id"], row)
        found = stocks.setdefault(row["id"], [])
        if row["stock_storage_id"] is not None:
            found.append((row["stock_storage_id"], row["stock_available"], row["stock_reserved"]))
    return {pk: _product_row(row, tuple(sorted(stocks[pk]))) for pk, row in firsts.items()}


def _product_row(row: dict[str, Any], stocks: tuple[tuple[int, int, int], ...]) -> ProductRow:
    stored = None
    if row["price_sale_price"] is not None:
        stored = pricing.StoredPrice(**{name: row[f"price_{name}"] for name in STORED_PRICE_FIELDS})
    return ProductRow(
        **{name: row[name] for name in PRODUCT_FIELDS},
        main_category_name=row["main_category_name"],
        parent_active=row["parent_active"],
        price=stored,
        stocks=stocks,
    )


def _products(ids: list[int], trade_policy_id: int) -> dict[int, ProductRow]:
    """The product rows with their `category_ids` (own and parent's), kept in process memory
    per product and policy until they change."""

    def load(keys: list[tuple[int, int]]) -> dict[tuple[int, int], ProductRow]:
        rows = _product_rows([pk for pk, _ in keys], trade_policy_id)
        categories = _category_ids(rows)
        return {
            (pk, trade_policy_id): row._replace(category_ids=tuple(categories[pk]))
            for pk, row in rows.items()
        }

    found = kept_many(
        "quote-products",
        [(pk, trade_policy_id) for pk in ids],
        lambda key: (PRODUCTS_CACHE, *product_namespaces([key[0]])),
        load,
        warm=Warm(
            PRODUCTS_CACHE,
            lambda start, stop: [(pk, trade_policy_id) for pk in catalogue_ids(start, stop)],
        ),
    )
    return {pk: row for (pk, _), row in found.items()}


def _category_ids(products: dict[int, ProductRow]) -> dict[int, list[int]]:
    """{product id: its categories' and its parent's}, in one query."""
    parent_ids = {row.parent_id for row in products.values() if row.parent_id is not None}
    links = Product.categories.through.objects.filter(
        product_id__in=[*products, *parent_ids]
    ).values_list("product_id", "category_id")
    own: dict[int, list[int]] = {}
    for product_id, category_id in links:
        own.setdefault(product_id, []).append(category_id)
    return {
        pk: own.get(pk, []) + (own.get(row.parent_id, []) if row.parent_id is not None else [])
        for pk, row in products.items()
    }


ROW_FIELDS = ("id", "table_id", *ROW_COLUMNS, *VARIABLE_FIELDS)


# Countries whose active tables have more rows than this read them per quote (by SQL)
# instead of keeping them in each process's memory (about 1 KB a row).
MAX_ROWS_IN_MEMORY = 20_000


def _quote_rows(country: str, table_ids: list[int], zip_code: str) -> tuple[quote.QuoteRow, ...]:
    """The rows of the tables covering the postal code: from the country's rows kept in
    process memory, or by SQL past MAX_ROWS_IN_MEMORY."""
    if not table_ids:
        return ()
    index = kept(SHIPPING_CACHE, f"row-index:{country}", lambda: _row_index(table_ids))
    if index is not None:
        return index.covering(zip_code)
    rows = ShippingRow.objects.filter(table_id__in=table_ids).covering(zip_code)
    return _engine_rows(rows.values(*ROW_FIELDS))


def _row_index(table_ids: list[int]) -> RangeIndex[quote.QuoteRow] | None:
    rows = ShippingRow.objects.filter(table_id__in=table_ids).values(*ROW_FIELDS)
    found = _engine_rows(rows[: MAX_ROWS_IN_MEMORY + 1])
    if len(found) > MAX_ROWS_IN_MEMORY:
        return None
    return RangeIndex(found, low=attrgetter("initial_zipcode"), high=attrgetter("final_zipcode"))


def _engine_rows(rows: Iterable[dict[str, Any]]) -> tuple[quote.QuoteRow, ...]:
    return tuple(
        quote.QuoteRow(
            id=row["id"],
            table_id=row["table_id"],
            initial_zipcode=row["initial_zipcode"],
            final_zipcode=row["final_zipcode"],
            initial_weight=row["initial_weight"],
            final_weight=row["final_weight"],
            initial_price=row["initial_price"],
            final_price=row["final_price"],
            shipping_value=row["shipping_value"],
            begin_days=row["begin_shipping_time"],
            end_days=row["end_shipping_time"],
            variables=_variables(row),
        )
        for row in rows
    )


def _variables(row: dict[str, Any]) -> tuple[quote.QuoteVariable, ...]:
    """A row's extra charges, as the engine takes them (the non-zero ones)."""
    kind = quote.VariableKind
    variables = (
        quote.QuoteVariable(kind.PER_EXTRA_KG, row["extra_kg_value"], row["extra_kg_threshold"]),
        quote.QuoteVariable(kind.ORDER_VALUE_PERCENTAGE, row["order_value_percentage"]),
        quote.QuoteVariable(kind.FIXED_FEE, row["fixed_fee"]),
    )
    return tuple(variable for variable in variables if variable.value)


def quote_info_fetch(
    *,
    items: list[tuple[int, int]],
    country: str,
    zip_code: str,
    trade_policy_id: int,
    target_latitude: Decimal | None = None,
    target_longitude: Decimal | None = None,
) -> QuoteInfo:
    """What quoting (product id, quantity) items to a normalized postal code reads, in a
    fixed number of queries whatever the number of items, storages and rows."""
    requested = tuple(quote.RequestedItem(pid, qty) for pid, qty in items)
    quantities = {item.product_id: item.quantity for item in quote.merged_items(requested)}
    moment = timezone.now()
    rules = active_price_rules()
    context = PriceContext(
        trade_policy_id=trade_policy_id,
        moment=moment,
        rules=rules,
        categories=category_index(),
    )
    storages = kept(PRODUCTS_CACHE, "quote-storage-infos", _load_storages)
    tables = kept(SHIPPING_CACHE, f"table-infos:{country}", lambda: _load_tables(country))
    products = {
        pk: _product_info(row, quantities[pk], context, storages)
        for pk, row in _products(list(quantities), trade_policy_id).items()
    }
    request = quote.QuoteRequest(
        items=requested,
        trade_policy_id=trade_policy_id,
        target_zipcode=zip_code,
        target_latitude=_coordinate(target_latitude),
        target_longitude=_coordinate(target_longitude),
        cubic_divisor=settings.SHIPPING_CUBIC_DIVISOR,
    )
    return QuoteInfo(
        request=request,
        data=_engine_data(products, storages, tables, _quote_rows(country, list(tables), zip_code)),
        target_code=format_postal_code(country, zip_code),
        products=products,
        storages=storages,
        tables=tables,
        valid_until=pricing.next_rule_boundary(rules, moment),
        moment=moment,
    )


def _product_info(
    row: ProductRow, quantity: int, context: PriceContext, storages: dict[int, StorageInfo]
) -> ProductInfo:
    """A product row priced for the quantity in the quote's policy, as the engine reads it."""
    price = price_get(
        pricing_data_from_row(row.pricing_fields(), row.category_ids, context),
        row.price,
        context=context,
        quantity=quantity,
    )
    return ProductInfo(
        product=row,
        price=price,
        engine=quote.QuoteProduct(
            id=row.id,
            price=price.sale_price if price.available_for_sale else None,
            active=row.active and row.parent_active is not False,
            weight=row.weight,
            height=row.height,
            width=row.width,
            length=row.length,
            cargo_type_id=row.cargo_type_id,
            additional_time=row.additional_time,
            sale_without_stock=row.sale_without_stock,
            service=row.service,
        ),
        stocks=tuple(
            ProductStock(storages[storage_id], available - reserved)
            for storage_id, available, reserved in row.stocks
            if available > reserved and storage_id in storages
        ),
    )


def _engine_data(
    products: dict[int, ProductInfo],
    storages: dict[int, StorageInfo],
    tables: dict[int, TableInfo],
    rows: tuple[quote.QuoteRow, ...],
) -> quote.QuoteData:
    """The engine's input: products, storages, stock levels, tables and covering rows."""
    return quote.QuoteData(
        products=tuple(info.engine for info in products.values()),
        storages=tuple(info.engine for info in storages.values()),
        stock=tuple(
            quote.StockLevel(pid, stock.storage.engine.id, stock.quantity)
            for pid, info in products.items()
            for stock in info.stocks
        ),
        tables=tuple(info.engine for info in tables.values()),
        rows=rows,
    )
