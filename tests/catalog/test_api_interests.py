"""POST /publics/products/interests (contract 4.6, 2.8)."""

from datetime import datetime

import pytest
from rest_framework.throttling import SimpleRateThrottle

from catalog.models import ProductInterest
from tests.helpers import assert_error

from .factories import ProductFactory, ProductInterestFactory, VariationFactory

pytestmark = pytest.mark.django_db

URL = "/publics/products/interests"
INTEREST_KEYS = [
    "id",
    "productId",
    "origin",
    "name",
    "email",
    "phone",
    "message",
    "repliedAt",
    "createdAt",
    "updatedAt",
    "simpleProduct",
]


def body(product_id: int, **overrides) -> dict:
    return {
        "productId": product_id,
        "origin": "notify-me",
        "name": "Maria Silva",
        "email": "maria@example.com",
        "phone": "+55 (11) 99999-0000",
        "message": "Please let me know.",
        **overrides,
    }


def post(api_client, data, **extra):
    return api_client.post(URL, data, format="json", **extra)


def post_to(api_client, url, data):
    return api_client.post(url, data, format="json")


def test_registering_an_interest_answers_201_with_the_interest_and_its_product(api_client):
    product = ProductFactory()

    response = post(api_client, body(product.pk))

    assert response.status_code == 201
    data = response.json()
    assert list(data) == INTEREST_KEYS
    interest = ProductInterest.objects.get()
    assert data["id"] == interest.pk
    assert data["productId"] == product.pk
    assert data["origin"] == "notify-me"
    assert data["name"] == "Maria Silva"
    assert data["email"] == "maria@example.com"
    assert data["phone"] == "+55 (11) 99999-0000"
    assert data["message"] == "Please let me know."
    assert data["repliedAt"] is None
    assert datetime.fromisoformat(data["createdAt"]).tzinfo is not None
    assert datetime.fromisoformat(data["updatedAt"]).tzinfo is not None
    assert data["simpleProduct"]["id"] == product.pk
    assert data["simpleProduct"]["sku"] == product.sku
    assert interest.status == "pending"


def test_phone_and_message_are_optional(api_client):
    product = ProductFactory()
    data = body(product.pk, origin="on-request")
    del data["phone"], data["message"]

    response = post(api_client, data)

    assert response.status_code == 201
    assert response.json()["phone"] == "" and response.json()["message"] == ""


def test_interest_is_accepted_under_api_v3_and_with_a_trailing_slash(api_client):
    product = ProductFactory()

    versioned = post_to(api_client, "/api/v3" + URL, body(product.pk))
    slashed = post_to(api_client, URL + "/", body(product.pk, origin="on-request"))

    assert versioned.status_code == 201
    assert slashed.status_code == 201


def test_same_email_product_and_origin_while_pending_returns_the_existing_record(api_client):
    product = ProductFactory()
    first = post(api_client, body(product.pk)).json()

    again = post(api_client, body(product.pk, email="MARIA@Example.com", name="Other"))

    assert again.status_code == 200
    assert again.json()["id"] == first["id"]
    assert again.json()["createdAt"] == first["createdAt"]
    assert ProductInterest.objects.count() == 1


def test_a_repeated_registration_never_shows_what_an_earlier_caller_wrote(api_client):
    product = ProductFactory()
    post(api_client, body(product.pk, phone="+55 11 99999-0000", message="Call me at home"))

    again = post(api_client, body(product.pk, name="Someone Else", phone="", message="Hi"))

    assert again.status_code == 200
    assert (again.json()["name"], again.json()["phone"], again.json()["message"]) == (
        "Someone Else",
        "",
        "Hi",
    )
    stored = ProductInterest.objects.get()
    assert (stored.name, stored.phone, stored.message) == ("Someone Else", "", "Hi")


def test_other_origin_creates_a_second_interest(api_client):
    product = ProductFactory()
    post(api_client, body(product.pk))

    response = post(api_client, body(product.pk, origin="on-request"))

    assert response.status_code == 201
    assert ProductInterest.objects.count() == 2


def test_a_notified_interest_does_not_block_a_new_registration(api_client):
    product = ProductFactory()
    ProductInterestFactory(product=product, email="maria@example.com", status="notified")

    response = post(api_client, body(product.pk))

    assert response.status_code == 201
    assert ProductInterest.objects.count() == 2


@pytest.mark.parametrize("state", ["unknown", "inactive", "inactive-parent"])
def test_unknown_or_inactive_product_is_not_found(api_client, state):
    if state == "unknown":
        product_id = 987654
    elif state == "inactive":
        product_id = ProductFactory(active=False).pk
    else:
        product_id = VariationFactory(parent=ProductFactory(active=False)).pk

    response = post(api_client, body(product_id))

    data = assert_error(response, 404, "SERVICE_STORE_PRODUCT_NOT_FOUND")
    assert str(product_id) in data["message"]
    assert ProductInterest.objects.count() == 0


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("productId", None),
        ("productId", "abc"),
        ("productId", 1.5),
        ("productId", True),
        ("productId", -3),
        ("productId", 0),
        ("productId", 99999999999999999999),
        ("productId", [1]),
        ("origin", "call-me"),
        ("origin", 1),
        ("origin", None),
        ("name", ""),
        ("name", "x" * 51),
        ("name", 12),
        ("name", "bad\x00name"),
        ("email", "not-an-email"),
        ("email", "a" * 40 + "@example.com"),
        ("email", ["maria@example.com"]),
        ("phone", "x" * 31),
        ("phone", "call me maybe"),
        ("phone", 11999990000),
        ("message", "x" * 301),
        ("message", "y" * 10_000),
        ("message", {"text": "hi"}),
    ],
)
def test_invalid_field_is_a_validation_error_naming_it(api_client, field, value):
    product = ProductFactory()

    response = post(api_client, body(product.pk, **{field: value}))

    data = assert_error(response, 422, "VALIDATION_ERROR")
    assert list(data["errors"]) == [field]
    assert field in data["errors"][field][0]
    assert ProductInterest.objects.count() == 0


@pytest.mark.parametrize("field", ["productId", "origin", "name", "email"])
def test_missing_required_field_is_a_validation_error(api_client, field):
    data = body(ProductFactory().pk)
    del data[field]

    response = post(api_client, data)

    errors = assert_error(response, 422, "VALIDATION_ERROR")["errors"]
    assert list(errors) == [field]
    assert errors[field][0].startswith(f"The {field} field is required")


def test_name_and_message_at_their_limits_are_accepted(api_client):
    product = ProductFactory()

    response = post(api_client, body(product.pk, name="n" * 50, message="m" * 300))

    assert response.status_code == 201


def test_unknown_fields_are_refused(api_client):
    response = post(api_client, body(ProductFactory().pk, status="replied"))

    errors = assert_error(response, 422, "VALIDATION_ERROR")["errors"]
    assert list(errors) == ["status"]


@pytest.mark.parametrize("raw", ["{not json", "[]", '"text"', "null", "12"])
def test_malformed_or_non_object_body_is_a_validation_error(api_client, raw):
    response = api_client.post(URL, raw, content_type="application/json")

    assert_error(response, 422, "VALIDATION_ERROR")
    assert ProductInterest.objects.count() == 0


def test_form_encoded_body_is_unsupported(api_client):
    response = api_client.post(URL, {"productId": 1})

    assert_error(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_get_is_method_not_allowed(api_client):
    assert_error(api_client.get(URL), 405, "METHOD_NOT_ALLOWED")


def test_registration_is_throttled_per_client_ip(api_client, monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"public_write": "2/min"})
    product = ProductFactory()
    for index in range(2):
        post(api_client, body(product.pk, email=f"c{index}@example.com"))

    response = post(api_client, body(product.pk, email="c3@example.com"))

    assert_error(response, 429, "TOO_MANY_REQUESTS")
    assert int(response["Retry-After"]) >= 1
    assert ProductInterest.objects.count() == 2
    # another client is still welcome
    other = post(api_client, body(product.pk, email="c4@example.com"), REMOTE_ADDR="10.1.1.1")
    assert other.status_code == 201
