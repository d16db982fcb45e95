"""GET /review/product: approved product reviews in the success envelope (contract 2.12)."""

import json
from datetime import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from feedback.models import ProductReview, ReviewMedia
from feedback.selectors import FEEDBACK_CACHE
from infra.caching.versions import cache_namespace_bump
from storefront.models import Customer
from tests.catalog.factories import (
    AttributeValueFactory,
    ProductFactory,
    ProductMediaFactory,
    StockFactory,
    VariationFactory,
)
from tests.feedback.factories import ProductReviewFactory, ReviewMediaFactory
from tests.helpers import PRODUCT_SUMMARY_KEYS, assert_error_envelope, cold_caches
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db

URL = "/review/product"
REVIEW_KEYS = {
    "id",
    "productId",
    "customerId",
    "name",
    "email",
    "score",
    "comment",
    "recommended",
    "active",
    "masked",
    "medias",
    "product",
    "createdAt",
    "updatedAt",
}
# The product summary with `productId` in place of `id`.
SUMMARY_KEYS = {"productId", *PRODUCT_SUMMARY_KEYS} - {"id"}


def created_at(review, moment: str) -> None:
    ProductReview.objects.filter(pk=review.pk).update(created_at=datetime.fromisoformat(moment))


def page(api_client, **params) -> dict:
    response = api_client.get(URL, params)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] is True
    return body["data"]


def ids(data: dict) -> list[int]:
    return [register["id"] for register in data["registers"]]


def test_a_review_has_every_contract_field_with_its_json_type(api_client, media_root):
    customer = CustomerFactory(name="Joana Silva", email="joana.silva@example.com")
    review = ProductReviewFactory(
        customer=customer, score=4, comment="Good.", recommended=False, masked=False
    )
    media = ReviewMediaFactory(review=review)

    data = page(api_client)

    assert data["pagination"] == {"limit": 10, "offset": 0, "pages": 1, "registers": 1}
    [register] = data["registers"]
    assert set(register) == REVIEW_KEYS
    assert register["id"] == review.pk
    assert register["productId"] == review.product_id
    assert register["customerId"] == customer.pk
    assert register["name"] == "Joana Silva"
    assert register["email"] == "j***@example.com"
    assert register["score"] == 4
    assert register["comment"] == "Good."
    assert register["recommended"] is False
    assert register["active"] is True
    assert register["masked"] is False
    for key in ("createdAt", "updatedAt"):
        assert datetime.fromisoformat(register[key]).tzinfo is not None
    [photo] = register["medias"]
    assert set(photo) == {"reviewId", "mediaId", "image", "createdAt"}
    assert photo["reviewId"] == review.pk
    assert photo["mediaId"] == media.pk
    assert photo["image"].startswith("http://testserver/media/reviews/")
    assert datetime.fromisoformat(photo["createdAt"]).tzinfo is not None
    product = register["product"]
    assert set(product) == SUMMARY_KEYS
    assert product["productId"] == review.product_id
    assert isinstance(product["brandId"], int) and isinstance(product["stock"], int)
    assert isinstance(product["medias"], list)


def test_a_masked_review_masks_the_name_too(api_client):
    ProductReviewFactory(name="John Smith", email="john@example.com", masked=True)

    [register] = page(api_client)["registers"]

    assert register["name"] == "J*** S***"
    assert register["email"] == "j***@example.com"
    assert register["masked"] is True


def test_only_approved_reviews_are_listed(api_client):
    shown = ProductReviewFactory(active=True)
    ProductReviewFactory(active=False)

    data = page(api_client)

    assert ids(data) == [shown.pk]
    assert data["pagination"]["registers"] == 1


def test_reviews_are_listed_newest_first_by_default(api_client):
    old, new, middle = ProductReviewFactory.create_batch(3)
    created_at(old, "2026-01-01T10:00:00+00:00")
    created_at(middle, "2026-02-01T10:00:00+00:00")
    created_at(new, "2026-03-01T10:00:00+00:00")

    assert ids(page(api_client)) == [new.pk, middle.pk, old.pk]


def test_the_list_is_also_served_under_api_v3_and_with_a_trailing_slash(api_client):
    ProductReviewFactory()

    for url in ("/api/v3/review/product", "/review/product/", "/api/v3/review/product/"):
        response = api_client.get(url)
        assert response.status_code == 200
        assert response.json()["data"]["pagination"]["registers"] == 1


# --- paging -----------------------------------------------------------------------------


def test_paging_arithmetic(api_client):
    reviews = ProductReviewFactory.create_batch(23)
    newest_first = sorted((r.pk for r in reviews), reverse=True)

    first = page(api_client)
    third = page(api_client, limit=5, offset=20)
    beyond = page(api_client, limit=5, offset=40)

    assert first["pagination"] == {"limit": 10, "offset": 0, "pages": 3, "registers": 23}
    assert ids(first) == newest_first[:10]
    assert third["pagination"] == {"limit": 5, "offset": 20, "pages": 5, "registers": 23}
    assert ids(third) == newest_first[20:]
    assert beyond["registers"] == [] and beyond["pagination"]["registers"] == 23


def test_an_empty_list_has_zero_pages(api_client):
    assert page(api_client)["pagination"] == {"limit": 10, "offset": 0, "pages": 0, "registers": 0}


@pytest.mark.parametrize(
    ("param", "value"),
    [
        ("limit", "0"),
        ("limit", "101"),
        ("limit", "abc"),
        ("limit", "1.5"),
        ("limit", "-3"),
        ("limit", "99999999999999999999999"),
        ("offset", "-1"),
        ("offset", "x"),
    ],
)
def test_a_bad_limit_or_offset_is_422_naming_it(api_client, param, value):
    response = api_client.get(URL, {param: value})

    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert list(body["data"]["errors"]) == [param]


def test_limit_100_is_allowed(api_client):
    assert page(api_client, limit=100)["pagination"]["limit"] == 100


# --- condition ----------------------------------------------------------------------------


def test_condition_by_product_in_json_and_in_brackets(api_client):
    review = ProductReviewFactory()
    ProductReviewFactory()

    as_json = page(api_client, condition=json.dumps({"productId": review.product_id}))
    as_brackets = page(api_client, **{"condition[productId]": review.product_id})

    assert ids(as_json) == ids(as_brackets) == [review.pk]


def test_condition_by_customer(api_client):
    customer = CustomerFactory()
    mine = ProductReviewFactory(customer=customer)
    ProductReviewFactory()

    assert ids(page(api_client, **{"condition[customerId]": customer.pk})) == [mine.pk]


def test_a_masked_review_is_customer_0_and_never_matches_its_author(api_client):
    # given a customer with one open and one masked review
    customer = CustomerFactory()
    open_review = ProductReviewFactory(customer=customer)
    masked = ProductReviewFactory(customer=customer, masked=True)

    registers = {r["id"]: r for r in page(api_client)["registers"]}
    assert registers[open_review.pk]["customerId"] == customer.pk
    assert registers[masked.pk]["customerId"] == 0
    # the author's id leads to the open review only, as JSON or brackets, eq or in
    for condition in (
        {"condition[customerId]": customer.pk},
        {"condition[customerId][in]": str(customer.pk)},
        {"condition": json.dumps({"customerId": {"eq": customer.pk}})},
    ):
        assert ids(page(api_client, **condition)) == [open_review.pk]


@pytest.mark.parametrize(
    ("condition", "lists_the_open_review"),
    [
        ({"condition[customerId]": "0"}, False),
        ({"condition[customerId][in]": "0"}, False),
        ({"condition[customerId][lte]": "0"}, False),
        ({"condition[customerId][ne]": "0"}, True),
        ({"condition[customerId][isNull]": "false"}, True),
        ({"condition": json.dumps({"customerId": {"nin": [0]}})}, True),
    ],
)
def test_no_customer_id_condition_matches_a_masked_review_not_even_0(
    api_client, condition, lists_the_open_review
):
    # given one masked and one open review
    masked = ProductReviewFactory(masked=True)
    open_review = ProductReviewFactory()
    # when a customerId condition is sent (0 is what the masked review shows)
    listed = ids(page(api_client, **condition))
    # then the masked review is never listed
    assert masked.pk not in listed
    assert listed == ([open_review.pk] if lists_the_open_review else [])


def test_condition_by_score_with_operators(api_client):
    low, high = ProductReviewFactory(score=2), ProductReviewFactory(score=5)
    middle = ProductReviewFactory(score=4)

    at_least_four = page(api_client, condition='{"score": {"gte": 4}}')
    listed = page(api_client, **{"condition[score][in]": "2,5"})

    assert set(ids(at_least_four)) == {high.pk, middle.pk}
    assert set(ids(listed)) == {low.pk, high.pk}


def test_condition_by_recommended(api_client):
    ProductReviewFactory(recommended=True)
    not_recommended = ProductReviewFactory(recommended=False)

    assert ids(page(api_client, **{"condition[recommended]": "false"})) == [not_recommended.pk]


def test_condition_by_created_at_range(api_client):
    january, february, march = ProductReviewFactory.create_batch(3)
    created_at(january, "2026-01-15T10:00:00+00:00")
    created_at(february, "2026-02-15T10:00:00+00:00")
    created_at(march, "2026-03-15T10:00:00+00:00")

    data = page(api_client, condition='{"createdAt": {"gte": "2026-02-01", "lt": "2026-03-01"}}')

    assert ids(data) == [february.pk]


@pytest.mark.parametrize(
    "condition",
    [
        '{"email": "joana@example.com"}',
        '{"name": {"contains": "Jo"}}',
        '{"score": {"like": 3}}',
        '{"score": "five"}',
        '{"createdAt": {"gte": "yesterday"}}',
        "[1, 2]",
        "{not json",
    ],
)
def test_a_condition_outside_the_whitelist_or_malformed_is_422(api_client, condition):
    ProductReviewFactory()

    response = api_client.get(URL, {"condition": condition})

    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert any(key.startswith("condition") for key in body["data"]["errors"])


# --- order and fields -----------------------------------------------------------------------


def test_order_by_score_in_each_encoding(api_client):
    three, five, one = (ProductReviewFactory(score=score) for score in (3, 5, 1))

    assert ids(page(api_client, order="score")) == [one.pk, three.pk, five.pk]
    assert ids(page(api_client, order="-score")) == [five.pk, three.pk, one.pk]
    as_json = page(api_client, order='[{"field": "score", "direction": "desc"}]')
    assert ids(as_json) == [five.pk, three.pk, one.pk]
    as_brackets = page(api_client, **{"order[0][field]": "score", "order[0][direction]": "asc"})
    assert ids(as_brackets) == [one.pk, three.pk, five.pk]


def test_equal_scores_are_ordered_by_id_so_pages_never_overlap(api_client):
    reviews = ProductReviewFactory.create_batch(7, score=5)

    seen = []
    for offset in range(0, 7, 3):
        seen += ids(page(api_client, order="score", limit=3, offset=offset))

    assert seen == sorted(r.pk for r in reviews)


def test_order_by_a_field_outside_the_whitelist_is_422(api_client):
    response = api_client.get(URL, {"order": "email"})

    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert "order" in body["data"]["errors"]


def test_fields_keeps_only_the_named_keys(api_client):
    ProductReviewFactory()

    for params in ({"fields": "id,score"}, {"fields[]": ["id", "score"]}):
        [register] = page(api_client, **params)["registers"]
        assert set(register) == {"id", "score"}


def test_an_unknown_field_name_is_422(api_client):
    response = api_client.get(URL, {"fields": "id,password"})

    assert "fields" in assert_error_envelope(response, 422, "VALIDATION_ERROR")["data"]["errors"]


# --- query count ------------------------------------------------------------------------------


def test_a_page_of_100_reviews_costs_the_same_queries_as_a_page_of_1(
    api_client, django_assert_max_num_queries, media_root
):
    products = ProductFactory.create_batch(30)
    for product in products:
        ProductMediaFactory(product=product)
        StockFactory(product=product)
    value = AttributeValueFactory()
    variation = VariationFactory(parent=products[0], values=[value])
    customers = Customer.objects.bulk_create(
        Customer(name=f"Customer {n}", email=f"c{n}@example.com") for n in range(150)
    )
    reviews = ProductReview.objects.bulk_create(
        ProductReview(
            product=variation if index % 7 == 0 else products[index % 30],
            customer=customers[index],
            name=f"Reviewer {index}",
            email=f"reviewer{index}@example.com",
            score=index % 5 + 1,
            active=True,
            masked=index % 3 == 0,
        )
        for index in range(150)
    )
    ReviewMedia.objects.bulk_create(
        ReviewMedia(review=review, image=f"reviews/photo-{review.pk}-{n}.png")
        for review in reviews
        for n in range(2)
    )

    def count(limit: int) -> int:
        with CaptureQueriesContext(connection) as queries:
            data = page(api_client, limit=limit)
        assert len(data["registers"]) == limit
        return len(queries)

    # Cold cache: count + page + photos + the product summaries' fixed queries.
    cold_caches()
    # + active variations (main products' stock), + the catalogue's ids (the read model
    # renders summaries in batches)
    with django_assert_max_num_queries(10):
        one = count(1)
    cold_caches()
    assert count(100) == one
    # Product fragments cached, the list answer not: count, page and photos.
    cache_namespace_bump(FEEDBACK_CACHE)
    assert count(100) == 3
    # The same answer again: from the cache of answers.
    assert count(100) == 0
