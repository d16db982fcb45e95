"""shipping.fetch: what a quote reads, as the engine's input, in a fixed number of queries."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import TradePolicy
from shipping import quote
from shipping.fetch import quote_info_fetch
from shipping.quoting import shipping_quote_get
from tests.catalog.factories import (
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
)

from .factories import PickupFactory, ShippingRowFactory, ShippingTableFactory

pytestmark = pytest.mark.django_db


def priced_product(**kwargs):
    product = ProductFactory(**kwargs)
    ProductPriceFactory(product=product, sale_price=Decimal("50.00"))
    return product


def fetch(items, **kwargs):
    return quote_info_fetch(
        items=items,
        country="BRA",
        zip_code="20040002",
        trade_policy_id=TradePolicy.objects.default().pk,
        **kwargs,
    )


def test_fetch_gives_the_engine_its_input_and_the_answer_its_records():
    # given a storage with stock of one product, a table with a row covering Rio and one not
    storage = StorageFactory(zip_code="01310100", country_code="BRA")
    product = priced_product(weight=Decimal("1.5"))
    StockFactory(product=product, storage=storage, available=10, reserved=4)
    table = ShippingTableFactory(storages=[storage])
    covering = ShippingRowFactory(table=table, initial_zipcode="20000000", final_zipcode="28999999")
    ShippingRowFactory(table=table, initial_zipcode="01000000", final_zipcode="19999999")

    # when fetching a quote of 2 + 1 units to Rio, with its coordinates
    info = fetch([(product.pk, 2), (product.pk, 1)], target_latitude=Decimal("-22.9"))

    # then the engine's input is plain data
    assert info.request.items == (
        quote.RequestedItem(product.pk, 2),
        quote.RequestedItem(product.pk, 1),
    )
    assert (info.request.target_latitude, info.request.target_longitude) == (-22.9, None)
    (engine_product,) = info.data.products
    assert (engine_product.id, engine_product.price, engine_product.weight) == (
        product.pk,
        Decimal("50.00"),
        Decimal("1.5"),
    )
    assert info.data.stock == (quote.StockLevel(product.pk, storage.pk, 6),)
    assert [row.id for row in info.data.rows] == [covering.pk]
    assert info.data.tables == (quote.QuoteTable(table.pk, frozenset({storage.pk})),)
    # and the records the answer shows are joined by id, display values ready
    assert info.products[product.pk].product.name == product.name  # a plain row
    assert info.products[product.pk].stocks[0].quantity == 6
    assert info.storages[storage.pk].zip_code == "01310-100"
    assert info.target_code == "20040-002"


def test_pickups_come_with_their_table():
    pickup_table = ShippingTableFactory(kind="pickup")
    pickup = PickupFactory(table=pickup_table)
    PickupFactory(table=pickup_table, active=False)
    table = fetch([(1, 1)]).tables[pickup_table.pk]
    assert table.pickups == (pickup,)
    # and the engine's points of them, to select the nearest
    assert [point.id for point in table.points] == [pickup.pk]


def test_fetch_costs_as_many_queries_for_one_product_as_for_ten(no_warming):
    storage = StorageFactory()
    products = [priced_product() for _ in range(10)]
    for product in products:
        StockFactory(product=product, storage=storage)
    ShippingRowFactory(table=ShippingTableFactory(kind="pickup"))

    policy_id = TradePolicy.objects.default().pk

    def count(items) -> int:
        with CaptureQueriesContext(connection) as queries:
            quote_info_fetch(
                items=items, country="BRA", zip_code="20040002", trade_policy_id=policy_id
            )
        return len(queries)

    fetch([(products[0].pk, 1)])  # warms the store-wide caches
    # products never read: as many queries for one as for eight (their rows, categories)
    assert count([(products[1].pk, 1)]) == count([(p.pk, 1) for p in products[2:]]) == 2
    # products read since they last changed: none
    assert count([(p.pk, 1) for p in products]) == 0


def test_the_quote_outcome_joins_each_group_with_its_records():
    storage = StorageFactory()
    product = priced_product()
    StockFactory(product=product, storage=storage)
    row = ShippingRowFactory(table=ShippingTableFactory(storages=[storage]))

    outcome = shipping_quote_get(
        items=[(product.pk, 1), (999_999, 1)],
        country="BRA",
        zip_code="20040002",
        trade_policy_id=TradePolicy.objects.default().pk,
    )

    (group,) = outcome.groups
    assert group.storage.storage == storage
    assert [item.info.product.id for item in group.items] == [product.pk]
    (option,) = group.options
    assert (option.table.table, option.option.row.id) == (row.table, row.pk)
    assert [error.product_id for error in outcome.error_items] == [999_999]
    assert outcome.product_ids == (product.pk,)


def test_rows_carry_their_non_zero_charges_as_variables():
    table = ShippingTableFactory()
    charged = {"extra_kg_value": Decimal("2.50"), "extra_kg_threshold": Decimal("10")}
    ShippingRowFactory(
        table=table,
        initial_zipcode="20000000",
        final_zipcode="28999999",
        **charged,
        fixed_fee=Decimal("3"),
    )
    ShippingRowFactory(table=table, initial_zipcode="20040000", final_zipcode="20049999")

    variables = {row.initial_zipcode: row.variables for row in fetch([(1, 1)]).data.rows}

    assert variables == {
        "20000000": (
            quote.QuoteVariable(quote.VariableKind.PER_EXTRA_KG, Decimal("2.50"), Decimal("10")),
            quote.QuoteVariable(quote.VariableKind.FIXED_FEE, Decimal("3")),
        ),
        "20040000": (),
    }
