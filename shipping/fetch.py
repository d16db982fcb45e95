"""Fetch: everything a shipping quote reads, in a fixed number of queries (as Saleor's
checkout/fetch.py): the engine's input (quote.QuoteRequest, quote.QuoteData) and, by id,
the records the answer shows. Storages and tables are cached; products and rows are not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.db.models import F, Prefetch
from django.utils import timezone

from catalog import pricing
from catalog.models import Product, ProductPrice, Stock, Storage
from catalog.selectors import (
    PRODUCTS_CACHE,
    PriceContext,
    active_price_rules,
    category_index,
    product_price_get,
)
from infra.cache import kept

from . import quote
from .models import Pickup, ShippingRow, ShippingTable, ShippingTableKind
from .postal import format_postal_code, try_normalize_postal_code

# Carriers, tables, rows and pickups (quote answers also follow catalog.PRODUCTS_CACHE).
SHIPPING_CACHE = "shipping"


@dataclass(frozen=True)
class StorageInfo:
    storage: Storage
    engine: quote.QuoteStorage  # what the engine reads
    zip_code: str  # in the country's usual format (as typed when not valid)
    excluded_trade_policy_ids: tuple[int, ...]  # sorted


@dataclass(frozen=True)
class TableInfo:
    table: ShippingTable  # with its carrier
    engine: quote.QuoteTable  # what the engine reads
    pickups: tuple[Pickup, ...]  # the active pickup points of a pickup table


@dataclass(frozen=True)
class ProductStock:
    storage: StorageInfo
    quantity: int  # sellable now: available minus reserved (> 0)


@dataclass(frozen=True)
class ProductInfo:
    product: Product  # with its main category and parent
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


def _coordinate(value: Decimal | None) -> float | None:
    return None if value is None else float(value)


def _storages() -> dict[int, StorageInfo]:
    """Active storages with their trade-policy exceptions (cached with the catalog)."""
    return kept(PRODUCTS_CACHE, "quote-storage-infos", _load_storages)


def _load_storages() -> dict[int, StorageInfo]:
    """One query (a row per exception)."""
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
                active=storage.active,
                excluded_trade_policy_ids=frozenset(excluded),
                additional_time=storage.additional_time,
                priority=storage.priority,
            ),
            zip_code=_display_zip_code(storage.country_code, storage.zip_code),
            excluded_trade_policy_ids=tuple(sorted(excluded)),
        )
        for pk, (storage, excluded) in found.items()
    }


def _display_zip_code(country: str, zip_code: str) -> str:
    code = try_normalize_postal_code(country, zip_code)
    return format_postal_code(country, code) if code else zip_code


def _tables(country: str) -> dict[int, TableInfo]:
    """Active tables of the country with their storages, cargo types and pickups (cached)."""
    return kept(SHIPPING_CACHE, f"table-infos:{country}", lambda: _load_tables(country))


def _load_tables(country: str) -> dict[int, TableInfo]:
    """Two queries: the tables (a row per storage and cargo type), the pickups if any."""
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
        )
        for pk, (table, storage_ids, cargo_type_ids) in found.items()
    }


def _products(ids: list[int], trade_policy_id: int) -> list[Product]:
    """The products with what pricing, the engine and the answer read (their summaries come
    from the product read model): five queries whatever the number of products."""
    return list(
        Product.objects.filter(pk__in=ids)
        # feeds the item's `category` and the variation's parent (active, categories)
        .select_related("main_category", "parent")
        .prefetch_related(
            # feeds the stock levels per storage
            Prefetch(
                "stocks",
                queryset=Stock.objects.in_active_storages().order_by("storage_id"),
                to_attr="active_stocks",
            ),
            # feeds the item's price in the requested trade policy
            Prefetch(
                "prices",
                queryset=ProductPrice.objects.filter(trade_policy_id=trade_policy_id),
                to_attr="all_prices",
            ),
            # feed price rules targeting categories (catalog.selectors.product_pricing_data)
            "categories",
            "parent__categories",
        )
    )


def _quote_row(row: ShippingRow) -> quote.QuoteRow:
    return quote.QuoteRow(
        id=row.pk,
        table_id=row.table_id,
        initial_zipcode=row.initial_zipcode,
        final_zipcode=row.final_zipcode,
        initial_weight=row.initial_weight,
        final_weight=row.final_weight,
        initial_price=row.initial_price,
        final_price=row.final_price,
        shipping_value=row.shipping_value,
        begin_days=row.begin_shipping_time,
        end_days=row.end_shipping_time,
        variables=row.variables,
    )


def quote_info_fetch(
    *,
    items: list[tuple[int, int]],
    country: str,
    zip_code: str,
    trade_policy_id: int,
    target_latitude: Decimal | None = None,
    target_longitude: Decimal | None = None,
) -> QuoteInfo:
    """What quoting (product id, quantity) items to a normalized postal code reads, with
    the coordinates of its address if known. A fixed number of queries whatever the number
    of items, storages and rows: the products (five) and the rows covering the postal code,
    plus on a cold cache the price rules, categories, storages, tables and pickups."""
    requested = tuple(quote.RequestedItem(pid, qty) for pid, qty in items)
    quantities: dict[int, int] = {}
    for item in requested:
        quantities[item.product_id] = quantities.get(item.product_id, 0) + item.quantity

    moment = timezone.now()
    rules = active_price_rules()
    context = PriceContext(
        trade_policy_id=trade_policy_id,
        moment=moment,
        rules=rules,
        categories=category_index(),
    )
    storages = _storages()
    tables = _tables(country)
    products: dict[int, ProductInfo] = {}
    for product in _products(list(quantities), trade_policy_id):
        price = product_price_get(product=product, context=context, quantity=quantities[product.pk])
        products[product.pk] = ProductInfo(
            product=product,
            price=price,
            engine=quote.QuoteProduct(
                id=product.pk,
                price=price.sale_price if price.available_for_sale else None,
                active=product.active and (product.parent is None or product.parent.active),
                weight=product.weight,
                height=product.height,
                width=product.width,
                length=product.length,
                cargo_type_id=product.cargo_type_id,
                additional_time=product.additional_time,
                sale_without_stock=product.sale_without_stock,
                service=product.service,
            ),
            stocks=tuple(
                ProductStock(storages[stock.storage_id], stock.available - stock.reserved)
                for stock in product.active_stocks
                if stock.available > stock.reserved and stock.storage_id in storages
            ),
        )
    rows = (
        ShippingRow.objects.filter(table_id__in=list(tables)).covering(zip_code) if tables else ()
    )
    data = quote.QuoteData(
        products=tuple(info.engine for info in products.values()),
        storages=tuple(info.engine for info in storages.values()),
        stock=tuple(
            quote.StockLevel(pid, stock.storage.engine.id, stock.quantity)
            for pid, info in products.items()
            for stock in info.stocks
        ),
        tables=tuple(info.engine for info in tables.values()),
        rows=tuple(_quote_row(row) for row in rows),
    )
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
        data=data,
        target_code=format_postal_code(country, zip_code),
        products=products,
        storages=storages,
        tables=tables,
        valid_until=pricing.next_rule_boundary(rules, moment),
    )
