"""GET /cart/upsell/{locationId} (issue 12): the upsell product's review summary, price
rules, linked trade policies, status, variation stock and cargo type, filled from data
and fresh as soon as that data changes."""

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalog.models import CargoType, ProductReviewSummary
from feedback.models import ProductReview
from feedback.services import reviews_set_active
from tests.catalog.factories import (
    CargoTypeFactory,
    CategoryFactory,
    PriceRuleFactory,
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
    TradePolicyFactory,
    VariationFactory,
    default_trade_policy,
)
from tests.feedback.factories import ProductReviewFactory
from tests.helpers import cold_caches

from .factories import UpsellFactory

pytestmark = pytest.mark.django_db

URL = "/cart/upsell/cart"


def upsell_product(api_client) -> dict:
    response = api_client.get(URL)
    assert response.status_code == 200, response.json()
    return response.json()["upsellProduct"]


def scores(*pairs) -> list[dict]:
    counts = dict(pairs)
    return [{"score": s, "count": counts.get(s, 0)} for s in (1, 2, 3, 4, 5)]


# --- review ------------------------------------------------------------------------------


def test_review_is_null_without_approved_reviews(api_client):
    offer = UpsellFactory()
    ProductReviewFactory(product=offer.product, active=False)  # held for moderation

    assert upsell_product(api_client)["review"] is None


def test_review_summarizes_the_approved_reviews(api_client):
    # given approved reviews scoring 5, 4 and 4, a hidden 1, and another product's 1
    offer = UpsellFactory()
    for score in (5, 4, 4):
        ProductReviewFactory(product=offer.product, score=score)
    ProductReviewFactory(product=offer.product, score=1, active=False)
    ProductReviewFactory(score=1)

    review = upsell_product(api_client)["review"]

    # then 13 / 3 = 4.33 -> 4.3, three reviews, per score 1..5
    assert review == {"average": 4.3, "count": 3, "scores": scores((4, 2), (5, 1))}
    assert isinstance(review["average"], float)


def test_the_average_rounds_half_up_to_one_decimal(api_client):
    # 5 + 4 + 4 + 4 = 17 / 4 = 4.25: half-up gives 4.3 (half-even would give 4.2)
    offer = UpsellFactory()
    for score in (5, 4, 4, 4):
        ProductReviewFactory(product=offer.product, score=score)

    assert upsell_product(api_client)["review"]["average"] == 4.3


def test_review_follows_approval_hiding_score_changes_and_deletion_at_once(api_client):
    offer = UpsellFactory()
    held = ProductReviewFactory(product=offer.product, score=2, active=False)
    kept = ProductReviewFactory(product=offer.product, score=5)
    assert upsell_product(api_client)["review"]["count"] == 1  # cached now

    # approving (the admin's action) recounts in the same transaction
    reviews_set_active(reviews=ProductReview.objects.filter(pk=held.pk), active=True)
    assert upsell_product(api_client)["review"] == {
        "average": 3.5,
        "count": 2,
        "scores": scores((2, 1), (5, 1)),
    }

    # a score changed in the admin's form
    kept.score = 3
    kept.save()
    assert upsell_product(api_client)["review"]["scores"] == scores((2, 1), (3, 1))

    # hidden
    reviews_set_active(reviews=ProductReview.objects.filter(pk=held.pk), active=False)
    assert upsell_product(api_client)["review"]["count"] == 1

    # deleted: no approved review is left
    kept.delete()
    assert upsell_product(api_client)["review"] is None
    assert not ProductReviewSummary.objects.filter(product=offer.product).exists()


def test_a_review_moved_to_another_product_recounts_both(api_client):
    offer = UpsellFactory()
    review = ProductReviewFactory(score=4)
    assert upsell_product(api_client)["review"] is None

    review.product = offer.product
    review.save()

    assert upsell_product(api_client)["review"]["count"] == 1


def test_deleting_a_reviewed_product_deletes_its_summary():
    product = ProductFactory()
    ProductReviewFactory(product=product, score=4)
    assert ProductReviewSummary.objects.filter(product=product).exists()

    product.delete()

    assert ProductReviewSummary.objects.count() == 0


# --- priceRules --------------------------------------------------------------------------


def test_price_rules_is_null_when_no_automatic_rule_applies(api_client):
    offer = UpsellFactory()  # its own rule is an upsell rule: shown as the offer's priceRule
    PriceRuleFactory(rule_target="product", products=[ProductFactory()])  # another product
    PriceRuleFactory(trigger="coupon", code="SAVE10")  # a coupon needs its code
    PriceRuleFactory(trade_policies=[TradePolicyFactory()])  # another trade policy
    PriceRuleFactory(active=False)

    assert upsell_product(api_client)["priceRules"] is None
    assert offer.price_rule_id  # (the offer still has its rule)


def test_price_rules_lists_the_rules_applying_now_highest_priority_first(api_client):
    category = CategoryFactory()
    offer = UpsellFactory(product=ProductFactory(categories=[category]))
    by_product = PriceRuleFactory(rule_target="product", products=[offer.product], priority=1)
    by_category = PriceRuleFactory(rule_target="category", categories=[category], priority=5)
    tiered = PriceRuleFactory(begin_quantity=3, end_quantity=10)  # whatever the quantity
    for_default = PriceRuleFactory(trade_policies=[default_trade_policy()], priority=-1)

    rules = upsell_product(api_client)["priceRules"]

    assert [r["id"] for r in rules] == [by_category.pk, by_product.pk, tiered.pk, for_default.pk]
    assert rules[0]["productCategoryIds"] == [category.pk]
    assert rules[1]["productIds"] == [offer.product.pk]
    assert rules[2]["beginQuantity"] == 3 and rules[2]["endQuantity"] == 10
    assert set(rules[0]) == {
        "id", "name", "trigger", "ruleTarget", "origin", "applyInGroup",
        "updateComparisonPrice", "basePriceField", "code", "beginQuantity", "endQuantity",
        "value", "valueType", "priority", "active", "scheduling", "tradePolicies",
        "productIds", "productCategoryIds", "productBrandIds", "lastUpdateUserName",
        "createdAt", "updatedAt",
    }  # fmt: skip


def test_a_scheduled_rule_appears_at_its_start_and_leaves_at_its_end(api_client):
    now = timezone.now().replace(microsecond=0)
    UpsellFactory()
    rule = PriceRuleFactory(start_at=now + timedelta(hours=1), end_at=now + timedelta(hours=2))

    with time_machine.travel(now, tick=False):
        assert upsell_product(api_client)["priceRules"] is None  # cached until the start
    with time_machine.travel(now + timedelta(hours=1), tick=False):
        rules = upsell_product(api_client)["priceRules"]
        assert [r["id"] for r in rules] == [rule.pk]
        assert rules[0]["scheduling"] is not None
    with time_machine.travel(now + timedelta(hours=2), tick=False):
        assert upsell_product(api_client)["priceRules"] is None


def test_a_new_rule_shows_at_once(api_client):
    offer = UpsellFactory()
    assert upsell_product(api_client)["priceRules"] is None

    rule = PriceRuleFactory(rule_target="product", products=[offer.product])

    assert [r["id"] for r in upsell_product(api_client)["priceRules"]] == [rule.pk]


# --- linkedTradePolicies -----------------------------------------------------------------


def test_linked_trade_policies_is_null_with_a_price_in_the_default_policy_only(api_client):
    offer = UpsellFactory()
    ProductPriceFactory(product=offer.product)

    assert upsell_product(api_client)["linkedTradePolicies"] is None


def test_linked_trade_policies_lists_the_active_policies_with_a_price(api_client):
    offer = UpsellFactory()
    default = default_trade_policy()
    wholesale = TradePolicyFactory(name="Wholesale", code="wholesale")
    closed = TradePolicyFactory(name="Closed", active=False)
    for policy in (default, wholesale, closed):
        ProductPriceFactory(product=offer.product, trade_policy=policy)
    TradePolicyFactory(name="Unused")

    policies = upsell_product(api_client)["linkedTradePolicies"]

    assert policies == [
        {"id": default.pk, "name": default.name, "code": default.code, "isDefault": True},
        {"id": wholesale.pk, "name": "Wholesale", "code": "wholesale", "isDefault": False},
    ]


# --- status and stock ----------------------------------------------------------------------


def test_status_is_out_of_stock_without_units_and_published_with_them(api_client):
    offer = UpsellFactory()
    assert upsell_product(api_client)["status"] == {"code": "out-of-stock"}

    StockFactory(product=offer.product, available=3)

    assert upsell_product(api_client)["status"] == {"code": "published"}


@pytest.mark.parametrize("flag", ["sale_without_stock", "service"])
def test_a_product_sold_without_stock_or_a_service_is_published(api_client, flag):
    UpsellFactory(product=ProductFactory(**{flag: True}))

    assert upsell_product(api_client)["status"] == {"code": "published"}


def test_a_main_product_counts_its_active_variations_units(api_client):
    # given a main product without units of its own, two active variations with units in
    # two storages (one inactive) and an inactive variation with units
    first, second, closed = StorageFactory(), StorageFactory(), StorageFactory(active=False)
    offer = UpsellFactory()
    main = offer.product
    red, blue = VariationFactory(parent=main), VariationFactory(parent=main)
    hidden = VariationFactory(parent=main, active=False)
    StockFactory(product=red, storage=first, available=4, reserved=1)
    StockFactory(product=blue, storage=first, available=2, reserved=0)
    StockFactory(product=blue, storage=second, available=7, reserved=2)
    StockFactory(product=blue, storage=closed, available=100)
    StockFactory(product=hidden, storage=first, available=50)

    product = upsell_product(api_client)

    # then the sums over the active variations, per active storage and in total
    assert product["stock"]["productId"] == main.pk
    assert product["stock"]["availableStock"] == 13
    assert product["stock"]["reservedStock"] == 3
    assert product["stock"]["productStorageId"] == second.pk  # the fullest storage
    assert [
        (s["productId"], s["productStorageId"], s["availableStock"], s["reservedStock"])
        for s in product["stocks"]
    ] == [(main.pk, first.pk, 6, 1), (main.pk, second.pk, 7, 2)]
    assert product["status"] == {"code": "published"}
    # and their times in the store's time zone, as every other time of the answer
    for stock in (product["stock"], *product["stocks"]):
        assert stock["updatedAt"].endswith("-03:00")
    assert product["createdAt"].endswith("-03:00")


# --- cargo type ---------------------------------------------------------------------------


def test_shipping_cargo_type_is_the_default_when_the_product_names_none(api_client):
    UpsellFactory(product=ProductFactory(cargo_type=None))

    dimensions = upsell_product(api_client)["dimensions"]

    assert dimensions["shippingCargoTypeId"] == CargoType.objects.get(is_default=True).pk


def test_shipping_cargo_type_is_the_products_own(api_client):
    fragile = CargoTypeFactory(name="Fragile")
    UpsellFactory(product=ProductFactory(cargo_type=fragile))

    assert upsell_product(api_client)["dimensions"]["shippingCargoTypeId"] == fragile.pk


# --- Query count ----------------------------------------------------------------------------


def test_upsell_costs_the_same_queries_whatever_reviews_rules_and_policies(api_client):
    offer = UpsellFactory()
    product = offer.product
    StockFactory(product=product)
    ProductReviewFactory(product=product, score=5)
    PriceRuleFactory(rule_target="product", products=[product])
    ProductPriceFactory(product=product)

    def count() -> int:
        cold_caches()
        with CaptureQueriesContext(connection) as queries:
            body = upsell_product(api_client)
        assert body["review"] is not None and body["priceRules"]
        return len(queries)

    before = count()
    for score in (1, 2, 3, 4, 4, 5):
        ProductReviewFactory(product=product, score=score)
    for _ in range(5):
        PriceRuleFactory(rule_target="product", products=[product])
        ProductPriceFactory(product=product, trade_policy=TradePolicyFactory())

    assert count() == before
