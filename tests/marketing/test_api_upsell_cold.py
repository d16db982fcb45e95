"""An upsell answer not cached yet (the miss path) costs a fixed two queries with the
store-wide data and the offered product's fragment warm: the cart, the offer."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.catalog.factories import CategoryFactory, ProductFactory, VariationFactory

from .factories import UpsellFactory

pytestmark = pytest.mark.django_db

URL = "/cart/upsell/cart"


def upsell(api_client, cart, **params):
    query = {f"variationMap[{product}]": variation or "" for product, variation in cart}
    with CaptureQueriesContext(connection) as queries:
        response = api_client.get(URL, {**query, **params})
    assert response["X-Cache"] == "miss"
    return response, len(queries)


def test_a_cold_upsell_of_a_cart_of_1_2_or_3_products_costs_two_queries(api_client):
    # given an offer triggered by a category of a main product, whose variation is in carts
    category = CategoryFactory()
    variation = VariationFactory(parent=ProductFactory(categories=[category]))
    offer = UpsellFactory(trigger_categories=[category])
    others = ProductFactory.create_batch(2)
    carts = [
        [(variation.parent_id, variation.pk)],
        [(variation.parent_id, variation.pk), (others[0].pk, None)],
        [(variation.parent_id, variation.pk), (others[0].pk, None), (others[1].pk, None)],
    ]
    # the store-wide data and the offered product warm
    response, _ = upsell(api_client, carts[0], offset=0)
    assert response.json()["id"] == offer.pk

    # when asking for each cart in answers not cached yet
    counts = []
    for cart in carts:
        response, count = upsell(api_client, cart)
        assert response.status_code == 200
        assert response.json()["id"] == offer.pk
        counts.append(count)

    # then each costs two queries, whatever the size of the cart
    assert counts == [2, 2, 2]
