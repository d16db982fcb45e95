"""Verified purchases (the signed order webhook) and helpful votes on product reviews,
through HTTP (issue 34 items 1 and 2)."""

import json
import random
import time
from statistics import NormalDist

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from feedback.models import ProductReview, PurchaseItem, PurchaseOrder, ReviewVote
from feedback.ranking import wilson_lower_bound
from tests.catalog.factories import ProductFactory
from tests.feedback.factories import ProductReviewFactory
from tests.feedback.test_api_review_writes import REVIEW_KEYS, bearer
from tests.helpers import assert_error
from tests.storefront.factories import CustomerFactory
from webhooks.signing import signature_header

pytestmark = pytest.mark.django_db

SECRET = "orders-shared-secret"
HOOK = "/webhooks/orders"
LIST = "/review/product"


@pytest.fixture(autouse=True)
def orders_secret(settings):
    settings.ORDERS_WEBHOOK_SECRET = SECRET
    settings.REVIEWS_REQUIRE_MODERATION = False


def deliver(client, payload, *, secret=SECRET, timestamp=None, raw=None):
    body = raw if raw is not None else json.dumps(payload).encode()
    header = signature_header(secret, int(time.time()) if timestamp is None else timestamp, body)
    return client.post(HOOK, body, content_type="application/json", HTTP_X_SIGNATURE=header)


def order(order_id="A-1", **more):
    return {"event": "order.paid", "orderId": order_id, **more}


def registers(client, query=""):
    response = client.get(f"{LIST}?{query}")
    assert response.status_code == 200, response.content
    return response.json()["data"]["registers"]


def write_review(client, customer, product):
    response = client.post(
        LIST, {"productId": product.pk, "score": 5}, format="json", **bearer(customer)
    )
    assert response.status_code in (200, 201), response.content
    return response.json()["data"]


# --- Verified purchases -----------------------------------------------------------------


def test_review_by_buyer_of_webhook_order_is_verified_others_not():
    client = APIClient()
    product, other_product = ProductFactory(), ProductFactory()
    buyer, stranger = CustomerFactory(), CustomerFactory()
    response = deliver(client, order(customerId=buyer.pk, productIds=[product.pk]))
    assert response.status_code == 200, response.content
    assert response.json() == {
        "status": True,
        "data": {"orderId": "A-1", "duplicate": False, "reviewsVerified": 0},
    }
    mine = write_review(client, buyer, product)
    theirs = write_review(client, stranger, product)
    elsewhere = write_review(client, buyer, other_product)
    assert set(mine) == REVIEW_KEYS  # the POST answer keeps the contract's keys
    rows = registers(client, "fields=id,verifiedPurchase")
    assert {row["id"]: row["verifiedPurchase"] for row in rows} == {
        mine["id"]: True,
        theirs["id"]: False,
        elsewhere["id"]: False,
    }
    verified = registers(client, "condition[verifiedPurchase]=true&fields=id")
    assert [row["id"] for row in verified] == [mine["id"]]
    answer = client.get(f"{LIST}?condition[verifiedPurchase]=true").json()["data"]
    assert answer["pagination"]["registers"] == 1


def test_order_arriving_after_the_review_marks_it_and_matches_by_email(
    django_capture_on_commit_callbacks,
):
    client = APIClient()
    product = ProductFactory()
    buyer = CustomerFactory(email="Joana@Example.com")
    review = ProductReviewFactory(product=product, customer=buyer)
    assert registers(client, "fields=id,verifiedPurchase")[0]["verifiedPurchase"] is False
    with django_capture_on_commit_callbacks(execute=True):
        response = deliver(client, order("B-7", email="joana@example.COM", productIds=[product.pk]))
    assert response.json()["data"]["reviewsVerified"] == 1
    review.refresh_from_db()
    assert review.verified_purchase is True
    # the cached list answer was invalidated
    assert registers(client, "fields=id,verifiedPurchase")[0]["verifiedPurchase"] is True


@pytest.mark.parametrize("event", ["order.cancelled", "order.refunded"])
def test_a_cancelled_order_takes_the_mark_off_unless_another_live_order_holds_the_product(
    django_capture_on_commit_callbacks, event
):
    client = APIClient()
    product, kept_product = ProductFactory(), ProductFactory()
    buyer, twice = CustomerFactory(), CustomerFactory()
    with django_capture_on_commit_callbacks(execute=True):
        deliver(client, order("C-1", customerId=buyer.pk, productIds=[product.pk, kept_product.pk]))
        deliver(client, order("C-2", customerId=twice.pk, productIds=[product.pk]))
        deliver(client, order("C-3", customerId=twice.pk, productIds=[product.pk]))
    mine = write_review(client, buyer, product)["id"]
    also = write_review(client, buyer, kept_product)["id"]
    theirs = write_review(client, twice, product)["id"]
    assert all(row["verifiedPurchase"] for row in registers(client, "fields=verifiedPurchase"))

    # when the buyer's order is cancelled (the body's products do not matter: the order's do)
    # and one of the other buyer's two orders
    with django_capture_on_commit_callbacks(execute=True):
        first = deliver(
            client, {"event": event, "orderId": "C-1", "customerId": buyer.pk, "productIds": [1]}
        )
        deliver(client, {"event": event, "orderId": "C-2", "email": "x@y.br", "productIds": [1]})
    assert first.status_code == 200, first.content
    assert first.json()["data"] == {"orderId": "C-1", "duplicate": False, "reviewsVerified": 0}
    # then the first buyer's reviews lose the mark, the second's keeps it (C-3 is live)
    rows = registers(client, "fields=id,verifiedPurchase")
    assert {row["id"]: row["verifiedPurchase"] for row in rows} == {
        mine: False,
        also: False,
        theirs: True,
    }
    assert registers(client, "condition[verifiedPurchase]=true&fields=id") == [{"id": theirs}]
    assert PurchaseOrder.objects.get(order_id="C-1").cancelled_at is not None
    # a repeated cancel, and the order's late paid, change nothing
    again = deliver(
        client, {"event": event, "orderId": "C-1", "customerId": buyer.pk, "productIds": [1]}
    )
    assert again.json()["data"]["duplicate"] is True
    late = deliver(client, order("C-1", customerId=buyer.pk, productIds=[product.pk]))
    assert late.json()["data"]["duplicate"] is True
    assert ProductReview.objects.get(pk=mine).verified_purchase is False
    # a later live order of the product marks the review again
    with django_capture_on_commit_callbacks(execute=True):
        deliver(client, order("C-4", customerId=buyer.pk, productIds=[product.pk]))
    assert ProductReview.objects.get(pk=mine).verified_purchase is True


def test_a_cancel_before_its_order_keeps_the_order_from_verifying():
    client = APIClient()
    product, buyer = ProductFactory(), CustomerFactory()
    cancel = {"event": "order.cancelled", "orderId": "D-1", "customerId": buyer.pk}
    response = deliver(client, {**cancel, "productIds": [product.pk]})
    assert response.json()["data"] == {"orderId": "D-1", "duplicate": False, "reviewsVerified": 0}
    paid = deliver(client, order("D-1", customerId=buyer.pk, productIds=[product.pk]))
    assert paid.json()["data"]["duplicate"] is True
    review = write_review(client, buyer, product)
    assert registers(client, "fields=id,verifiedPurchase") == [
        {"id": review["id"], "verifiedPurchase": False}
    ]
    assert list(PurchaseItem.objects.values_list("product_id", flat=True)) == [product.pk]


def test_bad_signature_old_timestamp_and_repeated_order_change_nothing():
    client = APIClient()
    product, buyer = ProductFactory(), CustomerFactory()
    ProductReviewFactory(product=product, customer=buyer)
    payload = order(customerId=buyer.pk, productIds=[product.pk])
    assert_error(deliver(client, payload, secret="wrong"), 401, "UNAUTHENTICATED")
    old = int(time.time()) - 301
    assert_error(deliver(client, payload, timestamp=old), 401, "UNAUTHENTICATED")
    unsigned = client.post(HOOK, json.dumps(payload), content_type="application/json")
    assert_error(unsigned, 401, "UNAUTHENTICATED")
    assert not PurchaseOrder.objects.exists()
    assert not ProductReview.objects.filter(verified_purchase=True).exists()

    assert deliver(client, payload).json()["data"]["duplicate"] is False
    other = ProductFactory()
    again = {**payload, "event": "order.delivered", "productIds": [other.pk]}
    response = deliver(client, again)
    assert response.status_code == 200
    assert response.json()["data"] == {"orderId": "A-1", "duplicate": True, "reviewsVerified": 0}
    assert PurchaseOrder.objects.count() == 1
    assert list(PurchaseItem.objects.values_list("product_id", flat=True)) == [product.pk]


@pytest.mark.parametrize(
    ("raw", "status", "code"),
    [
        (b"{not json", 422, "VALIDATION_ERROR"),
        (b"[]", 422, "VALIDATION_ERROR"),
        (
            json.dumps(
                {"event": "order.shipped", "orderId": "X", "email": "a@b.co", "productIds": [1]}
            ).encode(),
            422,
            "VALIDATION_ERROR",
        ),
        (
            json.dumps(
                {"event": "order.paid", "orderId": 5, "email": "a@b.co", "productIds": [1]}
            ).encode(),
            422,
            "VALIDATION_ERROR",
        ),
        (
            json.dumps({"event": "order.paid", "orderId": "X", "productIds": [1]}).encode(),
            422,
            "VALIDATION_ERROR",
        ),
        (
            json.dumps(
                {"event": "order.paid", "orderId": "X", "customerId": "7", "productIds": [1]}
            ).encode(),
            422,
            "VALIDATION_ERROR",
        ),
        (
            json.dumps(
                {"event": "order.paid", "orderId": "X", "customerId": 7, "productIds": []}
            ).encode(),
            422,
            "VALIDATION_ERROR",
        ),
        (
            json.dumps(
                {"event": "order.paid", "orderId": "X", "customerId": 7, "productIds": ["1"]}
            ).encode(),
            422,
            "VALIDATION_ERROR",
        ),
        (b'{"pad": "' + b"x" * 70_000 + b'"}', 413, "PAYLOAD_TOO_LARGE"),
    ],
)
def test_hostile_order_bodies_are_refused_with_the_envelope(raw, status, code):
    response = deliver(APIClient(), None, raw=raw)
    assert response.status_code == status, response.content
    body = response.json()
    assert body["status"] is False and body["data"]["code"] == status
    if code:
        assert body["data"]["errorCode"] == code
    assert not PurchaseOrder.objects.exists()


def test_webhook_without_a_configured_secret_is_off(settings):
    settings.ORDERS_WEBHOOK_SECRET = ""
    response = deliver(APIClient(), order(email="a@b.co", productIds=[1]), secret="x")
    assert_error(response, 404, "NOT_FOUND")
    assert not PurchaseOrder.objects.exists()


def test_list_answers_stay_the_contract_for_clients_not_asking():
    client = APIClient()
    review = ProductReviewFactory(verified_purchase=True, helpful_count=3, unhelpful_count=1)
    [row] = registers(client)
    assert set(row) == REVIEW_KEYS
    [row] = registers(client, "fields=id,helpfulCount,unhelpfulCount,verifiedPurchase")
    assert row == {
        "id": review.pk,
        "verifiedPurchase": True,
        "helpfulCount": 3,
        "unhelpfulCount": 1,
    }


def test_admin_form_has_no_editable_verified_field(client):
    staff = get_user_model().objects.create_superuser("boss", "boss@store.example", "x")
    client.force_login(staff)
    review = ProductReviewFactory(verified_purchase=False)
    url = reverse("admin:feedback_productreview_change", args=[review.pk])
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert "verified_purchase" not in form.fields
    assert "helpful_count" not in form.fields
    html = page.content.decode()
    assert 'name="verified_purchase"' not in html
    assert "field-verified_purchase" in html  # shown, read-only
    data = {
        "product": review.product_id,
        "customer": review.customer_id,
        "name": review.name,
        "email": review.email,
        "score": 4,
        "recommended": "on",
        "comment": "",
        "active": "on",
        "verified_purchase": "on",
        "helpful_count": 99,
        "medias-TOTAL_FORMS": 0,
        "medias-INITIAL_FORMS": 0,
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.content[:3000]
    review.refresh_from_db()
    assert review.score == 4
    assert review.verified_purchase is False
    assert review.helpful_count == 0


# --- Helpful votes ------------------------------------------------------------------------


def vote(client, review_id, helpful, *, token="tok-1", **headers):  # noqa: S107
    body = {"helpful": helpful}
    if token is not None:
        body["voterToken"] = token
    return client.post(f"{LIST}/{review_id}/votes", body, format="json", **headers)


def counts(response):
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    return data["helpfulCount"], data["unhelpfulCount"]


def test_votes_are_one_per_voter_changeable_and_idempotent(django_capture_on_commit_callbacks):
    client = APIClient()
    review = ProductReviewFactory()
    registers(client, "fields=id,helpfulCount,unhelpfulCount")  # cached before the votes
    assert counts(vote(client, review.pk, True)) == (1, 0)
    assert counts(vote(client, review.pk, True)) == (1, 0)  # the same vote: unchanged
    assert counts(vote(client, review.pk, False)) == (0, 1)  # moved
    assert counts(vote(client, review.pk, True, token="tok-2")) == (1, 1)  # another voter
    customer = CustomerFactory()
    assert counts(vote(client, review.pk, True, token=None, **bearer(customer))) == (2, 1)
    assert counts(vote(client, review.pk, True, token="x", **bearer(customer))) == (2, 1)
    # by header
    assert counts(vote(client, review.pk, True, token=None, HTTP_X_VOTER_TOKEN="tok-2")) == (
        2,
        1,
    )
    review.refresh_from_db()
    assert (review.helpful_count, review.unhelpful_count) == (2, 1)
    assert review.helpfulness == pytest.approx(wilson_lower_bound(2, 1))
    assert ReviewVote.objects.count() == 3
    # no address or token stored
    voters = list(ReviewVote.objects.values_list("voter", flat=True))
    assert all("tok" not in voter and "127.0.0.1" not in voter for voter in voters)
    with django_capture_on_commit_callbacks(execute=True):
        vote(client, review.pk, False, token="tok-3")
    [row] = registers(client, "fields=id,helpfulCount,unhelpfulCount")
    assert row == {"id": review.pk, "helpfulCount": 2, "unhelpfulCount": 2}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"helpful": "yes", "voterToken": "t"}, 422, "VALIDATION_ERROR"),
        ({"helpful": 1, "voterToken": "t"}, 422, "VALIDATION_ERROR"),
        ({"voterToken": "t"}, 422, "VALIDATION_ERROR"),
        ({"helpful": True}, 422, "VALIDATION_ERROR"),  # anonymous without a token
        ({"helpful": True, "voterToken": "t" * 201}, 422, "VALIDATION_ERROR"),
        ({"helpful": True, "voterToken": ["t"]}, 422, "VALIDATION_ERROR"),
        ([True], 422, "VALIDATION_ERROR"),
    ],
)
def test_hostile_vote_bodies(body, status, code):
    review = ProductReviewFactory()
    response = APIClient().post(f"{LIST}/{review.pk}/votes", body, format="json")
    assert_error(response, status, code)
    assert not ReviewVote.objects.exists()
    review.refresh_from_db()
    assert review.helpful_count == review.unhelpful_count == 0


def test_bad_json_and_unknown_or_pending_review():
    client = APIClient()
    review = ProductReviewFactory()
    response = client.post(f"{LIST}/{review.pk}/votes", b"{oops", content_type="application/json")
    assert_error(response, 422, "VALIDATION_ERROR")
    pending = ProductReviewFactory(active=False)
    for review_id in (pending.pk, 999_999, "abc", "0"):
        response = vote(client, review_id, True)
        assert_error(response, 404, "SERVICE_STORE_REVIEW_NOT_FOUND")
    assert not ReviewVote.objects.exists()


def test_votes_are_throttled_like_public_writes(monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"public_write": "2/min"})
    review = ProductReviewFactory()
    client = APIClient()
    assert vote(client, review.pk, True).status_code == 200
    assert vote(client, review.pk, False).status_code == 200
    response = vote(client, review.pk, True)
    assert_error(response, 429, "TOO_MANY_REQUESTS")
    review.refresh_from_db()
    assert (review.helpful_count, review.unhelpful_count) == (0, 1)
    assert client.get(LIST).status_code == 200  # reads are not throttled


def test_order_by_helpfulness_on_1000_reviews_equals_the_wilson_order():
    rng = random.Random(34)
    product = ProductFactory()
    customers = CustomerFactory.create_batch(1000)
    reviews = []
    for customer in customers:
        up, down = rng.choice(
            [(0, 0), (1, 0), (0, 1), (10, 1), (rng.randint(0, 60), rng.randint(0, 60))]
        )
        reviews.append(
            ProductReview(
                product=product,
                customer=customer,
                name=customer.name,
                email=customer.email,
                score=5,
                active=True,
                helpful_count=up,
                unhelpful_count=down,
                helpfulness=wilson_lower_bound(up, down),
            )
        )
    ProductReview.objects.bulk_create(reviews)
    stored = {r.pk: (r.helpful_count, r.unhelpful_count) for r in ProductReview.objects.all()}

    def independent(up: int, down: int) -> float:  # Wilson 1927, written out again
        n = up + down
        if not up:
            return 0.0
        z, phat = NormalDist().inv_cdf(0.975), up / n
        return (phat + z * z / (2 * n) - z * ((phat * (1 - phat) + z * z / (4 * n)) / n) ** 0.5) / (
            1 + z * z / n
        )

    expected = sorted(stored, key=lambda pk: (-independent(*stored[pk]), pk))
    client = APIClient()
    got = []
    for offset in range(0, 1000, 100):
        page = registers(client, f"order=-helpfulness&fields=id&limit=100&offset={offset}")
        got.extend(row["id"] for row in page)
    assert got == expected
    ten_one = [pk for pk in got if stored[pk] == (10, 1)]
    one_zero = [pk for pk in got if stored[pk] == (1, 0)]
    assert ten_one and one_zero and got.index(ten_one[-1]) < got.index(one_zero[0])


def test_openapi_documents_the_vote_and_the_order_webhook(tmp_path):
    import yaml
    from django.core.management import call_command

    path = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(path))
    schema = yaml.safe_load(path.read_text())
    vote_op = schema["paths"]["/review/product/{reviewId}/votes"]["post"]
    assert {"200", "404", "422", "429"} <= set(vote_op["responses"])
    hook = schema["paths"]["/webhooks/orders"]["post"]
    assert {"200", "401", "404", "413", "422"} <= set(hook["responses"])
    review = schema["components"]["schemas"]["ProductReview"]
    assert {"verifiedPurchase", "helpfulCount", "unhelpfulCount"} <= set(review["properties"])
    assert not {"verifiedPurchase", "helpfulCount"} & set(review["required"])
    list_op = schema["paths"]["/review/product"]["get"]
    order = next(p for p in list_op["parameters"] if p["name"] == "order")
    assert "-helpfulness" in order["schema"]["items"]["enum"]
