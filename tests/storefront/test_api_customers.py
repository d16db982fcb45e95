"""POST /publics/customers (register), POST /publics/customers/login, GET .../me."""

from datetime import datetime
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.urls import reverse
from rest_framework.throttling import SimpleRateThrottle

from storefront import services
from storefront.models import Customer
from tests.helpers import assert_error_envelope
from tests.storefront.factories import CUSTOMER_PASSWORD, CustomerFactory

pytestmark = pytest.mark.django_db

REGISTER = "/publics/customers"
LOGIN = "/publics/customers/login"
ME = "/publics/customers/me"
STRONG_PASSWORD = "violet-harbor-lantern-93"
CUSTOMER_KEYS = {"id", "name", "email", "active", "createdAt", "updatedAt"}


def register(api_client, *, ip="127.0.0.1", **overrides):
    body = {"name": "Joana Silva", "email": "joana@example.com", "password": STRONG_PASSWORD}
    body.update(overrides)
    return api_client.post(REGISTER, body, format="json", REMOTE_ADDR=ip)


def login(api_client, email, password=CUSTOMER_PASSWORD, **extra):
    return api_client.post(LOGIN, {"email": email, "password": password}, format="json", **extra)


def assert_iso_datetime_with_offset(value):
    assert isinstance(value, str)
    assert datetime.fromisoformat(value).tzinfo is not None


@pytest.fixture
def throttle_rates(monkeypatch):
    """Low throttle rates for one test (DRF reads the rates once, at import)."""

    def set_rates(**rates):
        merged = {"public_write": "1000/min", "login": "1000/min", "login_email": "1000/min"}
        merged.update(rates)
        monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", merged)

    return set_rates


# --- register -----------------------------------------------------------------------------


def test_register_creates_an_active_customer_and_answers_201_without_the_password(api_client):
    response = register(api_client)

    assert response.status_code == 201
    body = response.json()
    assert body["status"] is True
    data = body["data"]
    assert set(data) == CUSTOMER_KEYS
    assert isinstance(data["id"], int)
    assert data["name"] == "Joana Silva"
    assert data["email"] == "joana@example.com"
    assert data["active"] is True
    assert_iso_datetime_with_offset(data["createdAt"])
    assert_iso_datetime_with_offset(data["updatedAt"])
    assert STRONG_PASSWORD not in response.content.decode()
    customer = Customer.objects.get(pk=data["id"])
    assert customer.password != STRONG_PASSWORD
    assert check_password(STRONG_PASSWORD, customer.password)


def test_register_is_also_served_under_api_v3_and_with_a_trailing_slash(api_client):
    assert register(api_client, email="a@example.com").status_code == 201
    response = api_client.post(
        "/api/v3/publics/customers/",
        {"name": "Bea", "email": "b@example.com", "password": STRONG_PASSWORD},
        format="json",
    )
    assert response.status_code == 201


def test_register_trims_the_name_and_lowercases_the_email_domain(api_client):
    response = register(api_client, name="  Joana  ", email="  Joana@EXAMPLE.com ")

    assert response.status_code == 201
    assert response.json()["data"]["name"] == "Joana"
    assert response.json()["data"]["email"] == "Joana@example.com"


def test_register_with_an_email_already_registered_in_another_case_is_422_on_email(api_client):
    CustomerFactory(email="joana@example.com")

    response = register(api_client, email="JOANA@Example.COM")

    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert list(body["data"]["errors"]) == ["email"]
    assert "email" in body["data"]["message"]
    assert Customer.objects.count() == 1


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short1", "too short"),
        ("password123", "too common"),
        ("83920174652", "entirely numeric"),
        ("joana@example.com", "too similar"),
    ],
)
def test_register_refuses_a_password_the_validators_refuse(api_client, password, reason):
    response = register(api_client, password=password)

    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert "password" in body["data"]["errors"]
    assert reason in " ".join(body["data"]["errors"]["password"])
    assert not Customer.objects.exists()


def test_register_without_fields_names_each_missing_field(api_client):
    response = api_client.post(REGISTER, {}, format="json")

    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    errors = body["data"]["errors"]
    assert set(errors) == {"name", "email", "password"}
    assert errors["email"] == ["The email field is required."]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", 12345),
        ("name", ["Joana"]),
        ("name", None),
        ("name", "J"),
        ("name", "x" * 10_000),
        ("email", "not-an-email"),
        ("email", 42),
        ("email", "a" * 250 + "@example.com"),
        ("password", 12345678),
        ("password", {"x": 1}),
        ("password", "p" * 10_000),
    ],
)
def test_register_with_a_bad_value_is_422_naming_the_field(api_client, field, value):
    response = register(api_client, **{field: value})

    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert field in body["data"]["errors"]
    assert not Customer.objects.exists()


def test_register_ignores_unknown_fields_and_never_sets_active_or_id(api_client):
    response = register(api_client, active=False, id=999, password_hash="x", isStaff=True)

    assert response.status_code == 201
    data = response.json()["data"]
    assert data["active"] is True
    assert data["id"] != 999


@pytest.mark.parametrize("payload", [b"{not json", b"[]", b'"text"', b"null"])
def test_register_with_malformed_or_non_object_json_is_422(api_client, payload):
    response = api_client.post(REGISTER, data=payload, content_type="application/json")

    assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert not Customer.objects.exists()


def test_register_with_a_form_body_is_415(api_client):
    response = api_client.post(REGISTER, {"name": "Joana"})

    assert_error_envelope(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_register_with_get_is_405(api_client):
    assert_error_envelope(api_client.get(REGISTER), 405, "METHOD_NOT_ALLOWED")


def test_register_is_throttled_per_ip(api_client, throttle_rates):
    throttle_rates(public_write="2/min")
    for index in range(2):
        assert register(api_client, email=f"c{index}@example.com").status_code == 201

    response = register(api_client, email="c3@example.com")

    assert_error_envelope(response, 429, "TOO_MANY_REQUESTS")
    assert int(response["Retry-After"]) >= 1
    assert Customer.objects.count() == 2


def test_register_is_throttled_per_email_across_ips(api_client, throttle_rates):
    throttle_rates(login_email="2/min")
    for index in range(2):
        register(api_client, password="x", ip=f"10.0.0.{index}")

    response = register(api_client, ip="10.0.0.9")

    assert_error_envelope(response, 429, "TOO_MANY_REQUESTS")
    # Another address from the same IP is still welcome.
    assert register(api_client, email="other@example.com", ip="10.0.0.9").status_code == 201


# --- login --------------------------------------------------------------------------------


def test_login_answers_a_signed_token_with_its_expiry_and_the_customer(api_client, settings):
    settings.CUSTOMER_TOKEN_MAX_AGE = 3600
    customer = CustomerFactory(email="joana@example.com", name="Joana Silva")

    response = login(api_client, "joana@example.com")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] is True
    data = body["data"]
    assert set(data) == {"token", "tokenType", "expiresAt", "expiresIn", "customer"}
    assert isinstance(data["token"], str) and len(data["token"]) > 20
    assert data["tokenType"] == "Bearer"
    assert data["expiresIn"] == 3600
    assert_iso_datetime_with_offset(data["expiresAt"])
    assert set(data["customer"]) == CUSTOMER_KEYS
    assert data["customer"]["id"] == customer.pk
    assert CUSTOMER_PASSWORD not in response.content.decode()
    assert response["Cache-Control"] == "no-store"
    customer.refresh_from_db()
    assert customer.last_login is not None


def test_login_matches_the_email_case_insensitively(api_client):
    CustomerFactory(email="joana@example.com")

    assert login(api_client, "  JOANA@example.COM ").status_code == 200


def test_login_token_signs_the_customer_in(api_client):
    customer = CustomerFactory(email="joana@example.com")
    token = login(api_client, "joana@example.com").json()["data"]["token"]

    response = api_client.get(ME, HTTP_AUTHORIZATION=f"Bearer {token}")

    assert response.status_code == 200
    assert response.json() == {
        "status": True,
        "data": {
            "id": customer.pk,
            "name": customer.name,
            "email": customer.email,
            "active": True,
            "createdAt": response.json()["data"]["createdAt"],
            "updatedAt": response.json()["data"]["updatedAt"],
        },
    }


@pytest.mark.parametrize("case", ["wrong password", "unknown email", "inactive account"])
def test_wrong_credentials_answer_the_same_401_whatever_the_reason(api_client, case):
    CustomerFactory(email="joana@example.com", active=case != "inactive account")
    email = "nobody@example.com" if case == "unknown email" else "joana@example.com"
    password = "not the password" if case == "wrong password" else CUSTOMER_PASSWORD

    response = login(api_client, email, password)

    body = assert_error_envelope(response, 401, "UNAUTHENTICATED")
    assert body["data"]["message"] == "The email or password is incorrect."
    assert "token" not in response.content.decode()


def test_login_with_an_unknown_email_still_runs_the_password_hasher(api_client):
    CustomerFactory(email="joana@example.com")

    with mock.patch.object(
        services, "check_password", wraps=services.check_password
    ) as hasher_check:
        login(api_client, "nobody@example.com", "whatever")
        unknown_calls = hasher_check.call_count
        login(api_client, "joana@example.com", "whatever")
        known_calls = hasher_check.call_count - unknown_calls

    assert unknown_calls == known_calls == 1


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"email": "a@example.com"},
        {"password": "x"},
        {"email": 5, "password": "x"},
        {"email": "a@example.com", "password": None},
        {"email": "x" * 10_000, "password": "x"},
    ],
)
def test_login_with_missing_or_bad_fields_is_422(api_client, body):
    response = api_client.post(LOGIN, body, format="json")

    assert_error_envelope(response, 422, "VALIDATION_ERROR")


def test_login_is_throttled_per_ip(api_client, throttle_rates):
    throttle_rates(login="3/min")
    for index in range(3):
        login(api_client, f"user{index}@example.com", "nope")

    response = login(api_client, "user9@example.com", "nope")

    assert_error_envelope(response, 429, "TOO_MANY_REQUESTS")
    assert "Retry-After" in response


def test_login_is_throttled_per_email_across_ips_and_case(api_client, throttle_rates):
    throttle_rates(login_email="2/min")
    CustomerFactory(email="joana@example.com")
    login(api_client, "joana@example.com", "guess-1", REMOTE_ADDR="10.0.0.1")
    login(api_client, "JOANA@example.com", "guess-2", REMOTE_ADDR="10.0.0.2")

    response = login(api_client, "joana@example.com", REMOTE_ADDR="10.0.0.3")

    assert_error_envelope(response, 429, "TOO_MANY_REQUESTS")


# --- me (an endpoint that requires sign-in) ---------------------------------------------------


def test_me_without_a_token_is_401_with_a_bearer_challenge(api_client):
    response = api_client.get(ME)

    body = assert_error_envelope(response, 401, "UNAUTHENTICATED")
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert "Sign in" in body["data"]["message"]


def test_me_with_a_forged_token_is_401_saying_the_token_is_invalid(api_client):
    response = api_client.get(ME, HTTP_AUTHORIZATION="Bearer forged.token.value")

    body = assert_error_envelope(response, 401, "UNAUTHENTICATED")
    assert "invalid or has expired" in body["data"]["message"]
    assert response["WWW-Authenticate"].startswith("Bearer")


# --- back office (kept here: tests/storefront/test_admin_store.py belongs to another area) ---


def test_customer_admin_pages_open_and_never_show_the_password(client):
    client.force_login(get_user_model().objects.create_superuser("boss", "b@store.example", "x"))
    customer = CustomerFactory(name="Joana Silva")

    for url in (
        reverse("admin:storefront_customer_changelist") + "?q=Joana&active__exact=1",
        reverse("admin:storefront_customer_add"),
        reverse("admin:storefront_customer_change", args=[customer.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert customer.password.encode() not in response.content


def test_customer_admin_deactivate_action_stops_sign_in(client, api_client):
    client.force_login(get_user_model().objects.create_superuser("boss", "b@store.example", "x"))
    customer = CustomerFactory(email="joana@example.com")

    client.post(
        reverse("admin:storefront_customer_changelist"),
        {"action": "deactivate", "_selected_action": [customer.pk]},
    )

    customer.refresh_from_db()
    assert customer.active is False
    assert_error_envelope(login(api_client, "joana@example.com"), 401, "UNAUTHENTICATED")
