"""Properties of the quote engine over random catalogs, stock, tables and requests."""

from collections import Counter
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from shipping.quote import (
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
    quote,
    row_matches,
)

PRODUCT_IDS = st.integers(min_value=1, max_value=8)
STORAGE_IDS = list(range(1, 6))
TABLE_IDS = list(range(1, 5))
# Decimals built from integers: much faster to generate than st.decimals.
money = st.integers(0, 50_000).map(lambda cents: Decimal(cents).scaleb(-2))
kilograms = st.integers(0, 30_000).map(lambda grams: Decimal(grams).scaleb(-3))
centimetres = st.integers(0, 800).map(lambda mm: Decimal(mm).scaleb(-1))
percentages = st.integers(0, 10_000).map(lambda n: Decimal(n).scaleb(-2))
zipcodes = st.integers(min_value=0, max_value=99_999_999).map(lambda n: f"{n:08d}")
coordinates = st.one_of(
    st.none(),
    st.tuples(
        st.floats(min_value=-60, max_value=10, allow_nan=False),
        st.floats(min_value=-75, max_value=-30, allow_nan=False),
    ),
)


@st.composite
def products(draw, product_id):
    if draw(st.integers(0, 9)) == 0:
        return None  # unknown product
    return QuoteProduct(
        id=product_id,
        price=draw(st.one_of(st.none(), money)) if draw(st.booleans()) else draw(money),
        active=draw(st.integers(0, 9)) > 0,
        weight=draw(kilograms),
        height=draw(centimetres),
        width=draw(centimetres),
        length=draw(centimetres),
        cargo_type_id=draw(st.one_of(st.none(), st.integers(1, 3))),
        additional_time=draw(st.integers(0, 5)),
        sale_without_stock=draw(st.integers(0, 5)) == 0,
        service=draw(st.integers(0, 9)) == 0,
    )


@st.composite
def rows(draw, row_id):
    low_zip, high_zip = sorted([draw(zipcodes), draw(zipcodes)])
    low_weight, high_weight = sorted([draw(kilograms), draw(kilograms)])
    low_price, high_price = sorted([draw(money), draw(money) * 10])
    begin = draw(st.integers(0, 10))
    variables = draw(
        st.lists(
            st.builds(
                QuoteVariable,
                kind=st.sampled_from(list(VariableKind)),
                value=percentages,
                threshold=kilograms,
            ),
            max_size=3,
        )
    )
    return QuoteRow(
        id=row_id,
        table_id=draw(st.sampled_from(TABLE_IDS)),
        initial_zipcode=low_zip,
        final_zipcode=high_zip,
        initial_weight=low_weight,
        final_weight=high_weight,
        initial_price=low_price,
        final_price=high_price,
        shipping_value=draw(money),
        begin_days=begin,
        end_days=begin + draw(st.integers(0, 10)),
        variables=tuple(variables),
    )


@st.composite
def scenarios(draw):
    requested = draw(
        st.lists(
            st.builds(RequestedItem, product_id=PRODUCT_IDS, quantity=st.integers(1, 20)),
            min_size=1,
            max_size=15,
        )
    )
    catalog = [draw(products(pid)) for pid in range(1, 9)]
    storages = []
    for storage_id in STORAGE_IDS:
        coords = draw(coordinates)
        storages.append(
            QuoteStorage(
                id=storage_id,
                latitude=coords[0] if coords else None,
                longitude=coords[1] if coords else None,
                active=draw(st.integers(0, 5)) > 0,
                excluded_trade_policy_ids=frozenset(draw(st.sets(st.integers(1, 2)))),
                additional_time=draw(st.integers(0, 3)),
                priority=draw(st.integers(-2, 2)),
            )
        )
    stock = draw(
        st.lists(
            st.builds(
                StockLevel,
                product_id=PRODUCT_IDS,
                storage_id=st.sampled_from(STORAGE_IDS),
                quantity=st.integers(0, 25),
            ),
            max_size=40,
            unique_by=lambda level: (level.product_id, level.storage_id),
        )
    )
    tables = [
        QuoteTable(
            id=table_id,
            storage_ids=frozenset(draw(st.sets(st.sampled_from(STORAGE_IDS), max_size=3))),
            cargo_type_ids=frozenset(draw(st.sets(st.integers(1, 3), max_size=3))),
            active=draw(st.integers(0, 5)) > 0,
        )
        for table_id in TABLE_IDS
    ]
    table_rows = [draw(rows(row_id)) for row_id in range(1, draw(st.integers(0, 12)) + 1)]
    target = draw(coordinates)
    request = QuoteRequest(
        items=tuple(requested),
        trade_policy_id=draw(st.integers(1, 2)),
        target_zipcode=draw(zipcodes),
        target_latitude=target[0] if target else None,
        target_longitude=target[1] if target else None,
        cubic_divisor=draw(st.sampled_from([4000, 5000, 6000])),
    )
    data = QuoteData(
        products=tuple(p for p in catalog if p is not None),
        storages=tuple(storages),
        stock=tuple(stock),
        tables=tuple(tables),
        rows=tuple(table_rows),
    )
    return request, data


@settings(max_examples=50, deadline=None)
@given(scenarios())
def test_every_requested_item_lands_in_exactly_one_group_or_in_error_items(scenario):
    request, data = scenario
    result = quote(request, data)
    requested = Counter()
    for item in request.items:
        requested[item.product_id] += item.quantity
    placed = [(i.product_id, i.quantity) for g in result.groups for i in g.items]
    placed += [(e.product_id, e.quantity) for e in result.error_items]
    assert sorted(placed) == sorted(requested.items())


@settings(max_examples=50, deadline=None)
@given(scenarios())
def test_a_groups_totals_are_the_sums_of_its_items(scenario):
    request, data = scenario
    for group in quote(request, data).groups:
        assert group.items
        assert group.quantity_items == sum(i.quantity for i in group.items)
        assert group.total_price == sum((i.total_price for i in group.items), Decimal(0))
        assert group.total_weight == sum((i.total_weight for i in group.items), Decimal(0))
        assert group.total_cubic_volume == sum(
            (i.total_cubic_volume for i in group.items), Decimal(0)
        )
        assert group.billable_weight >= group.total_weight
        assert group.billable_weight >= group.cubic_weight


@settings(max_examples=50, deadline=None)
@given(scenarios())
def test_no_options_row_fails_to_match_and_options_are_sorted(scenario):
    request, data = scenario
    tables = {table.id: table for table in data.tables}
    for group in quote(request, data).groups:
        for option in group.options:
            assert option.row.table_id == option.table_id
            assert row_matches(
                option.row,
                zipcode=request.target_zipcode,
                weight=group.billable_weight,
                value=group.total_price,
            )
            assert tables[option.table_id].serves(group.storage_id, group.cargo_type_ids)
            assert option.value >= option.row.shipping_value
            assert option.end_days >= option.begin_days >= option.row.begin_days
        keys = [(o.value, o.end_days) for o in group.options]
        assert keys == sorted(keys)
        assert len({o.table_id for o in group.options}) == len(group.options)


@settings(max_examples=50, deadline=None)
@given(scenarios())
def test_every_group_ships_from_an_eligible_storage_that_can_serve_its_items(scenario):
    request, data = scenario
    storages = {storage.id: storage for storage in data.storages}
    products = {product.id: product for product in data.products}
    stock = {(s.product_id, s.storage_id): s.quantity for s in data.stock}
    result = quote(request, data)
    assert len({g.storage_id for g in result.groups}) == len(result.groups)
    for group in result.groups:
        storage = storages[group.storage_id]
        assert storage.active
        assert request.trade_policy_id not in storage.excluded_trade_policy_ids
        for item in group.items:
            product = products[item.product_id]
            assert product.active and product.price is not None
            assert (
                product.service
                or product.sale_without_stock
                or stock.get((product.id, storage.id), 0) >= item.quantity
            )
