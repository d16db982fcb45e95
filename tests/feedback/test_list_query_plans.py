"""The review and comment lists' pages from compiled statements (apikit.generics.QueryPlan):
a shape's first request compiles it, later requests bind their integer operands; every page
equals the one the ORM builds (rows, count, photos), and shapes the plan cannot take (text,
dates, null tests) run through the ORM."""

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apikit.generics import QUERY_PLANS
from feedback.api.views import CommentListView, ProductReviewListView
from feedback.models import ProductReview
from feedback.selectors import _MEDIA_STATEMENTS
from tests.catalog.factories import ProductFactory
from tests.feedback.factories import (
    CommentFactory,
    ProductReviewFactory,
    ReplyFactory,
    ReviewMediaFactory,
)
from tests.helpers import cold_caches
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def plans():
    QUERY_PLANS.clear()
    _MEDIA_STATEMENTS.clear()
    yield QUERY_PLANS
    QUERY_PLANS.clear()
    _MEDIA_STATEMENTS.clear()


@pytest.fixture
def store(media_root):
    products = ProductFactory.create_batch(3)
    customers = CustomerFactory.create_batch(5)
    reviews = []
    for number in range(14):
        reviews.append(
            ProductReviewFactory(
                product=products[number % 3],
                customer=customers[number // 3],
                score=number % 5 + 1,
                masked=number % 4 == 0,
                active=number % 7 != 6,
            )
        )
    ReviewMediaFactory(review=reviews[0])
    ReviewMediaFactory(review=reviews[0])
    ReviewMediaFactory(review=reviews[4])
    for number in range(9):
        comment = CommentFactory(product=products[number % 3], active=number % 5 != 4)
        if number % 2:
            ReplyFactory(parent=comment, product=comment.product)
    return products, customers, reviews


def body(api_client, url: str) -> bytes:
    cold_caches()
    response = api_client.get(url)
    assert response.status_code == 200, response.content
    return response.content


def orm_body(api_client, url: str, view: type, monkeypatch) -> bytes:
    with monkeypatch.context() as patched:
        patched.setattr(view, "compiled_queries", False)
        return body(api_client, url)


def review_urls(products, customers, reviews) -> list[str]:
    p, c = [product.pk for product in products], [customer.pk for customer in customers]
    return [
        f"/review/product?condition[productId]={p[0]}&limit=3",
        f"/review/product?condition[productId]={p[1]}&limit=3&offset=3",
        f"/review/product?condition[productId]={p[2]}&limit=2&offset=2",
        f"/review/product?condition[productId]={p[0]}&limit=20&offset=40",
        f"/review/product?condition[productId]={p[1]}&limit=20",
        f"/review/product?condition[customerId]={c[0]}&order=score",
        f"/review/product?condition[customerId]={c[1]}&order=score",
        f"/review/product?condition[productId][in]={p[0]},{p[2]}&limit=4",
        f"/review/product?condition[productId][in]={p[1]},{p[2]}&limit=4&offset=4",
        f"/review/product?condition[productId][in]={p[0]},{p[1]},{p[2]}&order=-score,id",
        f"/review/product?condition[productId][ne]={p[0]}&condition[score][gte]=3",
        f"/review/product?condition[productId][ne]={p[2]}&condition[score][gte]=2",
        f"/review/product?condition[productId][ne]={p[1]}&condition[score][gte]=40000",
        f"/review/product?condition[productId][ne]={p[1]}&condition[score][gte]=-40000",
        "/review/product?condition[productId]=9223372036854775807",
        "/review/product?condition[productId]=-9223372036854775808",
        f"/review/product?condition[id][nin]={reviews[0].pk},{reviews[1].pk}&limit=5",
        f"/review/product?condition[id][in]={reviews[0].pk},{reviews[0].pk}&limit=5",
        f"/review/product?condition[id][nin]={reviews[2].pk},{reviews[3].pk}&limit=5",
        "/review/product?limit=4&offset=4",
        "/review/product?limit=4&offset=8",
        # not planned: dates, booleans, text
        "/review/product?condition[createdAt][gte]=2020-01-01&limit=4",
        "/review/product?condition[recommended]=true&limit=4",
        "/review/product?condition[productId][isNull]=false&condition[score]=3",
    ]


def test_review_pages_from_plans_equal_the_orm_s_byte_for_byte(
    api_client, store, plans, monkeypatch
):
    urls = review_urls(*store)
    expected = [orm_body(api_client, url, ProductReviewListView, monkeypatch) for url in urls]
    assert len(plans._plans._statements) == 0
    for _ in range(2):  # learning, then from the plans
        assert [body(api_client, url) for url in urls] == expected
    assert sum(plan is not None for plan in plans._plans._statements.values()) >= 6
    # the pages hold what the conditions ask (not only the first shape's operands)
    shown = json.loads(expected[1])["data"]
    assert {row["productId"] for row in shown["registers"]} == {store[0][1].pk}
    photos = [json.loads(page)["data"]["registers"] for page in expected]
    assert any(len(row["medias"]) == 2 for rows in photos for row in rows)


def test_comment_pages_from_plans_equal_the_orm_s_byte_for_byte(
    api_client, store, plans, monkeypatch
):
    products = store[0]
    p = [product.pk for product in products]
    urls = [
        f"/publics/products/comments?condition[productId]={p[0]}&limit=2",
        f"/publics/products/comments?condition[productId]={p[1]}&limit=2&offset=2",
        f"/publics/products/comments?condition[productId]={p[2]}&limit=2&offset=1",
        "/publics/products/comments?condition[totalReplies][gt]=0&order=-totalReplies",
        f"/publics/products/comments?condition[parentCommentId][ne]={p[0]}",
        "/publics/products/comments?condition[parentCommentId][isNull]=true",
        "/publics/products/comments?limit=3&offset=3",
    ]
    expected = [orm_body(api_client, url, CommentListView, monkeypatch) for url in urls]
    for _ in range(2):
        assert [body(api_client, url) for url in urls] == expected


def test_a_planned_page_costs_no_more_queries_than_the_orm_s(api_client, store, plans):
    products = store[0]
    url = f"/review/product?condition[productId]={products[0].pk}&limit=2"
    body(api_client, url)  # learnt
    body(api_client, url)  # the product summaries kept
    for product in products:
        cache.clear()  # the answers, not the kept product summaries
        with CaptureQueriesContext(connection) as queries:
            api_client.get(f"/review/product?condition[productId]={product.pk}&limit=2")
        assert len(queries) <= 3  # page, count (a full page), photos
        assert "COUNT(*)" in queries[1]["sql"] and "LIMIT 2" in queries[0]["sql"]


def test_a_shape_that_cannot_be_planned_is_remembered_and_served_by_the_orm(
    api_client, store, plans
):
    url = "/review/product?condition[createdAt][gte]=2020-01-01&limit=4"
    first = body(api_client, url)
    assert body(api_client, url) == first
    assert all(plan is None for plan in plans._plans._statements.values())
    ProductReview.objects.update(active=False)
    assert json.loads(body(api_client, url))["data"]["registers"] == []
