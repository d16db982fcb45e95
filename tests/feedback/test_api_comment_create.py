"""POST /publics/products/{productId}/comments: bare Comment, 201 (contract 4.13)."""

import pytest
from rest_framework.throttling import SimpleRateThrottle

from feedback.models import Comment
from storefront.tokens import token_issue
from tests.catalog.factories import ProductFactory
from tests.feedback.factories import CommentFactory, ReplyFactory
from tests.helpers import assert_error_envelope
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db

ANONYMOUS = {"customerName": "Ana Souza", "customerEmail": "ana.souza@example.com"}


def url(product_id) -> str:
    return f"/publics/products/{product_id}/comments"


def post(api_client, product_id, body, **extra):
    return api_client.post(url(product_id), body, format="json", **extra)


def bearer(customer) -> dict:
    token = token_issue(customer_id=customer.pk, password_hash=customer.password).token
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


@pytest.fixture
def product():
    return ProductFactory()


def test_an_anonymous_comment_is_created_and_held_for_moderation(api_client, product):
    response = post(
        api_client, product.pk, {"message": "  Does it fit a 15-inch laptop?  ", **ANONYMOUS}
    )

    assert response.status_code == 201
    body = response.json()
    assert "status" not in body  # bare
    comment = Comment.objects.get()
    assert body["id"] == comment.pk
    assert body["productId"] == product.pk
    assert body["parentCommentId"] is None
    assert body["customerId"] is None
    assert body["customerName"] == "Ana Souza"
    assert body["customerEmail"] == "a***@example.com"
    assert body["userId"] is None and body["userName"] == "" and body["userEmail"] == ""
    assert body["message"] == "Does it fit a 15-inch laptop?"
    assert body["replyByUser"] is False
    assert body["active"] is False
    assert body["totalReplies"] == 0
    assert body["product"]["id"] == product.pk
    assert comment.message == "Does it fit a 15-inch laptop?"
    assert comment.customer_email == "ana.souza@example.com"
    assert comment.active is False


def test_a_held_comment_is_not_listed_until_approved(api_client, product):
    post(api_client, product.pk, {"message": "Hello?", **ANONYMOUS})

    assert api_client.get("/publics/products/comments").json()["registers"] == []


def test_comments_are_published_at_once_when_moderation_is_off(api_client, product, settings):
    settings.COMMENTS_REQUIRE_MODERATION = False

    response = post(api_client, product.pk, {"message": "Hello?", **ANONYMOUS})

    assert response.json()["active"] is True
    listed = api_client.get("/publics/products/comments").json()["registers"]
    assert [c["id"] for c in listed] == [response.json()["id"]]


def test_a_signed_in_customer_comments_under_the_account_name_and_email(api_client, product):
    customer = CustomerFactory(name="Carlos Dias", email="carlos@example.com")

    response = post(
        api_client,
        product.pk,
        {"message": "Great!", "customerName": "Someone Else", "customerEmail": "x@example.com"},
        **bearer(customer),
    )

    assert response.status_code == 201
    body = response.json()
    assert body["customerId"] == customer.pk
    assert body["customerName"] == "Carlos Dias"
    assert body["customerEmail"] == "c***@example.com"
    assert Comment.objects.get().customer_email == "carlos@example.com"


def test_a_signed_in_customer_needs_no_name_or_email(api_client, product):
    customer = CustomerFactory()

    response = post(api_client, product.pk, {"message": "Nice"}, **bearer(customer))

    assert response.status_code == 201
    assert response.json()["customerId"] == customer.pk


def test_the_token_is_also_accepted_in_the_service_cookie_name_header(api_client, product):
    customer = CustomerFactory()
    token = token_issue(customer_id=customer.pk, password_hash=customer.password).token

    response = post(api_client, product.pk, {"message": "Nice"}, HTTP_SERVICE_COOKIE_NAME=token)

    assert response.json()["customerId"] == customer.pk


def test_an_invalid_token_comments_as_anonymous(api_client, product):
    without_name = post(
        api_client, product.pk, {"message": "Hi"}, HTTP_AUTHORIZATION="Bearer expired-or-forged"
    )
    with_name = post(
        api_client,
        product.pk,
        {"message": "Hi", **ANONYMOUS},
        HTTP_AUTHORIZATION="Bearer expired-or-forged",
    )

    assert_error_envelope(without_name, 422, "VALIDATION_ERROR")
    assert with_name.status_code == 201
    assert with_name.json()["customerId"] is None


def test_a_reply_to_an_approved_top_level_comment(api_client, product):
    parent = CommentFactory(product=product)

    response = post(
        api_client,
        product.pk,
        {"message": "Same question", "parentCommentId": parent.pk, **ANONYMOUS},
    )

    assert response.status_code == 201
    assert response.json()["parentCommentId"] == parent.pk
    assert Comment.objects.get(pk=response.json()["id"]).parent == parent


@pytest.mark.parametrize("case", ["unknown", "other product", "pending"])
def test_a_parent_that_is_not_an_approved_comment_of_the_product_is_404(api_client, product, case):
    if case == "unknown":
        parent_id = 987654
    elif case == "other product":
        parent_id = CommentFactory().pk
    else:
        parent_id = CommentFactory(product=product, active=False).pk
    before = Comment.objects.count()

    response = post(
        api_client, product.pk, {"message": "Hi", "parentCommentId": parent_id, **ANONYMOUS}
    )

    body = assert_error_envelope(response, 404, "SERVICE_STORE_COMMENT_NOT_FOUND")
    assert body["data"]["message"] == f"Comment {parent_id} was not found."
    assert Comment.objects.count() == before


@pytest.mark.parametrize("case", ["a reply", "string"])
def test_a_parent_that_is_a_reply_or_not_an_id_is_422(api_client, product, case):
    if case == "a reply":
        parent_id = ReplyFactory(parent=CommentFactory(product=product)).pk
    else:
        parent_id = "first"
    before = Comment.objects.count()

    response = post(
        api_client, product.pk, {"message": "Hi", "parentCommentId": parent_id, **ANONYMOUS}
    )

    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert "parentCommentId" in body["data"]["errors"]
    assert Comment.objects.count() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"customerName": "Ana Souza", "customerEmail": "a@example.com"}, "message"),
        ({"message": "   ", **ANONYMOUS}, "message"),
        ({"message": "", **ANONYMOUS}, "message"),
        ({"message": None, **ANONYMOUS}, "message"),
        ({"message": 42, **ANONYMOUS}, "message"),
        ({"message": ["a"], **ANONYMOUS}, "message"),
        ({"message": "x" * 2001, **ANONYMOUS}, "message"),
        ({"message": "x" * 10_000, **ANONYMOUS}, "message"),
        ({"message": "Hi", "customerEmail": "a@example.com"}, "customerName"),
        ({"message": "Hi", "customerName": "Al", "customerEmail": "a@example.com"}, "customerName"),
        (
            {"message": "Hi", "customerName": "x" * 101, "customerEmail": "a@example.com"},
            "customerName",
        ),
        (
            {"message": "Hi", "customerName": 12345, "customerEmail": "a@example.com"},
            "customerName",
        ),
        ({"message": "Hi", "customerName": "Ana Souza"}, "customerEmail"),
        (
            {"message": "Hi", "customerName": "Ana Souza", "customerEmail": "not-an-email"},
            "customerEmail",
        ),
        ({"message": "Hi", "parentCommentId": True, **ANONYMOUS}, "parentCommentId"),
        ({"message": "Hi", "parentCommentId": -1, **ANONYMOUS}, "parentCommentId"),
        ({"message": "Hi", "parentCommentId": 1.5, **ANONYMOUS}, "parentCommentId"),
        ({"message": "Hi", "parentCommentId": 10**30, **ANONYMOUS}, "parentCommentId"),
    ],
)
def test_invalid_bodies_are_422_naming_the_field_and_write_nothing(
    api_client, product, body, field
):
    response = post(api_client, product.pk, body)

    data = assert_error_envelope(response, 422, "VALIDATION_ERROR")["data"]
    assert field in data["errors"]
    assert field in data["errors"][field][0]
    assert not Comment.objects.exists()


def test_a_message_of_exactly_2000_characters_after_trimming_is_accepted(api_client, product):
    response = post(api_client, product.pk, {"message": "  " + "y" * 2000 + "\n", **ANONYMOUS})

    assert response.status_code == 201
    assert len(Comment.objects.get().message) == 2000


def test_the_message_is_stored_as_plain_text(api_client, product):
    html = "<script>alert(1)</script> <b>bold</b>"

    response = post(api_client, product.pk, {"message": html, **ANONYMOUS})

    assert response.json()["message"] == html
    assert Comment.objects.get().message == html


@pytest.mark.parametrize(
    "product_id", ["999999", "abc", "-1", "0", "1.5", "99999999999999999999999999"]
)
def test_an_unknown_or_malformed_product_is_404_product_not_found(api_client, product_id):
    response = post(api_client, product_id, {"message": "Hi", **ANONYMOUS})

    assert_error_envelope(response, 404, "SERVICE_STORE_PRODUCT_NOT_FOUND")
    assert not Comment.objects.exists()


def test_an_inactive_product_is_404(api_client):
    product = ProductFactory(active=False)

    response = post(api_client, product.pk, {"message": "Hi", **ANONYMOUS})

    assert_error_envelope(response, 404, "SERVICE_STORE_PRODUCT_NOT_FOUND")


def test_malformed_json_is_422_and_a_form_body_is_415(api_client, product):
    malformed = api_client.post(
        url(product.pk), data=b'{"message": ', content_type="application/json"
    )
    as_form = api_client.post(url(product.pk), {"message": "Hi"})

    assert_error_envelope(malformed, 422, "VALIDATION_ERROR")
    assert_error_envelope(as_form, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_get_on_the_create_path_is_405(api_client, product):
    assert_error_envelope(api_client.get(url(product.pk)), 405, "METHOD_NOT_ALLOWED")


def test_creation_is_served_under_api_v3_and_with_a_trailing_slash(api_client, product):
    for path in (f"/api/v3{url(product.pk)}", f"{url(product.pk)}/"):
        response = api_client.post(path, {"message": "Hi", **ANONYMOUS}, format="json")
        assert response.status_code == 201


def test_comment_creation_is_throttled_per_ip(api_client, product, monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"public_write": "2/min"})
    for _ in range(2):
        assert post(api_client, product.pk, {"message": "Hi", **ANONYMOUS}).status_code == 201

    response = post(api_client, product.pk, {"message": "Hi", **ANONYMOUS})

    assert_error_envelope(response, 429, "TOO_MANY_REQUESTS")
    assert int(response["Retry-After"]) >= 1
    assert Comment.objects.count() == 2
    other_ip = post(api_client, product.pk, {"message": "Hi", **ANONYMOUS}, REMOTE_ADDR="10.1.1.1")
    assert other_ip.status_code == 201
