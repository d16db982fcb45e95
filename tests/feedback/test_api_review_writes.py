"""POST /review/product and POST /review/sales-channel: signed-in customers write reviews
(feedback/api/views.py)."""

import base64
import io
import struct
import threading
import zlib

import pytest
from django.conf import settings as django_settings
from django.db import connection
from PIL import Image
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from feedback.models import ProductReview, ReviewMedia, SalesChannelReview
from feedback.selectors import FEEDBACK_CACHE
from infra.caching.versions import namespace_versions
from storefront.models import SalesChannel
from storefront.tokens import token_issue
from tests.catalog.factories import ProductFactory
from tests.feedback.factories import ProductReviewFactory, SalesChannelReviewFactory
from tests.helpers import PRODUCT_SUMMARY_KEYS, assert_error, assert_error_envelope
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db

PRODUCT_URL = "/review/product"
STORE_URL = "/review/sales-channel"
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


def bearer(customer) -> dict:
    token = token_issue(customer_id=customer.pk, password_hash=customer.password).token
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def image_b64(width=40, height=30, fmt="PNG", mode="RGB") -> str:
    buffer = io.BytesIO()
    Image.new(mode, (width, height), "blue").save(buffer, format=fmt)
    return base64.b64encode(buffer.getvalue()).decode()


def png_claiming(width: int, height: int) -> str:
    """A tiny PNG whose header claims width x height pixels (a decompression bomb)."""
    buffer = io.BytesIO()
    Image.new("RGB", (1, 1)).save(buffer, format="PNG")
    data = bytearray(buffer.getvalue())
    struct.pack_into(">II", data, 16, width, height)
    struct.pack_into(">I", data, 29, zlib.crc32(bytes(data[12:29])))
    return base64.b64encode(bytes(data)).decode()


@pytest.fixture
def customer():
    return CustomerFactory(name="Joana Silva", email="joana.silva@example.com")


@pytest.fixture
def product():
    return ProductFactory()


@pytest.fixture
def body(product):
    return {
        "productId": product.pk,
        "score": 4,
        "comment": "  Ótimo produto, chegou antes do prazo.  ",
        "recommended": True,
        "masked": False,
    }


def post(client, url, body, customer=None, **extra):
    headers = bearer(customer) if customer is not None else {}
    return client.post(url, body, format="json", **headers, **extra)


def test_a_product_review_is_created_and_held_for_moderation(
    api_client, customer, product, body, media_root
):
    body["images"] = [image_b64(), "data:image/jpeg;base64," + image_b64(fmt="JPEG")]
    response = post(api_client, PRODUCT_URL, body, customer)

    assert response.status_code == 201, response.content
    envelope = response.json()
    assert envelope["status"] is True
    data = envelope["data"]
    assert set(data) == REVIEW_KEYS
    review = ProductReview.objects.get()
    assert data["id"] == review.pk
    assert data["productId"] == product.pk
    assert data["customerId"] == customer.pk
    assert data["name"] == "Joana Silva"
    assert data["email"] == "j***@example.com"
    assert data["score"] == 4
    assert data["comment"] == "Ótimo produto, chegou antes do prazo."
    assert data["recommended"] is True and data["masked"] is False
    assert data["active"] is False
    assert tuple(data["product"]) == ("productId", *PRODUCT_SUMMARY_KEYS[1:])
    assert data["product"]["productId"] == product.pk
    assert [m["reviewId"] for m in data["medias"]] == [review.pk, review.pk]
    assert all(m["image"].startswith("http://testserver/") for m in data["medias"])
    assert review.active is False
    assert review.email == "joana.silva@example.com"
    assert ReviewMedia.objects.filter(review=review).count() == 2
    # pending: not in the public list
    listed = api_client.get(PRODUCT_URL).json()["data"]["registers"]
    assert listed == []


def test_a_masked_review_hides_name_and_customer_id(api_client, customer, body):
    body["masked"] = True
    data = post(api_client, PRODUCT_URL, body, customer).json()["data"]
    assert data["name"] == "J*** S***"
    assert data["customerId"] == 0


def test_photos_are_scaled_down_and_re_encoded(api_client, customer, body, media_root):
    body["images"] = [image_b64(3200, 1000)]
    assert post(api_client, PRODUCT_URL, body, customer).status_code == 201
    media = ReviewMedia.objects.get()
    with Image.open(media.image.path) as stored:
        assert stored.size == (1600, 500)
        assert stored.format == "JPEG"


def test_customer_written_reviews_show_as_pending_in_the_admin_queue(
    api_client, client, customer, body, django_user_model
):
    assert post(api_client, PRODUCT_URL, body, customer).status_code == 201
    staff = django_user_model.objects.create_superuser("boss", "boss@store.example", "x")
    client.force_login(staff)
    page = client.get("/admin/feedback/productreview/?active__exact=0")
    assert page.status_code == 200
    assert ProductReview.objects.get().comment[:40] in page.content.decode()


def test_a_second_review_updates_the_first_and_sends_it_back_to_moderation(
    api_client, customer, product, body, media_root, django_capture_on_commit_callbacks
):
    body["images"] = [image_b64()]
    first = post(api_client, PRODUCT_URL, body, customer).json()["data"]
    ProductReview.objects.update(active=True)  # staff approved it
    old_file = ReviewMedia.objects.get().image.name

    with django_capture_on_commit_callbacks(execute=True):
        second = post(
            api_client,
            PRODUCT_URL,
            {**body, "score": 2, "comment": "Quebrou.", "images": []},
            customer,
        )

    assert second.status_code == 200
    data = second.json()["data"]
    assert data["id"] == first["id"]
    assert data["score"] == 2 and data["comment"] == "Quebrou."
    assert data["active"] is False
    assert data["medias"] == []
    review = ProductReview.objects.get()
    assert (review.score, review.active) == (2, False)
    assert ReviewMedia.objects.count() == 0
    assert not (media_root / old_file).exists()
    assert api_client.get(PRODUCT_URL).json()["data"]["registers"] == []


def test_other_customers_review_the_same_product_separately(api_client, customer, body):
    assert post(api_client, PRODUCT_URL, body, customer).status_code == 201
    assert post(api_client, PRODUCT_URL, body, CustomerFactory()).status_code == 201
    assert ProductReview.objects.count() == 2


def test_without_moderation_the_review_is_public_at_once(
    api_client, settings, customer, body, django_capture_on_commit_callbacks
):
    settings.REVIEWS_REQUIRE_MODERATION = False
    assert api_client.get(PRODUCT_URL).json()["data"]["registers"] == []  # cached now

    with django_capture_on_commit_callbacks(execute=True):
        response = post(api_client, PRODUCT_URL, body, customer)

    assert response.json()["data"]["active"] is True
    listed = api_client.get(PRODUCT_URL).json()["data"]["registers"]
    assert [r["id"] for r in listed] == [response.json()["data"]["id"]]


def test_a_held_review_leaves_the_public_cache_alone(
    api_client, customer, body, django_capture_on_commit_callbacks
):
    before = namespace_versions((FEEDBACK_CACHE,))
    with django_capture_on_commit_callbacks(execute=True):
        assert post(api_client, PRODUCT_URL, body, customer).status_code == 201
    assert namespace_versions((FEEDBACK_CACHE,)) == before


def test_rewriting_a_public_review_bumps_the_cache(
    api_client, customer, product, body, django_capture_on_commit_callbacks
):
    ProductReviewFactory(product=product, customer=customer, active=True)
    assert len(api_client.get(PRODUCT_URL).json()["data"]["registers"]) == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert post(api_client, PRODUCT_URL, body, customer).status_code == 200
    assert api_client.get(PRODUCT_URL).json()["data"]["registers"] == []


@pytest.mark.parametrize("headers", [{}, {"HTTP_AUTHORIZATION": "Bearer not-a-token"}])
@pytest.mark.parametrize("url", [PRODUCT_URL, STORE_URL])
def test_writing_a_review_needs_a_signed_in_customer(api_client, body, headers, url):
    response = api_client.post(url, body, format="json", **headers)
    assert_error_envelope(response, 401, "UNAUTHENTICATED")
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert ProductReview.objects.count() == SalesChannelReview.objects.count() == 0


def test_the_lists_stay_public(api_client):
    assert api_client.get(PRODUCT_URL).status_code == 200
    assert api_client.get(STORE_URL).status_code == 200


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("score", 0),
        ("score", 6),
        ("score", "5"),
        ("score", None),
        ("score", 4.5),
        ("score", True),
        ("productId", "abc"),
        ("productId", None),
        ("productId", 0),
        ("productId", 10**30),
        ("comment", "x" * 2001),
        ("comment", 12),
        ("comment", "bad\x07bell"),
        ("recommended", "yes"),
        ("recommended", 1),
        ("masked", None),
        ("images", "not a list"),
        ("images", [12]),
        ("images", ["@@@ not base64 @@@"]),
    ],
)
def test_hostile_fields_are_refused_and_nothing_is_written(
    api_client, customer, body, field, value, media_root
):
    body[field] = value
    response = post(api_client, PRODUCT_URL, body, customer)
    data = assert_error(response, 422, "VALIDATION_ERROR")
    assert field in data["message"] or field in str(data.get("errors"))
    assert ProductReview.objects.count() == 0
    assert not media_root.exists() or not any(media_root.rglob("*.*"))


@pytest.mark.parametrize("missing", ["productId", "score"])
def test_required_fields(api_client, customer, body, missing):
    del body[missing]
    assert_error(post(api_client, PRODUCT_URL, body, customer), 422, "VALIDATION_ERROR")


def test_a_body_that_is_not_an_object_is_refused(api_client, customer):
    response = post(api_client, PRODUCT_URL, [1, 2], customer)
    assert response.status_code == 422
    assert ProductReview.objects.count() == 0


def test_four_images_are_refused(api_client, customer, body, media_root):
    body["images"] = [image_b64()] * 4
    data = assert_error(post(api_client, PRODUCT_URL, body, customer), 422, "VALIDATION_ERROR")
    assert "images" in data["message"]
    assert ProductReview.objects.count() == 0


@pytest.mark.parametrize(
    "payload",
    [
        base64.b64encode(b"%PDF-1.4 definitely not an image").decode(),
        png_claiming(100_000, 100_000),  # Pillow's own bomb guard
        png_claiming(9000, 9000),  # above REVIEW_IMAGE_MAX_PIXELS
    ],
    ids=["pdf", "huge-bomb", "too-many-pixels"],
)
def test_non_images_and_dimension_bombs_are_refused(
    api_client, customer, body, payload, media_root
):
    body["images"] = [image_b64(), payload]
    data = assert_error(post(api_client, PRODUCT_URL, body, customer), 422, "VALIDATION_ERROR")
    assert "images" in data["message"] and "Image 2" in data["message"]
    assert ProductReview.objects.count() == 0
    assert ReviewMedia.objects.count() == 0
    assert not media_root.exists() or not any(media_root.rglob("*.*"))


def test_an_image_over_the_byte_cap_is_refused(api_client, settings, customer, body):
    settings.REVIEW_IMAGE_MAX_BYTES = 200
    body["images"] = [image_b64(300, 300, fmt="BMP")]
    data = assert_error(post(api_client, PRODUCT_URL, body, customer), 422, "VALIDATION_ERROR")
    assert "larger than 200 bytes" in data["message"]
    assert ProductReview.objects.count() == 0


def test_a_body_over_the_upload_cap_is_413(api_client, settings, customer, body):
    settings.API_UPLOAD_MAX_BODY_BYTES = 5000
    body["comment"] = "y" * 1900
    body["images"] = [image_b64(200, 200, fmt="BMP")]
    assert_error_envelope(post(api_client, PRODUCT_URL, body, customer), 413, "PAYLOAD_TOO_LARGE")


def test_photos_larger_than_the_api_body_cap_fit_under_the_upload_cap(
    api_client, settings, customer, body, media_root
):
    # Django's own cap on a body read in memory is the API's, as in config/settings.py
    settings.API_MAX_BODY_BYTES = settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body["images"] = [image_b64(300, 300, fmt="BMP")]  # about 360 kB of base64
    assert post(api_client, PRODUCT_URL, body, customer).status_code == 201


@pytest.mark.parametrize("active", [True, False])
def test_an_unknown_or_inactive_product_is_404(api_client, customer, body, active):
    if active:
        body["productId"] = 987654
    else:
        body["productId"] = ProductFactory(active=False).pk
    response = post(api_client, PRODUCT_URL, body, customer)
    assert_error_envelope(response, 404, "SERVICE_STORE_PRODUCT_NOT_FOUND")
    assert ProductReview.objects.count() == 0


def test_a_replayed_idempotency_key_answers_the_first_review(api_client, customer, body):
    first = post(api_client, PRODUCT_URL, body, customer, HTTP_IDEMPOTENCY_KEY="k-1")
    ProductReview.objects.update(active=True)
    replay = post(api_client, PRODUCT_URL, body, customer, HTTP_IDEMPOTENCY_KEY="k-1")

    assert first.status_code == replay.status_code == 201
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.content == first.content
    assert ProductReview.objects.get().active is True  # not written again
    other = post(
        api_client, PRODUCT_URL, {**body, "score": 1}, customer, HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert_error(other, 422, "VALIDATION_ERROR")


def test_review_writes_are_throttled_per_ip(api_client, customer, body, monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"public_write": "2/min"})
    for _ in range(2):
        assert post(api_client, PRODUCT_URL, body, customer).status_code in (200, 201)
    response = post(api_client, PRODUCT_URL, body, customer)
    assert_error_envelope(response, 429, "TOO_MANY_REQUESTS")
    assert int(response["Retry-After"]) >= 1
    assert api_client.get(PRODUCT_URL).status_code == 200  # reads are not throttled


# --- store reviews -----------------------------------------------------------------------


def test_a_store_review_is_created_then_updated(api_client, customer):
    first = post(api_client, STORE_URL, {"score": 5, "comment": "Entrega rápida."}, customer)

    assert first.status_code == 201
    data = first.json()["data"]
    assert set(data) == {
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
    review = SalesChannelReview.objects.get()
    assert data["salesChannelId"] == review.sales_channel_id
    assert data["salesChannelDomain"] == review.sales_channel.domain
    assert (data["score"], data["active"], data["recommended"]) == (5, False, True)
    assert data["email"] == "j***@example.com"
    SalesChannelReview.objects.update(active=True)

    second = post(api_client, STORE_URL, {"score": 3, "recommended": False}, customer)

    assert second.status_code == 200
    assert second.json()["data"]["id"] == review.pk
    review.refresh_from_db()
    assert (review.score, review.recommended, review.active, review.comment) == (
        3,
        False,
        False,
        "",
    )


@pytest.mark.parametrize(
    "bad", [{"score": 0}, {"score": "5"}, {"score": None}, {"score": 3, "comment": ["x"]}, {}]
)
def test_hostile_store_reviews_are_refused(api_client, customer, bad):
    assert_error(post(api_client, STORE_URL, bad, customer), 422, "VALIDATION_ERROR")
    assert SalesChannelReview.objects.count() == 0


def test_existing_store_reviews_of_other_customers_stay(api_client, customer):
    SalesChannelReviewFactory()
    assert post(api_client, STORE_URL, {"score": 4}, customer).status_code == 201
    assert SalesChannelReview.objects.count() == 2


# --- concurrency (PostgreSQL) ----------------------------------------------------------

needs_postgresql = pytest.mark.skipif(
    not django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="needs PostgreSQL (DATABASE_URL): concurrent connections with row locks",
)


@needs_postgresql
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("url", [PRODUCT_URL, STORE_URL])
def test_two_first_reviews_at_once_leave_one_review(url):
    customer = CustomerFactory()
    product = ProductFactory()
    # a transactional test may start from a flushed database: make sure a channel serves
    SalesChannel.objects.get_or_create(
        is_default=True, defaults={"name": "Store", "domain": "store.example"}
    )
    barrier = threading.Barrier(4)
    answers = []

    def one(score):
        try:
            barrier.wait(5)
            body = {"productId": product.pk, "score": score}
            answers.append(post(APIClient(), url, body, customer))
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(score,)) for score in (1, 2, 3, 4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(a.status_code for a in answers) == [200, 200, 200, 201]
    model = ProductReview if url == PRODUCT_URL else SalesChannelReview
    assert model.objects.count() == 1


def test_the_product_review_summary_follows_customer_writes(
    api_client, settings, customer, product, body
):
    from catalog.models import ProductReviewSummary

    ProductReviewFactory(product=product, customer=customer, active=True, score=2)
    ProductReviewFactory(product=product, active=True, score=5)
    summary = ProductReviewSummary.objects.get(product=product)
    assert (summary.score_2, summary.score_5) == (1, 1)
    # a rewrite goes back to moderation: only the other approved review counts
    assert post(api_client, PRODUCT_URL, body, customer).status_code == 200
    summary.refresh_from_db()
    assert (summary.score_2, summary.score_4, summary.score_5) == (0, 0, 1)
    # without moderation the new score counts at once
    settings.REVIEWS_REQUIRE_MODERATION = False
    assert post(api_client, PRODUCT_URL, body, customer).status_code == 200
    summary.refresh_from_db()
    assert (summary.score_4, summary.score_5) == (1, 1)
