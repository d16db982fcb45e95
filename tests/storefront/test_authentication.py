"""Signed customer tokens and the API authentication class."""

from datetime import timedelta

import pytest
import time_machine
from django.core import signing
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from storefront.api.authentication import CustomerTokenAuthentication, request_token
from storefront.tokens import (
    MAX_TOKEN_LENGTH,
    TOKEN_SALT,
    TokenPayload,
    password_version,
    token_issue,
    token_read,
)
from tests.helpers import assert_error_envelope
from tests.storefront.factories import CustomerFactory

ME = "/publics/customers/me"


def token_for(customer) -> str:
    return token_issue(customer_id=customer.pk, password_hash=customer.password).token


def drf_request(**headers) -> Request:
    return Request(APIRequestFactory().get("/anything", **headers))


# --- tokens (no database) -------------------------------------------------------------------


def test_a_token_reads_back_to_its_customer_and_password_version():
    issued = token_issue(customer_id=7, password_hash="pbkdf2$hash")

    assert token_read(issued.token) == TokenPayload(
        customer_id=7, password_version=password_version("pbkdf2$hash")
    )


def test_a_token_expires_after_the_configured_max_age(settings):
    settings.CUSTOMER_TOKEN_MAX_AGE = 60
    with time_machine.travel("2026-03-01 12:00:00+00:00", tick=False):
        issued = token_issue(customer_id=7, password_hash="h")
        assert issued.expires_at == timezone.now() + timedelta(seconds=60)
    with time_machine.travel("2026-03-01 12:00:59+00:00", tick=False):
        assert token_read(issued.token) is not None
    with time_machine.travel("2026-03-01 12:01:02+00:00", tick=False):
        assert token_read(issued.token) is None


@pytest.mark.parametrize(
    "token",
    [
        "",
        "garbage",
        "a:b:c",
        "x" * (MAX_TOKEN_LENGTH + 1),
        signing.dumps({"cid": 7, "pwv": "v"}, salt="another-purpose"),
        signing.dumps([7, "v"], salt=TOKEN_SALT),
        signing.dumps({"cid": True, "pwv": "v"}, salt=TOKEN_SALT),
        signing.dumps({"cid": -3, "pwv": "v"}, salt=TOKEN_SALT),
        signing.dumps({"cid": "7", "pwv": "v"}, salt=TOKEN_SALT),
        signing.dumps({"cid": 7}, salt=TOKEN_SALT),
        "ünïcödé:tøken:✓",
    ],
)
def test_anything_but_a_genuine_token_reads_as_none(token):
    assert token_read(token) is None


def test_a_tampered_token_reads_as_none():
    token = token_issue(customer_id=7, password_hash="h").token
    head, _, signature = token.rpartition(":")
    tampered = f"{head}:{'A' if signature[0] != 'A' else 'B'}{signature[1:]}"

    assert token_read(tampered) is None


# --- where the token is read from -----------------------------------------------------------


def test_the_bearer_header_wins_over_the_service_header_and_cookie():
    factory = APIRequestFactory()
    factory.cookies["service-cookie-name"] = "from-cookie"
    request = Request(
        factory.get(
            "/x", HTTP_AUTHORIZATION="bearer from-bearer", HTTP_SERVICE_COOKIE_NAME="from-header"
        )
    )

    assert request_token(request) == "from-bearer"


def test_the_service_header_is_read_when_there_is_no_bearer_token():
    request = drf_request(HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz", HTTP_SERVICE_COOKIE_NAME="tok")

    assert request_token(request) == "tok"


def test_the_service_cookie_is_read_last():
    factory = APIRequestFactory()
    factory.cookies["service-cookie-name"] = "from-cookie"

    assert request_token(Request(factory.get("/x"))) == "from-cookie"


def test_no_token_anywhere_is_none():
    assert request_token(drf_request(HTTP_AUTHORIZATION="Bearer   ")) is None


# --- the authentication class ---------------------------------------------------------------


@pytest.mark.django_db
def test_a_valid_token_authenticates_the_customer_with_its_payload(django_assert_num_queries):
    customer = CustomerFactory()
    request = drf_request(HTTP_AUTHORIZATION=f"Bearer {token_for(customer)}")

    with django_assert_num_queries(1):
        user, auth = CustomerTokenAuthentication().authenticate(request)

    assert user == customer
    assert user.is_authenticated is True and user.is_anonymous is False
    assert auth.customer_id == customer.pk


@pytest.mark.django_db
def test_an_invalid_token_leaves_the_request_anonymous_without_touching_the_database(
    django_assert_num_queries,
):
    request = drf_request(HTTP_SERVICE_COOKIE_NAME="some-opaque-session-value")

    with django_assert_num_queries(0):
        assert CustomerTokenAuthentication().authenticate(request) is None


@pytest.mark.django_db
@pytest.mark.parametrize("where", ["bearer", "header", "cookie"])
def test_the_token_signs_in_from_each_accepted_place(api_client, where):
    customer = CustomerFactory()
    token = token_for(customer)
    if where == "bearer":
        response = api_client.get(ME, HTTP_AUTHORIZATION=f"Bearer {token}")
    elif where == "header":
        response = api_client.get(ME, HTTP_SERVICE_COOKIE_NAME=token)
    else:
        api_client.cookies["service-cookie-name"] = token
        response = api_client.get(ME)

    assert response.status_code == 200
    assert response.json()["data"]["id"] == customer.pk


@pytest.mark.django_db
def test_an_expired_token_is_401_where_sign_in_is_required(api_client, settings):
    settings.CUSTOMER_TOKEN_MAX_AGE = 60
    customer = CustomerFactory()
    with time_machine.travel("2026-03-01 12:00:00+00:00", tick=False):
        token = token_for(customer)
    with time_machine.travel("2026-03-01 13:00:00+00:00", tick=False):
        response = api_client.get(ME, HTTP_AUTHORIZATION=f"Bearer {token}")

    body = assert_error_envelope(response, 401, "UNAUTHENTICATED")
    assert "expired" in body["data"]["message"]


@pytest.mark.django_db
def test_an_invalid_token_is_anonymous_where_sign_in_is_optional(api_client):
    response = api_client.post(
        "/publics/customers",
        {"name": "Joana", "email": "joana@example.com", "password": "violet-harbor-lantern-93"},
        format="json",
        HTTP_AUTHORIZATION="Bearer not-a-real-token",
        HTTP_SERVICE_COOKIE_NAME="not-a-real-token-either",
    )

    assert response.status_code == 201


@pytest.mark.django_db
def test_changing_the_password_invalidates_earlier_tokens(api_client):
    customer = CustomerFactory()
    token = token_for(customer)
    customer.set_password("a-brand-new-password-77")
    customer.save()

    response = api_client.get(ME, HTTP_AUTHORIZATION=f"Bearer {token}")

    assert_error_envelope(response, 401, "UNAUTHENTICATED")


@pytest.mark.django_db
@pytest.mark.parametrize("change", ["deactivated", "deleted"])
def test_a_token_of_an_account_deactivated_or_deleted_is_refused(api_client, change):
    customer = CustomerFactory()
    token = token_for(customer)
    if change == "deactivated":
        customer.active = False
        customer.save()
    else:
        customer.delete()

    response = api_client.get(ME, HTTP_AUTHORIZATION=f"Bearer {token}")

    assert_error_envelope(response, 401, "UNAUTHENTICATED")
