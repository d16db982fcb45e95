"""The shipping quote engine (DESIGN §6), pure: frozen dataclasses in, frozen dataclasses out.

`quote()` merges repeated products, ranks the eligible storages (nearest, then highest
priority), groups the items by origin (the storage serving the most remaining items
takes them, so items are split only when no storage can serve all) and gives each group
one option per table serving it: its cheapest matching row plus variables. Units: kg, cm,
cm3, Decimal money.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_UP, Decimal
from enum import StrEnum

from infra.money import money

GRAM = Decimal("0.001")
EARTH_RADIUS_KM = 6371.0088
DEFAULT_CUBIC_DIVISOR = 6000


class ItemProblem(StrEnum):
    """Why a requested item is in `error_items`."""

    NOT_FOUND = "not_found"  # no such product
    INACTIVE = "inactive"  # the product is not sold
    NOT_FOR_SALE = "not_for_sale"  # no price in the trade policy
    NO_STORAGE = "no_storage"  # no active storage serves the trade policy
    OUT_OF_STOCK = "out_of_stock"  # no eligible storage has the quantity


class GroupProblem(StrEnum):
    NO_SHIPPING_OPTION = "no_shipping_option"


class VariableKind(StrEnum):
    PER_EXTRA_KG = "per_extra_kg"
    ORDER_VALUE_PERCENTAGE = "order_value_percentage"
    FIXED_FEE = "fixed_fee"


@dataclass(frozen=True)
class RequestedItem:
    product_id: int
    quantity: int


@dataclass(frozen=True)
class QuoteProduct:
    id: int
    price: Decimal | None  # sale price in the trade policy; None: not for sale there
    active: bool = True
    weight: Decimal = Decimal("0")  # kg per unit
    height: Decimal = Decimal("0")  # cm
    width: Decimal = Decimal("0")
    length: Decimal = Decimal("0")
    cargo_type_id: int | None = None
    additional_time: int = 0
    sale_without_stock: bool = False
    service: bool = False


@dataclass(frozen=True)
class QuoteStorage:
    id: int
    latitude: float | None = None
    longitude: float | None = None
    active: bool = True
    excluded_trade_policy_ids: frozenset[int] = frozenset()
    additional_time: int = 0
    priority: int = 0


@dataclass(frozen=True)
class StockLevel:
    product_id: int
    storage_id: int
    quantity: int  # sellable now: available minus reserved


@dataclass(frozen=True)
class QuoteVariable:
    kind: VariableKind | str
    value: Decimal
    threshold: Decimal = Decimal("0")


@dataclass(frozen=True)
class QuoteRow:
    id: int
    table_id: int
    initial_zipcode: str
    final_zipcode: str
    shipping_value: Decimal
    begin_days: int
    end_days: int
    initial_weight: Decimal = Decimal("0")
    final_weight: Decimal = Decimal("9999999.999")
    initial_price: Decimal = Decimal("0")
    final_price: Decimal = Decimal("9999999999.99")
    variables: tuple[QuoteVariable, ...] = ()


@dataclass(frozen=True)
class QuoteTable:
    id: int
    storage_ids: frozenset[int] = frozenset()  # empty: ships from every storage
    cargo_type_ids: frozenset[int] = frozenset()  # empty: accepts every cargo type
    active: bool = True

    def serves(self, storage_id: int, cargo_type_ids: Iterable[int]) -> bool:
        if not self.active:
            return False
        if self.storage_ids and storage_id not in self.storage_ids:
            return False
        return not self.cargo_type_ids or set(cargo_type_ids) <= self.cargo_type_ids


@dataclass(frozen=True)
class QuoteRequest:
    items: tuple[RequestedItem, ...]
    trade_policy_id: int
    target_zipcode: str  # normalized (shipping.postal)
    target_latitude: float | None = None
    target_longitude: float | None = None
    cubic_divisor: int = DEFAULT_CUBIC_DIVISOR


@dataclass(frozen=True)
class QuoteData:
    products: tuple[QuoteProduct, ...] = ()
    storages: tuple[QuoteStorage, ...] = ()
    stock: tuple[StockLevel, ...] = ()
    tables: tuple[QuoteTable, ...] = ()
    rows: tuple[QuoteRow, ...] = ()


@dataclass(frozen=True)
class ErrorItem:
    product_id: int
    quantity: int
    problem: ItemProblem


@dataclass(frozen=True)
class GroupItem:
    product_id: int
    quantity: int
    unit_price: Decimal
    total_price: Decimal
    unit_weight: Decimal
    total_weight: Decimal
    cubic_volume_item: Decimal
    total_cubic_volume: Decimal
    additional_time: int
    cargo_type_id: int | None


@dataclass(frozen=True)
class ShippingOption:
    table_id: int
    row: QuoteRow
    value: Decimal
    begin_days: int
    end_days: int


@dataclass(frozen=True)
class QuoteGroup:
    storage_id: int
    distance_km: float
    items: tuple[GroupItem, ...]
    quantity_items: int
    total_price: Decimal
    total_weight: Decimal
    total_cubic_volume: Decimal
    cubic_weight: Decimal
    billable_weight: Decimal
    cargo_type_ids: tuple[int, ...]
    additional_time: int
    service: bool
    options: tuple[ShippingOption, ...]
    problem: GroupProblem | None = None


@dataclass(frozen=True)
class QuoteResult:
    groups: tuple[QuoteGroup, ...] = ()
    error_items: tuple[ErrorItem, ...] = ()


def great_circle_km(
    lat1: float | None, lon1: float | None, lat2: float | None, lon2: float | None
) -> float | None:
    """Haversine distance in kilometres, None when a coordinate is unknown."""
    if lat1 is None or lon1 is None or lat2 is None or lon2 is None:
        return None
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    d_phi = phi2 - phi1
    d_lambda = math.radians(lon2 - lon1)
    a = math.sin(d_phi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(d_lambda / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


def row_matches(row: QuoteRow, *, zipcode: str, weight: Decimal, value: Decimal) -> bool:
    return (
        row.initial_zipcode <= zipcode <= row.final_zipcode
        and row.initial_weight <= weight <= row.final_weight
        and row.initial_price <= value <= row.final_price
    )


def row_value(row: QuoteRow, *, weight: Decimal, order_value: Decimal) -> Decimal:
    """The row's shipping value plus its variables (per kg or part above the threshold,
    a percentage of the order value, a fixed fee), rounded to cents."""
    total = row.shipping_value
    for variable in row.variables:
        kind = VariableKind(variable.kind)
        if kind is VariableKind.PER_EXTRA_KG:
            extra = weight - variable.threshold
            if extra > 0:
                total += variable.value * extra.to_integral_value(rounding=ROUND_UP)
        elif kind is VariableKind.ORDER_VALUE_PERCENTAGE:
            total += order_value * variable.value / 100
        else:
            total += variable.value
    return money(total)


def billable_weight(*, weight: Decimal, volume: Decimal, cubic_divisor: int) -> Decimal:
    cubic = volume / Decimal(cubic_divisor)
    return max(weight, cubic).quantize(GRAM, rounding=ROUND_UP)


def _ranked_storages(
    request: QuoteRequest, storages: Iterable[QuoteStorage]
) -> list[tuple[QuoteStorage, float]]:
    """Eligible storages, nearest first, with their distance (0 when it cannot be known)."""
    latitude, longitude = request.target_latitude, request.target_longitude
    has_target = latitude is not None and longitude is not None
    ranked = []
    for storage in storages:
        if not storage.active or request.trade_policy_id in storage.excluded_trade_policy_ids:
            continue
        km = great_circle_km(latitude, longitude, storage.latitude, storage.longitude)
        distance = 0.0 if km is None else km
        # Storages whose distance cannot be computed come after those whose can.
        unknown_last = 1 if has_target and km is None else 0
        ranked.append(((unknown_last, distance, -storage.priority, storage.id), storage, distance))
    ranked.sort(key=lambda entry: entry[0])
    return [(storage, distance) for _, storage, distance in ranked]


def merged_items(items: Iterable[RequestedItem]) -> list[RequestedItem]:
    """One entry per product (quantities summed), in order of first appearance."""
    quantities: dict[int, int] = {}
    for item in items:
        quantities[item.product_id] = quantities.get(item.product_id, 0) + item.quantity
    return [RequestedItem(product_id, quantity) for product_id, quantity in quantities.items()]


def _group(
    request: QuoteRequest,
    storage: QuoteStorage,
    distance: float,
    items: list[tuple[RequestedItem, QuoteProduct]],
    tables: tuple[QuoteTable, ...],
    rows_by_table: dict[int, list[QuoteRow]],
) -> QuoteGroup:
    group_items = []
    for requested, product in items:
        assert product.price is not None  # quote() sends unpriced products to error_items
        quantity = requested.quantity
        unit_volume = product.height * product.width * product.length
        group_items.append(
            GroupItem(
                product_id=product.id,
                quantity=quantity,
                unit_price=product.price,
                total_price=product.price * quantity,
                unit_weight=product.weight,
                total_weight=product.weight * quantity,
                cubic_volume_item=unit_volume,
                total_cubic_volume=unit_volume * quantity,
                additional_time=product.additional_time,
                cargo_type_id=product.cargo_type_id,
            )
        )
    total_price = sum((item.total_price for item in group_items), Decimal("0"))
    total_weight = sum((item.total_weight for item in group_items), Decimal("0"))
    total_volume = sum((item.total_cubic_volume for item in group_items), Decimal("0"))
    billable = billable_weight(
        weight=total_weight, volume=total_volume, cubic_divisor=request.cubic_divisor
    )
    cargo_type_ids = tuple(
        sorted({item.cargo_type_id for item in group_items if item.cargo_type_id is not None})
    )
    additional_time = storage.additional_time + max(item.additional_time for item in group_items)
    service = all(product.service for _, product in items)

    options: list[ShippingOption] = []
    if not service:
        for table in tables:
            if not table.serves(storage.id, cargo_type_ids):
                continue
            matching = (
                ShippingOption(
                    table_id=table.id,
                    row=row,
                    value=row_value(row, weight=billable, order_value=total_price),
                    begin_days=row.begin_days + additional_time,
                    end_days=row.end_days + additional_time,
                )
                for row in rows_by_table.get(table.id, ())
                if row_matches(
                    row, zipcode=request.target_zipcode, weight=billable, value=total_price
                )
            )
            if (best := min(matching, key=_option_key, default=None)) is not None:
                options.append(best)
        options.sort(key=_option_key)

    return QuoteGroup(
        storage_id=storage.id,
        distance_km=round(distance, 3),
        items=tuple(group_items),
        quantity_items=sum(item.quantity for item in group_items),
        total_price=total_price,
        total_weight=total_weight,
        total_cubic_volume=total_volume,
        cubic_weight=total_volume / Decimal(request.cubic_divisor),
        billable_weight=billable,
        cargo_type_ids=cargo_type_ids,
        additional_time=additional_time,
        service=service,
        options=tuple(options),
        problem=None if options or service else GroupProblem.NO_SHIPPING_OPTION,
    )


@dataclass(frozen=True)
class PickupPoint:
    id: int
    zip_code: str  # normalized (shipping.postal)
    latitude: float | None = None
    longitude: float | None = None


def nearest_pickup(
    points: Iterable[PickupPoint],
    *,
    target_zipcode: str,
    target_latitude: float | None = None,
    target_longitude: float | None = None,
) -> int | None:
    """The id of the pickup point nearest the target (None without points): by distance
    when both coordinates are known, else by the numeric difference of same-length digit
    postal codes (CEPs are assigned by region), else last; ties in listed order."""
    target_number = (
        int(target_zipcode) if target_zipcode.isascii() and target_zipcode.isdigit() else None
    )
    best: tuple[int, float, int] | None = None
    best_id = None
    for index, point in enumerate(points):
        km = great_circle_km(target_latitude, target_longitude, point.latitude, point.longitude)
        if km is not None:
            key: tuple[int, float, int] = (0, km, index)
        elif (
            target_number is not None
            and point.zip_code.isascii()
            and point.zip_code.isdigit()
            and len(point.zip_code) == len(target_zipcode)
        ):
            key = (1, abs(int(point.zip_code) - target_number), index)
        else:
            key = (2, 0, index)
        if best is None or key < best:
            best, best_id = key, point.id
    return best_id


def _option_key(option: ShippingOption) -> tuple[Decimal, int, int, int, int]:
    return (option.value, option.end_days, option.begin_days, option.table_id, option.row.id)


def quote(request: QuoteRequest, data: QuoteData) -> QuoteResult:
    if request.cubic_divisor <= 0:
        raise ValueError("The cubic divisor must be positive.")
    products = {product.id: product for product in data.products}
    stock = {(level.product_id, level.storage_id): level.quantity for level in data.stock}
    ranked = _ranked_storages(request, data.storages)

    errors: list[ErrorItem] = []
    # Each servable item with the ranks of the storages that can serve it.
    servable: list[tuple[RequestedItem, QuoteProduct, set[int]]] = []
    for requested in merged_items(request.items):
        product = products.get(requested.product_id)
        ranks: set[int] = set()
        if product is None:
            problem = ItemProblem.NOT_FOUND
        elif not product.active:
            problem = ItemProblem.INACTIVE
        elif product.price is None:
            problem = ItemProblem.NOT_FOR_SALE
        elif not ranked:
            problem = ItemProblem.NO_STORAGE
        else:
            ranks = {
                rank
                for rank, (storage, _) in enumerate(ranked)
                if product.service
                or product.sale_without_stock
                or stock.get((product.id, storage.id), 0) >= requested.quantity
            }
            problem = ItemProblem.OUT_OF_STOCK  # if no storage has the quantity
        if ranks and product is not None:  # (only a known product has ranks)
            servable.append((requested, product, ranks))
        else:
            errors.append(ErrorItem(requested.product_id, requested.quantity, problem))

    rows_by_table: dict[int, list[QuoteRow]] = {}
    for row in data.rows:
        rows_by_table.setdefault(row.table_id, []).append(row)

    groups: list[QuoteGroup] = []
    remaining = servable
    while remaining:
        # The storage serving the most remaining items; the nearest among equals.
        counts = Counter(rank for _, _, ranks in remaining for rank in ranks)
        chosen = min(counts, key=lambda rank: (-counts[rank], rank))
        storage, distance = ranked[chosen]
        taken = [(requested, product) for requested, product, ranks in remaining if chosen in ranks]
        remaining = [entry for entry in remaining if chosen not in entry[2]]
        groups.append(_group(request, storage, distance, taken, data.tables, rows_by_table))

    return QuoteResult(groups=tuple(groups), error_items=tuple(errors))
