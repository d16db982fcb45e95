"""GET /review/sales-channel: approved reviews of the current sales channel (contract 2.13)."""

import json
from datetime import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from feedback.models import SalesChannelReview
from feedback.selectors import FEEDBACK_CACHE
from infra.caching.versions import cache_namespace_bump
from storefront.models import SalesChannel
from tests.feedback.factories import SalesChannelReviewFactory, default_sales_channel
from tests.helpers import assert_error_envelope
from tests.storefront.factories import CustomerFactory, SalesChannelFactory

pytestmark = pytest.mark.django_db

URL = "/review/sales-channel"
REVIEW_KEYS = {
    "id",
    "salesChannelId",
    "customerId",
    "name",
    "email",
    "score",
    "comment",
    "recommended",
    "masked",
    "active",
    "salesChannelDomain",
    "createdAt",
    "updatedAt",
}


def page(api_client, host: str = "testserver", **params) -> dict:
    response = api_client.get(URL, params, HTTP_HOST=host)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] is True
    return body["data"]


def ids(data: dict) -> list[int]:
    return [register["id"] for register in data["registers"]]


def test_a_store_review_has_every_contract_field_with_its_json_type(api_client):
    channel = default_sales_channel()
    customer = CustomerFactory(name="Paulo Lima", email="paulo@example.com")
    review = SalesChannelReviewFactory(customer=customer, score=3, recommended=False)

    data = page(api_client)

    assert data["pagination"] == {"limit": 10, "offset": 0, "pages": 1, "registers": 1}
    [register] = data["registers"]
    assert set(register) == REVIEW_KEYS
    assert register["id"] == review.pk
    assert register["salesChannelId"] == channel.pk
    assert register["customerId"] == customer.pk
    assert register["name"] == "Paulo Lima"
    assert register["email"] == "p***@example.com"
    assert register["score"] == 3
    assert register["comment"] == "Fast delivery."
    assert register["recommended"] is False
    assert register["masked"] is False
    assert register["active"] is True
    assert register["salesChannelDomain"] == channel.domain
    for key in ("createdAt", "updatedAt"):
        assert datetime.fromisoformat(register[key]).tzinfo is not None


def test_only_reviews_of_the_channel_serving_the_host_are_listed(api_client, settings):
    settings.ALLOWED_HOSTS = ["*"]
    other = SalesChannelFactory(domain="outlet.example.com")
    on_default = SalesChannelReviewFactory()
    on_outlet = SalesChannelReviewFactory(sales_channel=other)

    assert ids(page(api_client, host="outlet.example.com")) == [on_outlet.pk]
    assert ids(page(api_client, host="unknown.example.com")) == [on_default.pk]
    [register] = page(api_client, host="outlet.example.com:8443")["registers"]
    assert register["salesChannelDomain"] == "outlet.example.com"


def test_only_approved_store_reviews_are_listed(api_client):
    shown = SalesChannelReviewFactory()
    SalesChannelReviewFactory(active=False)

    assert ids(page(api_client)) == [shown.pk]


def test_a_masked_store_review_masks_the_name(api_client):
    SalesChannelReviewFactory(name="Ana Maria Souza", email="ana@example.com", masked=True)

    [register] = page(api_client)["registers"]

    assert register["name"] == "A*** M*** S***"
    assert register["email"] == "a***@example.com"


def test_store_reviews_are_newest_first_and_filter_and_sort_by_the_whitelist(api_client):
    first, second, third = (SalesChannelReviewFactory(score=s) for s in (5, 1, 3))
    SalesChannelReview.objects.filter(pk=first.pk).update(
        created_at=datetime.fromisoformat("2025-01-01T00:00:00+00:00")
    )

    assert ids(page(api_client)) == [third.pk, second.pk, first.pk]
    assert ids(page(api_client, order="score")) == [second.pk, third.pk, first.pk]
    assert ids(page(api_client, condition=json.dumps({"score": {"gte": 3}}))) == [
        third.pk,
        first.pk,
    ]
    assert ids(page(api_client, **{"condition[createdAt][lt]": "2026-01-01"})) == [first.pk]
    assert ids(page(api_client, **{"condition[customerId]": second.customer_id})) == [second.pk]
    assert ids(page(api_client, **{"condition[recommended]": "true"}))


def test_paging_of_store_reviews(api_client):
    SalesChannelReviewFactory.create_batch(12)

    data = page(api_client, limit=5, offset=10)

    assert data["pagination"] == {"limit": 5, "offset": 10, "pages": 3, "registers": 12}
    assert len(data["registers"]) == 2


@pytest.mark.parametrize(
    "params",
    [{"limit": "500"}, {"condition": '{"email": "x"}'}, {"order": "name"}, {"fields": "secret"}],
)
def test_bad_list_parameters_are_422(api_client, params):
    assert_error_envelope(api_client.get(URL, params), 422, "VALIDATION_ERROR")


def test_a_page_of_100_store_reviews_costs_the_same_queries_as_a_page_of_1(
    api_client, django_assert_max_num_queries
):
    channel = default_sales_channel()
    customers = CustomerFactory.create_batch(120)  # one store review per customer
    SalesChannelReview.objects.bulk_create(
        SalesChannelReview(
            sales_channel=channel,
            customer=customers[index],
            name=f"Reviewer {index}",
            email=f"r{index}@example.com",
            score=index % 5 + 1,
            active=True,
        )
        for index in range(120)
    )

    def count(limit: int) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert len(page(api_client, limit=limit)["registers"]) == limit
        return len(queries)

    # Cold: the channel lookup (domain, then the default) + count + page.
    with django_assert_max_num_queries(4):
        count(1)
    # The same answer again is served from the cache of answers, without a query.
    assert count(1) == 0
    # Warm channel, answer not cached: the same for 1 and 100 registers.
    cache_namespace_bump(FEEDBACK_CACHE)
    one = count(1)
    cache_namespace_bump(FEEDBACK_CACHE)
    assert count(100) == one <= 2


def test_without_any_sales_channel_the_list_is_empty(api_client):
    SalesChannelReview.objects.all().delete()
    SalesChannel.objects.all().delete()

    data = page(api_client)

    assert data == {
        "registers": [],
        "pagination": {"limit": 10, "offset": 0, "pages": 0, "registers": 0},
    }


@pytest.mark.parametrize("url", [URL, "/review/product", "/publics/products/comments"])
def test_the_lists_answer_405_to_writes(api_client, url):
    # POST on the review paths writes a review (tests/feedback/test_api_review_writes.py)
    if url == "/publics/products/comments":
        response = api_client.post(url, {}, format="json")
        assert_error_envelope(response, 405, "METHOD_NOT_ALLOWED")
    assert_error_envelope(api_client.delete(url), 405, "METHOD_NOT_ALLOWED")


def test_a_masked_store_review_is_customer_0_and_never_matches_its_author(api_client):
    channel = default_sales_channel()
    customer = CustomerFactory()
    author = CustomerFactory()  # one store review per customer and channel
    open_review = SalesChannelReviewFactory(sales_channel=channel, customer=customer)
    masked = SalesChannelReviewFactory(sales_channel=channel, customer=author, masked=True)

    registers = {r["id"]: r for r in page(api_client)["registers"]}
    assert registers[open_review.pk]["customerId"] == customer.pk
    assert registers[masked.pk]["customerId"] == 0
    assert ids(page(api_client, **{"condition[customerId]": customer.pk})) == [open_review.pk]
    assert ids(page(api_client, **{"condition[customerId]": author.pk})) == []
    assert ids(page(api_client, **{"condition[customerId]": 0})) == []
