"""An upsell answer not cached yet (the miss path) costs one query with the store-wide data
(the location's offers) and the offered product's fragment warm: the links of the cart's
products not read since they last changed; none when all were."""

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


@pytest.mark.parametrize("warming", [True, False], ids=["warming", "catalogue-read"])
def test_a_cold_upsell_of_a_cart_of_1_2_or_3_products_costs_one_query(api_client, request, warming):
    if not warming:  # as when every product of the catalogue's first ones was read
        request.getfixturevalue("no_warming")
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

    # then each costs one query (the links of products first seen), whatever the size of
    # the cart, and none when every product of the cart was read before; a first miss
    # read the catalogue's next products with the cart's (infra.caching.kept.Warm)
    assert counts == ([0, 0, 0] if warming else [0, 1, 1])
    _, again = upsell(api_client, list(reversed(carts[2])))
    assert again == 0


def test_a_list_query_on_the_offers_costs_one_query_over_the_candidates(api_client):
    # given two offers for every cart, the second with the higher priority
    first, second = UpsellFactory(priority=1), UpsellFactory(priority=5)
    cart = [(ProductFactory().pk, None)]
    # the store-wide data, the cart's links and both offered products warm
    assert upsell(api_client, cart)[0].json()["id"] == second.pk
    assert upsell(api_client, cart, offset=1)[0].json()["id"] == first.pk

    # when asking for the lower priority first, then by a condition
    by_priority, ordered = upsell(api_client, cart, order="priority")
    chosen, conditioned = upsell(api_client, cart, **{"condition[id]": first.pk})

    # then each is answered from the candidates, in one query
    assert by_priority.json()["id"] == chosen.json()["id"] == first.pk
    assert ordered == conditioned == 1
