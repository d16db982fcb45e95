"""GET /publics/products/quote (issue 12): the pickup point nearest the target is
`selected`, every item's `cargoTypeId` is an integer (the store's default cargo type when
the product names none), and a quote of 10 items costs the same queries whatever the
products' review scores, price rules and trade policies."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import CargoType, Product
from tests.catalog.factories import (
    CargoTypeFactory,
    PriceRuleFactory,
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
    TradePolicyFactory,
)
from tests.feedback.factories import ProductReviewFactory
from tests.helpers import cold_caches

from .factories import PickupFactory, PostalCodeFactory, ShippingRowFactory, ShippingTableFactory

pytestmark = pytest.mark.django_db

URL = "/publics/products/quote"
RIO = {"code": "20040002", "latitude": Decimal("-22.903539"), "longitude": Decimal("-43.209587")}


def priced_product(price="50.00", **kwargs) -> Product:
    product = ProductFactory(**kwargs)
    ProductPriceFactory(product=product, sale_price=Decimal(price))
    return product


def get_quote(api_client, items, zip_code="20040-002"):
    query = {"targetCountryCode": "BRA", "targetZipCode": zip_code}
    for index, (product_id, quantity) in enumerate(items):
        query[f"items[{index}][productId]"] = product_id
        query[f"items[{index}][quantity]"] = quantity
    return api_client.get(URL, query)


def stocked_product(storage, **kwargs) -> Product:
    product = priced_product(**kwargs)
    StockFactory(product=product, storage=storage, available=50)
    return product


def pickup_option(body: dict, table_id: int) -> dict:
    (group,) = body["quoteGroups"]
    return next(o for o in group["shippingOptions"] if o["shippingTableId"] == table_id)


def selected_ids(option: dict) -> list[int]:
    return [p["id"] for p in option["pickups"] if p["selected"] is True]


# --- Pickup `selected` ----------------------------------------------------------------------


def test_the_pickup_point_nearest_the_target_by_coordinates_is_selected(api_client):
    # given Rio's address with coordinates, and a pickup table listing São Paulo first,
    # then Rio, then a point without coordinates whose postal code is Rio's
    PostalCodeFactory(country="BRA", city="Rio de Janeiro", state_code="BR-RJ", **RIO)
    product = stocked_product(StorageFactory())
    table = ShippingTableFactory(kind="pickup")
    ShippingRowFactory(table=table, shipping_value=Decimal("0"))
    sao_paulo = PickupFactory(table=table, position=0)
    rio = PickupFactory(
        table=table,
        position=1,
        zip_code="20031000",
        latitude=Decimal("-22.910000"),
        longitude=Decimal("-43.170000"),
    )
    no_coordinates = PickupFactory(
        table=table, position=2, zip_code="20040002", latitude=None, longitude=None
    )

    # when quoting to Rio
    response = get_quote(api_client, [(product.pk, 1)])

    # then the Rio point, the nearest by great-circle distance, is the only one selected
    assert response.status_code == 200
    option = pickup_option(response.json(), table.pk)
    assert [p["id"] for p in option["pickups"]] == [sao_paulo.pk, rio.pk, no_coordinates.pk]
    assert selected_ids(option) == [rio.pk]
    assert all(isinstance(p["selected"], bool) for p in option["pickups"])


def test_without_target_coordinates_the_nearest_postal_code_number_is_selected(api_client):
    # given no address known for the target postal code (no coordinates)
    product = stocked_product(StorageFactory())
    table = ShippingTableFactory(kind="pickup")
    ShippingRowFactory(table=table, shipping_value=Decimal("0"))
    far = PickupFactory(table=table, position=0, zip_code="01304001")
    near = PickupFactory(table=table, position=1, zip_code="20031000")
    foreign = PickupFactory(
        table=table, position=2, country_code="USA", zip_code="90210", latitude=None
    )

    # when quoting to 20040-002
    body = get_quote(api_client, [(product.pk, 1)]).json()

    # then the point whose CEP is numerically nearest is selected
    option = pickup_option(body, table.pk)
    assert selected_ids(option) == [near.pk]
    assert {p["id"] for p in option["pickups"]} == {far.pk, near.pk, foreign.pk}


def test_each_option_selects_its_own_nearest_point_and_ties_keep_the_listed_order(api_client):
    PostalCodeFactory(country="BRA", city="Rio de Janeiro", state_code="BR-RJ", **RIO)
    product = stocked_product(StorageFactory())
    first, second = (ShippingTableFactory(kind="pickup") for _ in range(2))
    for table in (first, second):
        ShippingRowFactory(table=table, shipping_value=Decimal("0"))
    # two points at the same place in the first table: the first listed wins
    a = PickupFactory(table=first, position=0, name="A")
    b = PickupFactory(table=first, position=1, name="B")
    (only,) = [PickupFactory(table=second)]

    body = get_quote(api_client, [(product.pk, 1)]).json()

    assert selected_ids(pickup_option(body, first.pk)) == [a.pk]
    assert b.pk not in selected_ids(pickup_option(body, first.pk))
    assert selected_ids(pickup_option(body, second.pk)) == [only.pk]


def test_a_delivery_option_has_no_pickups_to_select(api_client):
    product = stocked_product(StorageFactory())
    table = ShippingTableFactory()
    ShippingRowFactory(table=table)

    option = pickup_option(get_quote(api_client, [(product.pk, 1)]).json(), table.pk)

    assert option["pickups"] == []


# --- cargoTypeId --------------------------------------------------------------------------


def test_a_product_naming_no_cargo_type_quotes_with_the_default_one(api_client):
    # given a product saved without a cargo type, and a table naming no cargo type
    default = CargoType.objects.get(is_default=True)
    storage = StorageFactory()
    product = stocked_product(storage, cargo_type=None)
    table = ShippingTableFactory()
    ShippingRowFactory(table=table)

    # when quoting it
    body = get_quote(api_client, [(product.pk, 1)]).json()

    # then its cargo type is the store's default, an integer, and the table serves it
    (group,) = body["quoteGroups"]
    (item,) = group["items"]
    assert item["cargoTypeId"] == default.pk
    assert isinstance(item["cargoTypeId"], int)
    assert group["cargoTypeCombination"] == [default.pk]
    assert [o["shippingTableId"] for o in group["shippingOptions"]] == [table.pk]


def test_a_table_naming_only_another_cargo_type_does_not_serve_the_default(api_client):
    fragile = CargoTypeFactory(name="Fragile")
    storage = StorageFactory()
    product = stocked_product(storage)
    fragile_only = ShippingTableFactory(cargo_types=[fragile])
    ShippingRowFactory(table=fragile_only)
    default_named = ShippingTableFactory(cargo_types=[CargoType.objects.get(is_default=True)])
    ShippingRowFactory(table=default_named)

    (group,) = get_quote(api_client, [(product.pk, 1)]).json()["quoteGroups"]

    assert [o["shippingTableId"] for o in group["shippingOptions"]] == [default_named.pk]


# --- Query count ----------------------------------------------------------------------------


def test_a_quote_of_10_items_costs_the_same_queries_whatever_reviews_rules_and_policies(
    api_client,
):
    storage = StorageFactory()
    ShippingRowFactory(table=ShippingTableFactory())
    products = [stocked_product(storage) for _ in range(10)]
    items = [(product.pk, 1) for product in products]

    def count() -> int:
        cold_caches()
        with CaptureQueriesContext(connection) as queries:
            response = get_quote(api_client, items)
        assert response.status_code == 200
        assert sum(len(g["items"]) for g in response.json()["quoteGroups"]) == 10
        return len(queries)

    # one review, one rule, one extra trade policy
    ProductReviewFactory(product=products[0], score=5, active=True)
    PriceRuleFactory(products=[products[0]], rule_target="product")
    ProductPriceFactory(product=products[0], trade_policy=TradePolicyFactory())
    before = count()

    # then every product with reviews of every score, several rules and policies
    for product in products:
        for score in (1, 2, 3, 4, 5):
            ProductReviewFactory(product=product, score=score, active=True)
        PriceRuleFactory(products=[product], rule_target="product")
        ProductPriceFactory(product=product, trade_policy=TradePolicyFactory())
    PriceRuleFactory(rule_target="all")

    assert count() == before
