"""Reads of the shipping app: postal-code lookup and the data of a shipping quote."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    default_trade_policy_id,
    product_price_get,
    trade_policy_exists,
)
from infra.cache import cached

from . import quote
from .models import Pickup, PostalCode, ShippingRow, ShippingTable, ShippingTableKind
from .postal import format_postal_code, try_normalize_postal_code

POSTAL_CODES_CACHE = "postal-codes"
# Carriers, tables, rows and pickups (quote answers also follow catalog.PRODUCTS_CACHE).
SHIPPING_CACHE = "shipping"


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

    def build():
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


@dataclass
class StorageInfo:
    storage: Storage
    excluded_trade_policy_ids: set[int] = field(default_factory=set)


@dataclass
class TableInfo:
    table: ShippingTable
    storage_ids: set[int] = field(default_factory=set)
    cargo_type_ids: set[int] = field(default_factory=set)


@dataclass
class QuoteOutcome:
    """The engine's result and the records it refers to, for the response."""

    result: quote.QuoteResult
    trade_policy_id: int
    target_code: str  # as shown (01310-100)
    products: dict[int, Product]
    prices: dict[int, pricing.Price]
    storages: dict[int, StorageInfo]
    tables: dict[int, TableInfo]
    pickups: dict[int, list[Pickup]]
    # The next price-rule start or end: the quote may change by itself then.
    valid_until: datetime | None = None


def _quote_products(ids: list[int], trade_policy_id: int) -> dict[int, Product]:
    """The products with what pricing and the engine read (their summaries come from the
    product read model): five queries whatever the number of products."""
    products = (
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
    return {product.pk: product for product in products}


def _storages() -> dict[int, StorageInfo]:
    """Active storages with their trade-policy exceptions (cached with the catalog)."""
    return cached(PRODUCTS_CACHE, "quote-storages", _load_storages)


def _load_storages() -> dict[int, StorageInfo]:
    """One query (a row per exception)."""
    storages: dict[int, StorageInfo] = {}
    for storage in Storage.objects.active().annotate(
        excluded_policy_id=F("trade_policy_exceptions__id")
    ):
        info = storages.setdefault(storage.pk, StorageInfo(storage))
        if storage.excluded_policy_id is not None:
            info.excluded_trade_policy_ids.add(storage.excluded_policy_id)
    return storages


def _tables(country: str) -> dict[int, TableInfo]:
    """Active tables of the country with their storages and cargo types (cached)."""
    return cached(SHIPPING_CACHE, f"tables:{country}", lambda: _load_tables(country))


def _load_tables(country: str) -> dict[int, TableInfo]:
    """One query (a row per storage and cargo type of a table)."""
    tables: dict[int, TableInfo] = {}
    rows = (
        ShippingTable.objects.active()
        .filter(country=country)
        .select_related("carrier")
        .annotate(storage_ref=F("storages__id"), cargo_type_ref=F("cargo_types__id"))
    )
    for table in rows:
        info = tables.setdefault(table.pk, TableInfo(table))
        if table.storage_ref is not None:
            info.storage_ids.add(table.storage_ref)
        if table.cargo_type_ref is not None:
            info.cargo_type_ids.add(table.cargo_type_ref)
    return tables


def _coordinate(value) -> float | None:
    return None if value is None else float(value)


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
) -> QuoteOutcome:
    """Quote shipping of (product id, quantity) items to a normalized postal code.

    A fixed number of queries whatever the number of items, storages and rows: products
    with their summary relations and prices, storages, tables, the rows covering the
    postal code, and the pickups of the pickup tables that answered.
    """
    target = postal_code_get(country=country, code=zip_code)
    requested = tuple(quote.RequestedItem(pid, qty) for pid, qty in items)
    quantities: dict[int, int] = {}
    for item in requested:
        quantities[item.product_id] = quantities.get(item.product_id, 0) + item.quantity

    products = _quote_products(list(quantities), trade_policy_id)
    moment = timezone.now()
    rules = active_price_rules()
    context = PriceContext(
        trade_policy_id=trade_policy_id,
        moment=moment,
        rules=rules,
        categories=category_index(),
    )
    prices = {
        pid: product_price_get(product=product, context=context, quantity=quantities[pid])
        for pid, product in products.items()
    }
    storages = _storages()
    tables = _tables(country)
    rows = (
        list(ShippingRow.objects.filter(table_id__in=list(tables)).covering(zip_code))
        if tables
        else []
    )

    data = quote.QuoteData(
        products=tuple(
            quote.QuoteProduct(
                id=product.pk,
                price=prices[product.pk].sale_price
                if prices[product.pk].available_for_sale
                else None,
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
            for product in products.values()
        ),
        storages=tuple(
            quote.QuoteStorage(
                id=info.storage.pk,
                latitude=_coordinate(info.storage.latitude),
                longitude=_coordinate(info.storage.longitude),
                active=info.storage.active,
                excluded_trade_policy_ids=frozenset(info.excluded_trade_policy_ids),
                additional_time=info.storage.additional_time,
                priority=info.storage.priority,
            )
            for info in storages.values()
        ),
        stock=tuple(
            quote.StockLevel(stock.product_id, stock.storage_id, stock.available - stock.reserved)
            for product in products.values()
            for stock in product.active_stocks
        ),
        tables=tuple(
            quote.QuoteTable(
                id=info.table.pk,
                storage_ids=frozenset(info.storage_ids),
                cargo_type_ids=frozenset(info.cargo_type_ids),
                active=True,
            )
            for info in tables.values()
        ),
        rows=tuple(
            quote.QuoteRow(
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
            for row in rows
        ),
    )
    request = quote.QuoteRequest(
        items=requested,
        trade_policy_id=trade_policy_id,
        target_zipcode=zip_code,
        target_latitude=_coordinate(target.latitude) if target else None,
        target_longitude=_coordinate(target.longitude) if target else None,
        cubic_divisor=settings.SHIPPING_CUBIC_DIVISOR,
    )
    result = quote.quote(request, data)

    pickup_table_ids = {
        option.table_id
        for group in result.groups
        for option in group.options
        if tables[option.table_id].table.kind == ShippingTableKind.PICKUP
    }
    pickups: dict[int, list[Pickup]] = {}
    if pickup_table_ids:
        for pickup in Pickup.objects.active().filter(table_id__in=pickup_table_ids):
            pickups.setdefault(pickup.table_id, []).append(pickup)

    return QuoteOutcome(
        result=result,
        trade_policy_id=trade_policy_id,
        target_code=format_postal_code(country, zip_code),
        products=products,
        prices=prices,
        storages=storages,
        tables=tables,
        pickups=pickups,
        valid_until=pricing.next_rule_boundary(rules, moment),
    )


def storage_display_zip_code(storage: Storage) -> str:
    """A storage's postal code in its country's usual format (as typed when not valid)."""
    code = try_normalize_postal_code(storage.country_code, storage.zip_code)
    return format_postal_code(storage.country_code, code) if code else storage.zip_code
