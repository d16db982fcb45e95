"""GET /cart/upsell/{locationId} (contract 2.11, 4.9; DESIGN §6 Upsell)."""

import json
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from marketing.models import Upsell
from tests.catalog.factories import (
    CategoryFactory,
    PriceRuleFactory,
    ProductFactory,
    ProductPriceFactory,
    VariationFactory,
)

from .factories import UpsellFactory

pytestmark = pytest.mark.django_db

URL = "/cart/upsell/cart"
STORE_TZ = ZoneInfo("America/Sao_Paulo")

UPSELL_KEYS = [
    "id",
    "displayTitle",
    "displayDescription",
    "displayButtonText",
    "quantity",
    "upsellProduct",
    "priceRule",
]
UPSELL_PRODUCT_KEYS = {
    "id",
    "type",
    "sku",
    "name",
    "priority",
    "basePrice",
    "active",
    "review",
    "isGiftCard",
    "stock",
    "stocks",
    "originalPrice",
    "price",
    "priceRules",
    "brand",
    "flags",
    "tax",
    "indicatedProducts",
    "relatedProducts",
    "filters",
    "seals",
    "mainCategory",
    "categories",
    "categoryBreadcrumb",
    "dimensions",
    "parentProductId",
    "combination",
    "currentAttributes",
    "variations",
    "medias",
    "bannerGroups",
    "status",
    "createdAt",
    "updatedAt",
    "url",
    "urls",
    "linkedTradePolicies",
    "description",
}
PRICE_RULE_KEYS = {
    "id",
    "name",
    "trigger",
    "ruleTarget",
    "origin",
    "applyInGroup",
    "updateComparisonPrice",
    "basePriceField",
    "code",
    "beginQuantity",
    "endQuantity",
    "value",
    "valueType",
    "priority",
    "active",
    "scheduling",
    "tradePolicies",
    "productIds",
    "productCategoryIds",
    "productBrandIds",
    "lastUpdateUserName",
    "createdAt",
    "updatedAt",
}


def at(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, 10, hour, minute, tzinfo=STORE_TZ)


def offered_id(response) -> int:
    assert response.status_code == 200, response.json()
    return response.json()["id"]


def assert_no_offer(response):
    assert response.status_code == 404
    assert response.json() == {
        "status": False,
        "data": {
            "code": 404,
            "errorCode": "SERVICE_STORE_UPSELL_NOT_FOUND",
            "message": "No upsell offer was found for this location and cart.",
        },
    }


# --- Shape ---------------------------------------------------------------------------


def test_upsell_has_every_contract_field_and_the_price_after_its_rule(api_client):
    # given an offer of a product sold at 99.90 with a 10% upsell rule, for 2 units
    offer = UpsellFactory(
        display_title="Add socks",
        display_description="Warm feet.",
        display_button_text="Add socks",
        quantity=2,
    )
    ProductPriceFactory(
        product=offer.product, sale_price=Decimal("99.90"), comparison_price=Decimal("120.00")
    )

    # when
    response = api_client.get(URL)

    # then the bare Upsell, field by field
    assert response.status_code == 200
    body = response.json()
    assert list(body) == UPSELL_KEYS
    assert body["id"] == offer.pk
    assert body["displayTitle"] == "Add socks"
    assert body["displayDescription"] == "Warm feet."
    assert body["displayButtonText"] == "Add socks"
    assert body["quantity"] == 2
    product = body["upsellProduct"]
    assert set(product) == UPSELL_PRODUCT_KEYS
    assert product["id"] == offer.product.pk
    assert product["originalPrice"]["salePrice"] == 99.9
    assert product["price"]["salePrice"] == 89.91
    assert product["price"]["ruleId"] == offer.price_rule.pk
    assert product["price"]["ruleTrigger"] == "upsell"
    rule = body["priceRule"]
    assert set(rule) == PRICE_RULE_KEYS
    assert rule["id"] == offer.price_rule.pk
    assert rule["value"] == 10
    assert rule["trigger"] == "upsell"


@pytest.mark.parametrize("path", ["/cart/upsell/cart/", "/api/v3/cart/upsell/cart"])
def test_upsell_answers_with_prefix_and_trailing_slash(api_client, path):
    offer = UpsellFactory()

    assert offered_id(api_client.get(path)) == offer.pk


def test_fields_keeps_only_the_named_top_level_keys(api_client):
    UpsellFactory()

    response = api_client.get(URL, {"fields": "id,displayTitle"})

    assert list(response.json()) == ["id", "displayTitle"]


# --- Choosing the offer -------------------------------------------------------------------


def test_the_highest_priority_offer_wins(api_client):
    UpsellFactory(priority=1)
    best = UpsellFactory(priority=10)
    UpsellFactory(priority=5)

    assert offered_id(api_client.get(URL)) == best.pk


def test_equal_priorities_fall_back_to_the_lowest_id(api_client):
    first = UpsellFactory(priority=3)
    UpsellFactory(priority=3)

    assert offered_id(api_client.get(URL)) == first.pk


def test_only_offers_of_the_location_are_considered(api_client):
    cart = UpsellFactory(location="cart", priority=1)
    checkout = UpsellFactory(location="checkout", priority=9)

    assert offered_id(api_client.get("/cart/upsell/cart")) == cart.pk
    assert offered_id(api_client.get("/cart/upsell/checkout")) == checkout.pk
    assert_no_offer(api_client.get("/cart/upsell/thank-you"))


def test_inactive_offers_are_not_offered(api_client):
    UpsellFactory(active=False, priority=9)
    live = UpsellFactory(priority=1)

    assert offered_id(api_client.get(URL)) == live.pk


def test_offer_outside_its_schedule_is_not_offered(api_client):
    later = UpsellFactory(priority=9, start_at=at(10))
    ended = UpsellFactory(priority=8, end_at=at(10))

    with time_machine.travel(at(9, 59), tick=False):
        before = api_client.get(URL)
    with time_machine.travel(at(10), tick=False):
        after = api_client.get(URL)

    assert offered_id(before) == ended.pk
    assert offered_id(after) == later.pk


def test_an_offer_of_an_inactive_product_is_not_offered(api_client):
    UpsellFactory(priority=9, product=ProductFactory(active=False))
    live = UpsellFactory(priority=1)

    assert offered_id(api_client.get(URL)) == live.pk


def test_no_offer_is_a_404(api_client):
    assert_no_offer(api_client.get(URL))


# --- The cart ------------------------------------------------------------------------


def test_an_offer_whose_product_is_in_the_cart_is_skipped(api_client):
    in_cart = UpsellFactory(priority=9)
    other = UpsellFactory(priority=1)

    response = api_client.get(f"{URL}?variationMap[{in_cart.product_id}]=0")

    assert offered_id(response) == other.pk


def test_an_offer_whose_product_is_the_cart_variation_is_skipped(api_client):
    variation = VariationFactory()
    UpsellFactory(priority=9, product=variation)
    other = UpsellFactory(priority=1)

    response = api_client.get(f"{URL}?variationMap[{variation.parent_id}]={variation.pk}")

    assert offered_id(response) == other.pk


def test_an_offer_of_a_product_whose_variation_is_in_the_cart_is_skipped(api_client):
    variation = VariationFactory()
    UpsellFactory(priority=9, product=variation.parent)
    other = UpsellFactory(priority=1)

    response = api_client.get(URL, {"variationMap": json.dumps({str(variation.pk): None})})

    assert offered_id(response) == other.pk


def test_a_product_trigger_matches_a_cart_product_or_variation(api_client):
    trigger = ProductFactory()
    variation = VariationFactory(parent=trigger)
    offer = UpsellFactory(priority=9, trigger_products=[trigger])
    fallback = UpsellFactory(priority=1)

    by_product = api_client.get(f"{URL}?variationMap[{trigger.pk}]=0")
    by_variation = api_client.get(f"{URL}?variationMap[{variation.pk}]=0")
    unrelated = api_client.get(f"{URL}?variationMap[{ProductFactory().pk}]=0")
    empty_cart = api_client.get(URL)

    assert offered_id(by_product) == offer.pk
    assert offered_id(by_variation) == offer.pk
    assert offered_id(unrelated) == fallback.pk
    assert offered_id(empty_cart) == fallback.pk


def test_a_category_trigger_matches_main_other_and_ancestor_categories(api_client):
    parent = CategoryFactory()
    child = CategoryFactory(parent=parent)
    extra = CategoryFactory()
    offer = UpsellFactory(priority=9, trigger_categories=[parent, extra])
    fallback = UpsellFactory(priority=1)
    in_child = ProductFactory(main_category=child)
    tagged_extra = ProductFactory(categories=[extra])
    elsewhere = ProductFactory()

    assert offered_id(api_client.get(f"{URL}?variationMap[{in_child.pk}]=0")) == offer.pk
    assert offered_id(api_client.get(f"{URL}?variationMap[{tagged_extra.pk}]=0")) == offer.pk
    assert offered_id(api_client.get(f"{URL}?variationMap[{elsewhere.pk}]=0")) == fallback.pk


@pytest.mark.parametrize(
    "query",
    [
        "variationMap[{p}]={v}",
        'variationMap={{"{p}":{v}}}',
        'variationMap=[{{"productId":{p},"variationId":{v}}}]',
    ],
)
def test_variation_map_is_read_from_brackets_or_json(api_client, query):
    variation = VariationFactory()
    UpsellFactory(priority=9, product=variation)
    other = UpsellFactory(priority=1)

    response = api_client.get(f"{URL}?" + query.format(p=variation.parent_id, v=variation.pk))

    assert offered_id(response) == other.pk


@pytest.mark.parametrize(
    "query",
    [
        "variationMap[abc]=1",
        "variationMap[12]=x",
        "variationMap[-3]=1",
        "variationMap[12]=-1",
        "variationMap[12]=1.5",
        "variationMap[99999999999999999999999]=1",
        "variationMap=[1,2]",
        "variationMap=12",
        'variationMap={"12":true}',
        "variationMap={not json",
        "variationMap[12][0]=1",
    ],
)
def test_a_malformed_variation_map_is_a_422(api_client, query):
    UpsellFactory()

    response = api_client.get(f"{URL}?{query}")

    assert response.status_code == 422
    data = response.json()["data"]
    assert data["errorCode"] == "VALIDATION_ERROR"
    assert "variationMap" in data["errors"]
    assert "variationMap" in data["message"]


def test_a_cart_of_more_than_100_products_is_a_422(api_client):
    cart = {str(i): 0 for i in range(1, 102)}

    response = api_client.get(URL, {"variationMap": json.dumps(cart)})

    assert response.status_code == 422
    assert "variationMap" in response.json()["data"]["errors"]


# --- condition, order, offset, limit ----------------------------------------------------


def test_condition_filters_the_candidates(api_client):
    UpsellFactory(priority=9)
    low = UpsellFactory(priority=2)

    bracket = api_client.get(URL, {"condition[priority][lt]": "5"})
    as_json = api_client.get(URL, {"condition": json.dumps({"priority": {"lt": 5}})})

    assert offered_id(bracket) == offered_id(as_json) == low.pk


def test_order_sorts_the_candidates_and_offset_skips_them(api_client):
    low = UpsellFactory(priority=1, quantity=5)
    middle = UpsellFactory(priority=5, quantity=1)
    high = UpsellFactory(priority=9, quantity=3)

    assert offered_id(api_client.get(URL, {"order": "priority"})) == low.pk
    assert offered_id(api_client.get(URL, {"order": "-quantity"})) == low.pk
    assert offered_id(api_client.get(URL, {"offset": "1"})) == middle.pk
    assert offered_id(api_client.get(URL, {"order": "-priority", "offset": "0"})) == high.pk
    assert_no_offer(api_client.get(URL, {"offset": "3"}))


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"limit": "0"}, "limit"),
        ({"limit": "101"}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"offset": "-1"}, "offset"),
        ({"offset": "9" * 40}, "offset"),
        ({"condition": json.dumps({"product__name": "x"})}, "condition"),
        ({"condition": json.dumps({"priority": {"gte": "high"}})}, "condition.priority"),
        ({"order": "display_description"}, "order"),
        ({"fields": "id,secret"}, "fields"),
    ],
)
def test_bad_list_parameters_are_a_422_naming_the_parameter(api_client, params, field):
    UpsellFactory()

    response = api_client.get(URL, params)

    assert response.status_code == 422
    assert field in response.json()["data"]["errors"]


def test_list_and_cart_errors_are_reported_together(api_client):
    response = api_client.get(URL, {"limit": "0", "variationMap": "[1]"})

    assert set(response.json()["data"]["errors"]) == {"limit", "variationMap"}


def test_a_huge_location_is_simply_not_found(api_client):
    UpsellFactory()

    assert_no_offer(api_client.get("/cart/upsell/" + "x" * 5000))


def test_a_write_method_is_a_405_envelope(api_client):
    response = api_client.post(URL, {}, format="json")

    assert response.status_code == 405
    assert response.json()["data"]["errorCode"] == "METHOD_NOT_ALLOWED"


# --- Performance ------------------------------------------------------------------------


def test_query_count_does_not_grow_with_offers_triggers_or_cart(api_client):
    # given one offer, measured
    UpsellFactory(priority=100)
    with CaptureQueriesContext(connection) as small:
        assert api_client.get(URL).status_code == 200
    cache.clear()
    Upsell.objects.all().delete()

    # and 100 triggered offers with a 50-product cart
    cart_products = ProductFactory.create_batch(50)
    categories = CategoryFactory.create_batch(5)
    rule = PriceRuleFactory(trigger="upsell")
    for n in range(100):
        UpsellFactory(
            priority=n,
            price_rule=rule,
            trigger_products=cart_products[n % 50 : n % 50 + 3],
            trigger_categories=categories[: n % 5],
        )
    cart = {str(product.pk): 0 for product in cart_products}

    # when
    with CaptureQueriesContext(connection) as large:
        response = api_client.get(URL, {"variationMap": json.dumps(cart)})

    # then at most the few queries the cart itself needs (parents, categories) are added
    assert response.status_code == 200
    assert len(large) <= len(small) + 3
    assert len(large) <= 40
