"""Fetch: everything a shipping quote reads, in a fixed number of queries (as Saleor's
checkout/fetch.py does for a checkout).

`quote_info_fetch()` returns the engine's input (`quote.QuoteRequest`, `quote.QuoteData`)
and, joined by id, the records the answer shows: products with their price and stock,
storages, tables with their carrier and pickups. Store-wide data (storages, tables) is
cached; the products and the rows covering the postal code are read each time.
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
from infra.cache import cached

from . import quote
from .models import Pickup, ShippingRow, ShippingTable, ShippingTableKind
from .postal import format_postal_code, try_normalize_postal_code

# Carriers, tables, rows and pickups (quote answers also follow catalog.PRODUCTS_CACHE).
SHIPPING_CACHE = "shipping"


@dataclass(frozen=True)
class StorageInfo:
    storage: Storage
    zip_code: str  # in the country's usual format (as typed when not valid)
    excluded_trade_policy_ids: tuple[int, ...]  # sorted


@dataclass(frozen=True)
class TableInfo:
    table: ShippingTable  # with its carrier
    storage_ids: frozenset[int]
    cargo_type_ids: frozenset[int]
    pickups: tuple[Pickup, ...]  # the active pickup points of a pickup table


@dataclass(frozen=True)
class ProductStock:
    storage: StorageInfo
    quantity: int  # sellable now: available minus reserved (> 0)


@dataclass(frozen=True)
class ProductInfo:
    product: Product  # with its main category and parent
    price: pricing.Price  # in the quote's trade policy, for the quantity requested
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
    return cached(PRODUCTS_CACHE, "quote-storage-infos", _load_storages)


def _load_storages() -> dict[int, StorageInfo]:
    """One query (a row per exception)."""
    storages: dict[int, Storage] = {}
    excluded: dict[int, set[int]] = {}
    for storage in Storage.objects.active().annotate(
        excluded_policy_id=F("trade_policy_exceptions__id")
    ):
        storages.setdefault(storage.pk, storage)
        policies = excluded.setdefault(storage.pk, set())
        if storage.excluded_policy_id is not None:
            policies.add(storage.excluded_policy_id)
    return {
        pk: StorageInfo(
            storage=storage,
            zip_code=_display_zip_code(storage.country_code, storage.zip_code),
            excluded_trade_policy_ids=tuple(sorted(excluded[pk])),
        )
        for pk, storage in storages.items()
    }


def _display_zip_code(country: str, zip_code: str) -> str:
    code = try_normalize_postal_code(country, zip_code)
    return format_postal_code(country, code) if code else zip_code


def _tables(country: str) -> dict[int, TableInfo]:
    """Active tables of the country with their storages, cargo types and pickups (cached)."""
    return cached(SHIPPING_CACHE, f"table-infos:{country}", lambda: _load_tables(country))


def _load_tables(country: str) -> dict[int, TableInfo]:
    """Two queries: the tables (a row per storage and cargo type), the pickups if any."""
    tables: dict[int, ShippingTable] = {}
    storage_ids: dict[int, set[int]] = {}
    cargo_type_ids: dict[int, set[int]] = {}
    rows = (
        ShippingTable.objects.active()
        .filter(country=country)
        .select_related("carrier")
        .annotate(storage_ref=F("storages__id"), cargo_type_ref=F("cargo_types__id"))
    )
    for table in rows:
        tables.setdefault(table.pk, table)
        if table.storage_ref is not None:
            storage_ids.setdefault(table.pk, set()).add(table.storage_ref)
        if table.cargo_type_ref is not None:
            cargo_type_ids.setdefault(table.pk, set()).add(table.cargo_type_ref)
    pickup_table_ids = [pk for pk, t in tables.items() if t.kind == ShippingTableKind.PICKUP]
    pickups: dict[int, list[Pickup]] = {}
    if pickup_table_ids:
        for pickup in Pickup.objects.active().filter(table_id__in=pickup_table_ids):
            pickups.setdefault(pickup.table_id, []).append(pickup)
    return {
        pk: TableInfo(
            table=table,
            storage_ids=frozenset(storage_ids.get(pk, ())),
            cargo_type_ids=frozenset(cargo_type_ids.get(pk, ())),
            pickups=tuple(pickups.get(pk, ())),
        )
        for pk, table in tables.items()
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


def _quote_product(info: ProductInfo) -> quote.QuoteProduct:
    product, price = info.product, info.price
    return quote.QuoteProduct(
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
    )


def _quote_storage(info: StorageInfo) -> quote.QuoteStorage:
    storage = info.storage
    return quote.QuoteStorage(
        id=storage.pk,
        latitude=_coordinate(storage.latitude),
        longitude=_coordinate(storage.longitude),
        active=storage.active,
        excluded_trade_policy_ids=frozenset(info.excluded_trade_policy_ids),
        additional_time=storage.additional_time,
        priority=storage.priority,
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
    """What quoting (product id, quantity) items to a normalized postal code reads.

    A fixed number of queries whatever the number of items, storages and rows: the
    products (five), the rows covering the postal code, and on a cold cache the price
    rules, categories, storages and tables with their pickups. The target coordinates are
    those of the postal code's address (shipping.selectors.postal_code_get), if known.
    """
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
        quantity = quantities[product.pk]
        products[product.pk] = ProductInfo(
            product=product,
            price=product_price_get(product=product, context=context, quantity=quantity),
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
        products=tuple(_quote_product(info) for info in products.values()),
        storages=tuple(_quote_storage(info) for info in storages.values()),
        stock=tuple(
            quote.StockLevel(stock.product_id, stock.storage_id, stock.available - stock.reserved)
            for info in products.values()
            for stock in info.product.active_stocks
        ),
        tables=tuple(
            quote.QuoteTable(
                id=pk, storage_ids=info.storage_ids, cargo_type_ids=info.cargo_type_ids
            )
            for pk, info in tables.items()
        ),
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
