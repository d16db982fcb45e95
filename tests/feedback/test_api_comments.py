"""GET /publics/products/comments: approved comments and replies, bare page (contract 2.14)."""

import json
from datetime import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from feedback.models import Comment
from feedback.selectors import FEEDBACK_CACHE
from infra.caching.versions import cache_namespace_bump
from tests.catalog.factories import ProductFactory, ProductMediaFactory, StockFactory
from tests.feedback.factories import CommentFactory, ReplyFactory, StaffReplyFactory
from tests.helpers import assert_error_envelope, cold_caches
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db

URL = "/publics/products/comments"
COMMENT_KEYS = {
    "id",
    "productId",
    "parentCommentId",
    "customerId",
    "customerName",
    "customerEmail",
    "userId",
    "userName",
    "userEmail",
    "message",
    "replyByUser",
    "active",
    "totalReplies",
    "product",
    "createdAt",
    "updatedAt",
}


def page(api_client, **params) -> dict:
    response = api_client.get(URL, params)
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"registers", "pagination"}  # bare: no status/data envelope
    return body


def ids(data: dict) -> list[int]:
    return [register["id"] for register in data["registers"]]


def by_id(data: dict) -> dict[int, dict]:
    return {register["id"]: register for register in data["registers"]}


def test_comments_and_replies_have_every_contract_field_with_its_json_type(api_client):
    staff = get_user_model().objects.create_user("maria", "maria@store.example", "x")
    customer = CustomerFactory(name="Rita Alves", email="rita@example.com")
    comment = CommentFactory(
        customer=customer,
        customer_name="Rita Alves",
        customer_email="rita@example.com",
        message="Is it waterproof?",
    )
    reply = StaffReplyFactory(
        parent=comment,
        user=staff,
        user_name="Maria",
        user_email="maria@store.example",
        message="Yes, it is.",
    )

    data = page(api_client)

    assert data["pagination"] == {"limit": 10, "offset": 0, "pages": 1, "registers": 2}
    registers = by_id(data)
    top = registers[comment.pk]
    assert set(top) == COMMENT_KEYS
    assert top["productId"] == comment.product_id
    assert top["parentCommentId"] is None
    assert top["customerId"] == customer.pk
    assert top["customerName"] == "Rita Alves"
    assert top["customerEmail"] == "r***@example.com"
    assert top["userId"] is None
    assert top["userName"] == ""
    assert top["userEmail"] == ""
    assert top["message"] == "Is it waterproof?"
    assert top["replyByUser"] is False
    assert top["active"] is True
    assert top["totalReplies"] == 1
    assert top["product"]["id"] == comment.product_id
    assert {"brandId", "sku", "url", "stock", "medias", "currentAttributes"} <= set(top["product"])
    for key in ("createdAt", "updatedAt"):
        assert datetime.fromisoformat(top[key]).tzinfo is not None
    answer = registers[reply.pk]
    assert answer["parentCommentId"] == comment.pk
    assert answer["replyByUser"] is True
    assert answer["userId"] == staff.pk
    assert answer["userName"] == "Maria"
    assert answer["userEmail"] == "m***@store.example"
    assert answer["customerId"] is None
    assert answer["totalReplies"] == 0


def test_only_approved_comments_are_listed_and_replies_of_a_hidden_comment_are_hidden(api_client):
    shown = CommentFactory()
    hidden = CommentFactory(active=False)
    ReplyFactory(parent=hidden)  # approved, but its thread is hidden
    pending_reply = ReplyFactory(parent=shown, active=False)
    visible_reply = ReplyFactory(parent=shown)

    data = page(api_client)

    assert set(ids(data)) == {shown.pk, visible_reply.pk}
    assert pending_reply.pk not in ids(data)
    assert by_id(data)[shown.pk]["totalReplies"] == 1


def test_total_replies_counts_only_approved_replies(api_client):
    comment = CommentFactory()
    ReplyFactory.create_batch(3, parent=comment)
    ReplyFactory.create_batch(2, parent=comment, active=False)

    data = page(api_client, **{"condition[parentCommentId][isNull]": "true"})

    assert [r["totalReplies"] for r in data["registers"]] == [3]


def test_condition_by_product_and_parent(api_client):
    product = ProductFactory()
    comment = CommentFactory(product=product)
    reply = ReplyFactory(parent=comment)
    CommentFactory()

    assert set(ids(page(api_client, **{"condition[productId]": product.pk}))) == {
        comment.pk,
        reply.pk,
    }
    assert ids(page(api_client, condition=json.dumps({"parentCommentId": comment.pk}))) == [
        reply.pk
    ]
    top_level = page(api_client, condition='{"parentCommentId": {"isNull": true}}')
    assert reply.pk not in ids(top_level) and comment.pk in ids(top_level)
    only_replies = page(api_client, **{"condition[parentCommentId][isNull]": "false"})
    assert ids(only_replies) == [reply.pk]


def test_condition_by_customer_and_created_at(api_client):
    customer = CustomerFactory()
    mine = CommentFactory(customer=customer)
    old = CommentFactory()
    Comment.objects.filter(pk=old.pk).update(
        created_at=datetime.fromisoformat("2025-06-01T12:00:00+00:00")
    )

    assert ids(page(api_client, **{"condition[customerId]": customer.pk})) == [mine.pk]
    assert ids(page(api_client, **{"condition[createdAt][lt]": "2026-01-01"})) == [old.pk]
    assert ids(page(api_client, **{"condition[createdAt][gte]": "2026-01-01T00:00:00Z"})) == [
        mine.pk
    ]


def test_comments_are_newest_first_and_can_be_ordered_by_replies(api_client):
    quiet, busy = CommentFactory(), CommentFactory()
    ReplyFactory.create_batch(2, parent=busy)
    Comment.objects.filter(pk=quiet.pk).update(
        created_at=datetime.fromisoformat("2025-06-01T12:00:00+00:00")
    )
    top = {"condition[parentCommentId][isNull]": "true"}

    assert ids(page(api_client, **top)) == [busy.pk, quiet.pk]
    assert ids(page(api_client, **top, order="totalReplies")) == [quiet.pk, busy.pk]
    assert ids(page(api_client, **top, order="createdAt")) == [quiet.pk, busy.pk]


def test_sparse_fields_and_paging(api_client):
    CommentFactory.create_batch(12)

    data = page(api_client, fields="id,message", limit=5, offset=10)

    assert data["pagination"] == {"limit": 5, "offset": 10, "pages": 3, "registers": 12}
    assert [set(r) for r in data["registers"]] == [{"id", "message"}] * 2


@pytest.mark.parametrize(
    "params",
    [
        {"limit": "101"},
        {"offset": "-5"},
        {"condition": '{"customerEmail": "a@example.com"}'},
        {"condition": '{"message": {"contains": "x"}}'},
        {"condition[parentCommentId][isNull]": "maybe"},
        {"condition[productId]": "abc"},
        {"condition[productId]": "99999999999999999999999"},
        {"order": "customerEmail"},
        {"fields": "id,password"},
    ],
)
def test_bad_list_parameters_are_422_in_the_error_envelope(api_client, params):
    assert_error_envelope(api_client.get(URL, params), 422, "VALIDATION_ERROR")


def test_a_page_of_100_comments_costs_the_same_queries_as_a_page_of_1(
    api_client, django_assert_max_num_queries, media_root
):
    products = ProductFactory.create_batch(20)
    for product in products:
        ProductMediaFactory(product=product)
        StockFactory(product=product)
    comments = Comment.objects.bulk_create(
        Comment(
            product=products[index % 20],
            customer_name=f"Person {index}",
            customer_email=f"person{index}@example.com",
            message=f"Message {index}",
            active=True,
        )
        for index in range(80)
    )
    Comment.objects.bulk_create(
        Comment(
            product=parent.product,
            parent=parent,
            customer_name="Answerer",
            customer_email="answer@example.com",
            message="An answer",
            active=True,
        )
        for parent in comments[:60]
    )

    def count(limit: int) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert len(page(api_client, limit=limit)["registers"]) == limit
        return len(queries)

    # Cold cache: count + page + the product summaries' fixed queries, for 1 or 100 rows.
    cold_caches()
    # + active variations (main products' stock), + the catalogue's ids (the read model
    # renders summaries in batches)
    with django_assert_max_num_queries(9):
        one = count(1)
    cold_caches()
    assert count(100) == one
    # Product fragments cached, the list answer not: the count and the page alone.
    cache_namespace_bump(FEEDBACK_CACHE)
    assert count(100) == 2
    # The same answer again: from the cache of answers.
    assert count(100) == 0
