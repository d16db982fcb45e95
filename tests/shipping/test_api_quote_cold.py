"""A quote whose answer is not cached yet (the miss path) costs a fixed two queries when
the store-wide data is warm (the products with their price and stock, their categories),
none when its products were read since they last changed."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework import serializers

from catalog.selectors import trade_policy_exists
from shipping.api.serializers import QuoteResponseSerializer
from tests.catalog.factories import (
    CategoryFactory,
    PriceRuleFactory,
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
    TradePolicyFactory,
)

from .factories import PickupFactory, PostalCodeFactory, ShippingRowFactory, ShippingTableFactory

pytestmark = pytest.mark.django_db

URL = "/publics/products/quote"


@pytest.fixture
def store():
    """Three priced products in stock (one a variation whose parent is in a category that a
    price rule targets), a delivery table, a pickup table, Rio's address."""
    PostalCodeFactory(country="BRA", code="20040002")
    storage = StorageFactory()
    category = CategoryFactory()
    parent = ProductFactory(categories=[category])
    products = [ProductFactory(), ProductFactory(), ProductFactory(parent=parent)]
    for product in products:
        ProductPriceFactory(product=product, sale_price=Decimal("50.00"))
        StockFactory(product=product, storage=storage, available=10)
    PriceRuleFactory(rule_target="category", categories=[category])
    ShippingRowFactory(table=ShippingTableFactory(storages=[storage]))
    pickup_table = ShippingTableFactory(kind="pickup")
    ShippingRowFactory(table=pickup_table)
    PickupFactory(table=pickup_table)
    return products


def quote(api_client, items, **params):
    query = {"targetCountryCode": "BRA", "targetZipCode": "20040-002", **params}
    for index, (product_id, quantity) in enumerate(items):
        query[f"items[{index}][productId]"] = product_id
        query[f"items[{index}][quantity]"] = quantity
    with CaptureQueriesContext(connection) as queries:
        response = api_client.get(URL, query)
    assert response.status_code == 200, response.content
    assert response["X-Cache"] == "miss"
    return response.json(), len(queries)


def test_a_cold_quote_of_1_2_or_3_items_costs_two_queries(api_client, store):
    # given a second trade policy
    policy = TradePolicyFactory()
    for product in store:
        ProductPriceFactory(product=product, trade_policy=policy, sale_price=Decimal("45.00"))
    params = {"tradePolicyId": policy.pk}
    # and the store-wide data and the product summaries warm (each product quoted once in
    # the default policy)
    for product in store:
        quote(api_client, [(product.pk, 1)])
    assert trade_policy_exists(trade_policy_id=policy.pk)  # the active policies, kept

    # when quoting 1, 2 and 3 items in it (their rows not read yet in this policy)
    counts = [quote(api_client, [(p.pk, n) for p in store[:n]], **params)[1] for n in (1, 2, 3)]

    # then each costs two queries, whatever the number of items (their rows with price and
    # stock, their categories); the shipping rows are kept in memory
    assert counts == [2, 2, 2]

    # and products read since they last changed cost no query at all
    counts = [quote(api_client, [(p.pk, 4) for p in store[:n]], **params)[1] for n in (1, 2, 3)]
    assert counts == [0, 0, 0]


def test_the_cold_path_prices_variations_by_their_parents_categories(api_client, store):
    body, _ = quote(api_client, [(product.pk, 1) for product in store])
    (group,) = body["quoteGroups"]
    values = {item["productId"]: item["value"] for item in group["items"]}
    # the category rule (10% off) applies to the variation only
    assert values == {store[0].pk: 50.0, store[1].pk: 50.0, store[2].pk: 45.0}
    assert sorted(len(option["pickups"]) for option in group["shippingOptions"]) == [0, 1]


def declared(field):
    """The keys a serializer declares, nested ({name: ...}, [item]); None for a leaf."""
    if isinstance(field, serializers.ListSerializer):
        return [declared(field.child)]
    if isinstance(field, serializers.Serializer):
        return {name: declared(child) for name, child in field.fields.items()}
    return None


def assert_keys(value, shape, seen: set[str], path="answer") -> None:
    """`value` has the keys of `shape`, in order, at every level; `seen` collects the paths
    of the arrays found non-empty."""
    if isinstance(shape, dict) and value is not None:
        # a verdict's `detail` comes only with carrier_unavailable (live tables)
        assert list(value) == [key for key in shape if key in value or key != "detail"], path
        for key, child in shape.items():
            if key in value:
                assert_keys(value[key], child, seen, f"{path}.{key}")
    elif isinstance(shape, list):
        if value:
            seen.add(path)
        for element in value:
            assert_keys(element, shape[0], seen, f"{path}[]")


def array_paths(shape, path="answer") -> set[str]:
    if isinstance(shape, dict):
        return {p for key, child in shape.items() for p in array_paths(child, f"{path}.{key}")}
    if isinstance(shape, list):
        return {path} | array_paths(shape[0], f"{path}[]")
    return set()


def test_the_answer_has_every_key_the_schema_declares_in_its_order(api_client):
    # given two storages: the first with a delivery table (a row with a fixed fee) and a
    # pickup table, the second with no table; a product in each, and an unknown product
    PostalCodeFactory(country="BRA", code="20040002")
    served, unserved = StorageFactory(), StorageFactory()
    products = [ProductFactory(), ProductFactory()]
    for product, storage in zip(products, (served, unserved), strict=True):
        ProductPriceFactory(product=product, sale_price=Decimal("50.00"))
        StockFactory(product=product, storage=storage, available=10)
    ShippingRowFactory(table=ShippingTableFactory(storages=[served]), fixed_fee=Decimal("2"))
    pickup_table = ShippingTableFactory(kind="pickup", storages=[served])
    ShippingRowFactory(table=pickup_table)
    PickupFactory(table=pickup_table)

    # when quoting them with explain=true and deliveryDates=true
    items = [(products[0].pk, 1), (products[1].pk, 1), (999_999, 1)]
    body, _ = quote(api_client, items, explain="true", deliveryDates="true")

    # then each object has the keys QuoteResponseSerializer declares, in the same order
    # (apikit.compiled renders what serializers.py declares)
    assert [group["error"] is None for group in body["quoteGroups"]] == [True, False]
    shape, seen = declared(QuoteResponseSerializer()), set()
    assert_keys(body, shape, seen)
    assert seen == array_paths(shape)  # every array had an element to check
