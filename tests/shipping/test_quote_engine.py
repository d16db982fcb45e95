"""The pure quote engine (shipping/quote.py), rule by rule, without a database."""

from decimal import Decimal

import pytest

from shipping.quote import (
    GroupProblem,
    ItemProblem,
    QuoteData,
    QuoteProduct,
    QuoteRequest,
    QuoteRow,
    QuoteStorage,
    QuoteTable,
    QuoteVariable,
    RequestedItem,
    StockLevel,
    VariableKind,
    billable_weight,
    great_circle_km,
    quote,
    row_matches,
    row_value,
)

SAO_PAULO = (-23.561684, -46.655981)
RIO = (-22.903539, -43.209587)
CURITIBA = (-25.428954, -49.267137)

D = Decimal


def product(product_id: int, **kwargs) -> QuoteProduct:
    defaults = {
        "price": D("10.00"),
        "weight": D("1.000"),
        "height": D("10"),
        "width": D("10"),
        "length": D("10"),
    }
    return QuoteProduct(id=product_id, **{**defaults, **kwargs})


def storage(storage_id: int, coords=SAO_PAULO, **kwargs) -> QuoteStorage:
    latitude, longitude = coords if coords else (None, None)
    return QuoteStorage(id=storage_id, latitude=latitude, longitude=longitude, **kwargs)


def row(row_id: int = 1, table_id: int = 1, **kwargs) -> QuoteRow:
    defaults = {
        "initial_zipcode": "00000000",
        "final_zipcode": "99999999",
        "shipping_value": D("20.00"),
        "begin_days": 2,
        "end_days": 5,
    }
    return QuoteRow(id=row_id, table_id=table_id, **{**defaults, **kwargs})


def request(*items: tuple[int, int], target=RIO, zipcode="20040002", **kwargs) -> QuoteRequest:
    latitude, longitude = target if target else (None, None)
    return QuoteRequest(
        items=tuple(RequestedItem(pid, qty) for pid, qty in items),
        trade_policy_id=kwargs.pop("trade_policy_id", 1),
        target_zipcode=zipcode,
        target_latitude=latitude,
        target_longitude=longitude,
        **kwargs,
    )


# --- Distances and storage choice ------------------------------------------------------


def test_great_circle_distance_sao_paulo_to_rio_is_about_360_km():
    assert great_circle_km(*SAO_PAULO, *RIO) == pytest.approx(361, abs=5)
    assert great_circle_km(*RIO, *RIO) == 0


def test_items_ship_from_the_nearest_storage_that_has_the_stock():
    # given storages in São Paulo (1) and Rio (2), both with stock
    data = QuoteData(
        products=(product(10),),
        storages=(storage(1, SAO_PAULO), storage(2, RIO)),
        stock=(StockLevel(10, 1, 5), StockLevel(10, 2, 5)),
    )
    # when quoting to Rio
    result = quote(request((10, 1), target=RIO), data)
    # then Rio's storage serves, at distance 0
    assert [group.storage_id for group in result.groups] == [2]
    assert result.groups[0].distance_km == 0


def test_a_nearer_storage_without_enough_stock_is_skipped():
    data = QuoteData(
        products=(product(10),),
        storages=(storage(1, SAO_PAULO), storage(2, RIO)),
        stock=(StockLevel(10, 1, 5), StockLevel(10, 2, 1)),
    )
    result = quote(request((10, 3), target=RIO), data)
    assert [group.storage_id for group in result.groups] == [1]
    assert result.groups[0].distance_km == pytest.approx(361, abs=5)


def test_inactive_storages_and_those_excluding_the_trade_policy_are_skipped():
    data = QuoteData(
        products=(product(10),),
        storages=(
            storage(1, RIO, active=False),
            storage(2, RIO, excluded_trade_policy_ids=frozenset({7})),
            storage(3, CURITIBA),
        ),
        stock=(StockLevel(10, 1, 9), StockLevel(10, 2, 9), StockLevel(10, 3, 9)),
    )
    result = quote(request((10, 1), trade_policy_id=7), data)
    assert [group.storage_id for group in result.groups] == [3]


def test_without_target_coordinates_the_highest_priority_storage_serves():
    data = QuoteData(
        products=(product(10),),
        storages=(storage(1, RIO, priority=1), storage(2, CURITIBA, priority=5)),
        stock=(StockLevel(10, 1, 9), StockLevel(10, 2, 9)),
    )
    result = quote(request((10, 1), target=None), data)
    assert [(g.storage_id, g.distance_km) for g in result.groups] == [(2, 0)]


def test_storages_without_coordinates_come_after_those_with_them():
    data = QuoteData(
        products=(product(10),),
        storages=(storage(1, None, priority=99), storage(2, CURITIBA)),
        stock=(StockLevel(10, 1, 9), StockLevel(10, 2, 9)),
    )
    assert quote(request((10, 1)), data).groups[0].storage_id == 2


def test_one_storage_serving_every_item_is_preferred_to_splitting():
    # Rio has only product 10; São Paulo has both: one shipment from São Paulo.
    data = QuoteData(
        products=(product(10), product(11)),
        storages=(storage(1, SAO_PAULO), storage(2, RIO)),
        stock=(StockLevel(10, 1, 9), StockLevel(11, 1, 9), StockLevel(10, 2, 9)),
    )
    result = quote(request((10, 1), (11, 1)), data)
    assert [(g.storage_id, [i.product_id for i in g.items]) for g in result.groups] == [
        (1, [10, 11])
    ]


def test_items_are_split_over_storages_when_no_single_one_serves_all():
    data = QuoteData(
        products=(product(10), product(11), product(12)),
        storages=(storage(1, SAO_PAULO), storage(2, RIO), storage(3, CURITIBA)),
        stock=(StockLevel(10, 2, 9), StockLevel(11, 1, 9), StockLevel(12, 2, 9)),
    )
    result = quote(request((10, 1), (11, 1), (12, 1)), data)
    assert [(g.storage_id, [i.product_id for i in g.items]) for g in result.groups] == [
        (2, [10, 12]),
        (1, [11]),
    ]


def test_products_sold_without_stock_or_services_ship_from_the_nearest_storage():
    data = QuoteData(
        products=(product(10, sale_without_stock=True), product(11, service=True)),
        storages=(storage(1, SAO_PAULO), storage(2, RIO)),
        stock=(),
    )
    result = quote(request((10, 4), (11, 1), target=RIO), data)
    assert [(g.storage_id, len(g.items)) for g in result.groups] == [(2, 2)]


def test_repeated_products_are_merged_into_one_item():
    data = QuoteData(products=(product(10),), storages=(storage(1),), stock=(StockLevel(10, 1, 3),))
    result = quote(request((10, 1), (10, 2)), data)
    assert [(i.product_id, i.quantity) for i in result.groups[0].items] == [(10, 3)]


# --- Error items -----------------------------------------------------------------------


def test_unknown_inactive_unpriced_and_unavailable_products_become_error_items():
    data = QuoteData(
        products=(
            product(10),
            product(11, active=False),
            product(12, price=None),
            product(13),
        ),
        storages=(storage(1),),
        stock=(StockLevel(10, 1, 9), StockLevel(13, 1, 1)),
    )
    result = quote(request((10, 1), (11, 1), (12, 1), (13, 2), (99, 4)), data)
    assert [(e.product_id, e.quantity, e.problem) for e in result.error_items] == [
        (11, 1, ItemProblem.INACTIVE),
        (12, 1, ItemProblem.NOT_FOR_SALE),
        (13, 2, ItemProblem.OUT_OF_STOCK),
        (99, 4, ItemProblem.NOT_FOUND),
    ]
    assert [i.product_id for g in result.groups for i in g.items] == [10]


def test_without_any_eligible_storage_items_have_no_storage():
    data = QuoteData(products=(product(10),), storages=(storage(1, active=False),), stock=())
    result = quote(request((10, 1)), data)
    assert result.groups == ()
    assert [e.problem for e in result.error_items] == [ItemProblem.NO_STORAGE]


def test_an_item_is_never_split_over_storages():
    data = QuoteData(
        products=(product(10),),
        storages=(storage(1), storage(2, RIO)),
        stock=(StockLevel(10, 1, 2), StockLevel(10, 2, 2)),
    )
    result = quote(request((10, 3)), data)
    assert [e.problem for e in result.error_items] == [ItemProblem.OUT_OF_STOCK]


# --- Group totals ----------------------------------------------------------------------


def test_group_totals_and_cubic_weight():
    # given 2 x (1 kg, 10x20x30 cm = 6000 cm3) and 1 x (0.5 kg, 50x40x30 = 60000 cm3)
    data = QuoteData(
        products=(
            product(
                10,
                price=D("19.90"),
                weight=D("1.000"),
                height=D(10),
                width=D(20),
                length=D(30),
                cargo_type_id=2,
                additional_time=1,
            ),
            product(
                11,
                price=D("5.05"),
                weight=D("0.500"),
                height=D(50),
                width=D(40),
                length=D(30),
                cargo_type_id=1,
                additional_time=3,
            ),
        ),
        storages=(storage(1, additional_time=2),),
        stock=(StockLevel(10, 1, 9), StockLevel(11, 1, 9)),
    )
    group = quote(request((10, 2), (11, 1)), data).groups[0]
    assert group.quantity_items == 3
    assert group.total_price == D("44.85")
    assert group.total_weight == D("2.500")
    assert group.total_cubic_volume == D("72000")
    assert group.cubic_weight == D("12")
    assert group.billable_weight == D("12.000")
    assert group.cargo_type_ids == (1, 2)
    assert group.additional_time == 2 + 3
    assert [item.cubic_volume_item for item in group.items] == [D(6000), D(60000)]
    assert [item.total_price for item in group.items] == [D("39.80"), D("5.05")]


def test_billable_weight_is_the_real_weight_when_heavier_and_rounds_up_to_grams():
    assert billable_weight(weight=D("3"), volume=D("6000"), cubic_divisor=6000) == D("3.000")
    assert billable_weight(weight=D("0"), volume=D("1"), cubic_divisor=6000) == D("0.001")
    assert billable_weight(weight=D("0"), volume=D("12000"), cubic_divisor=4000) == D("3.000")


def test_the_cubic_divisor_is_configurable():
    data = QuoteData(
        products=(product(10, weight=D(0), height=D(10), width=D(10), length=D(100)),),
        storages=(storage(1),),
        stock=(StockLevel(10, 1, 9),),
    )
    group = quote(request((10, 1), cubic_divisor=5000), data).groups[0]
    assert group.billable_weight == D("2.000")


def test_a_zero_cubic_divisor_is_refused():
    with pytest.raises(ValueError):
        quote(request((10, 1), cubic_divisor=0), QuoteData())


# --- Shipping options ------------------------------------------------------------------


def test_rows_match_by_postal_code_weight_and_order_value_ranges_inclusive():
    r = row(
        initial_zipcode="20000000",
        final_zipcode="28999999",
        initial_weight=D("1.000"),
        final_weight=D("2.000"),
        initial_price=D("0"),
        final_price=D("100.00"),
    )
    assert row_matches(r, zipcode="20000000", weight=D("1.000"), value=D("100.00"))
    assert row_matches(r, zipcode="28999999", weight=D("2.000"), value=D("0"))
    assert not row_matches(r, zipcode="19999999", weight=D("1.5"), value=D("10"))
    assert not row_matches(r, zipcode="29000000", weight=D("1.5"), value=D("10"))
    assert not row_matches(r, zipcode="20040002", weight=D("2.001"), value=D("10"))
    assert not row_matches(r, zipcode="20040002", weight=D("0.999"), value=D("10"))
    assert not row_matches(r, zipcode="20040002", weight=D("1.5"), value=D("100.01"))


def test_variables_add_per_extra_kg_percentage_and_fixed_fee():
    r = row(
        shipping_value=D("10.00"),
        variables=(
            QuoteVariable(VariableKind.PER_EXTRA_KG, D("2.50"), threshold=D("5")),
            QuoteVariable(VariableKind.ORDER_VALUE_PERCENTAGE, D("1.5")),
            QuoteVariable(VariableKind.FIXED_FEE, D("3.99")),
        ),
    )
    # 7.2 kg: 3 started kilograms above 5 -> 7.50; 1.5% of 200.00 -> 3.00; +3.99
    assert row_value(r, weight=D("7.2"), order_value=D("200.00")) == D("24.49")
    # under the threshold no per-kg charge
    assert row_value(r, weight=D("4"), order_value=D("0")) == D("13.99")


def test_percentage_variables_round_half_up_to_cents():
    r = row(
        shipping_value=D("0"),
        variables=(QuoteVariable(VariableKind.ORDER_VALUE_PERCENTAGE, D("1")),),
    )
    assert row_value(r, weight=D("1"), order_value=D("0.50")) == D("0.01")


def test_options_come_from_tables_serving_the_storage_and_cargo_types_sorted_by_value_then_days():
    data = QuoteData(
        products=(product(10, cargo_type_id=3, price=D("50.00")),),
        storages=(storage(1),),
        stock=(StockLevel(10, 1, 9),),
        tables=(
            QuoteTable(1),  # every storage and cargo type
            QuoteTable(2, storage_ids=frozenset({1})),
            QuoteTable(3, storage_ids=frozenset({2})),  # another storage
            QuoteTable(4, cargo_type_ids=frozenset({4})),  # another cargo type
            QuoteTable(5, active=False),
            QuoteTable(6, cargo_type_ids=frozenset({3, 4})),
        ),
        rows=(
            row(1, 1, shipping_value=D("30.00"), begin_days=1, end_days=2),
            row(2, 2, shipping_value=D("20.00"), begin_days=5, end_days=9),
            row(3, 3, shipping_value=D("1.00")),
            row(4, 4, shipping_value=D("1.00")),
            row(5, 5, shipping_value=D("1.00")),
            row(6, 6, shipping_value=D("20.00"), begin_days=3, end_days=4),
        ),
    )
    group = quote(request((10, 1)), data).groups[0]
    assert [(o.table_id, o.value, o.end_days) for o in group.options] == [
        (6, D("20.00"), 4),
        (2, D("20.00"), 9),
        (1, D("30.00"), 2),
    ]
    assert group.problem is None


def test_a_table_offers_its_cheapest_matching_row_once():
    data = QuoteData(
        products=(product(10, weight=D("1.000")),),
        storages=(storage(1),),
        stock=(StockLevel(10, 1, 9),),
        tables=(QuoteTable(1),),
        rows=(
            row(1, 1, final_weight=D("1.000"), shipping_value=D("15.00")),
            row(2, 1, initial_weight=D("1.000"), shipping_value=D("12.00")),
            row(3, 1, final_zipcode="10000000", shipping_value=D("1.00")),
        ),
    )
    group = quote(request((10, 1)), data).groups[0]
    assert [(o.table_id, o.row.id) for o in group.options] == [(1, 2)]


def test_delivery_days_add_the_storage_and_the_slowest_items_additional_time():
    data = QuoteData(
        products=(product(10, additional_time=1), product(11, additional_time=4)),
        storages=(storage(1, additional_time=2),),
        stock=(StockLevel(10, 1, 9), StockLevel(11, 1, 9)),
        tables=(QuoteTable(1),),
        rows=(row(1, 1, begin_days=3, end_days=6),),
    )
    option = quote(request((10, 1), (11, 1)), data).groups[0].options[0]
    assert (option.begin_days, option.end_days) == (3 + 6, 6 + 6)


def test_the_billable_weight_picks_the_row_not_the_real_weight():
    # 0.2 kg but 30x30x30 cm = 27000 cm3 -> 4.5 kg billable
    data = QuoteData(
        products=(product(10, weight=D("0.2"), height=D(30), width=D(30), length=D(30)),),
        storages=(storage(1),),
        stock=(StockLevel(10, 1, 9),),
        tables=(QuoteTable(1),),
        rows=(
            row(1, 1, final_weight=D("1"), shipping_value=D("10")),
            row(2, 1, initial_weight=D("4"), final_weight=D("5"), shipping_value=D("40")),
        ),
    )
    option = quote(request((10, 1)), data).groups[0].options[0]
    assert option.row.id == 2


def test_a_group_without_any_matching_row_has_no_options_and_says_so():
    data = QuoteData(
        products=(product(10),),
        storages=(storage(1),),
        stock=(StockLevel(10, 1, 9),),
        tables=(QuoteTable(1),),
        rows=(row(1, 1, final_zipcode="10000000"),),
    )
    group = quote(request((10, 1), zipcode="20040002"), data).groups[0]
    assert group.options == ()
    assert group.problem is GroupProblem.NO_SHIPPING_OPTION


def test_a_group_of_services_needs_no_shipping():
    data = QuoteData(
        products=(product(10, service=True, weight=D(0), height=D(0)),),
        storages=(storage(1),),
        tables=(QuoteTable(1),),
        rows=(row(1, 1),),
    )
    group = quote(request((10, 1)), data).groups[0]
    assert group.service is True
    assert group.options == ()
    assert group.problem is None
