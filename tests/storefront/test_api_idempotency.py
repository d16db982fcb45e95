"""`Idempotency-Key` on public writes (issue 11, item 10), through HTTP."""

import json
import threading
import time
from datetime import timedelta
from unittest import mock

import pytest
import time_machine
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.utils import timezone

from catalog.models import ProductInterest
from feedback.models import Comment
from storefront.models import Customer, IdempotencyRecord
from storefront.tokens import token_issue
from tests.catalog.factories import ProductFactory
from tests.helpers import assert_error_envelope
from tests.storefront.factories import CustomerFactory

from .test_database_unavailable import real_connection_error

pytestmark = pytest.mark.django_db

ANONYMOUS = {"customerName": "Ana Souza", "customerEmail": "ana@example.com"}


class Dies(BaseException):
    """A worker killed mid-request: nothing in the service catches it."""


@pytest.fixture
def product():
    return ProductFactory()


def comment_url(product) -> str:
    return f"/publics/products/{product.pk}/comments"


def post(client, url, body, key=None, **extra):
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    raw = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, raw, content_type="application/json", **headers, **extra)


def writes(product) -> dict[str, tuple[str, dict, callable]]:
    return {
        "comment": (comment_url(product), {"message": "Fits?", **ANONYMOUS}, Comment.objects),
        "interest": (
            "/publics/products/interests",
            {
                "productId": product.pk,
                "origin": "on-request",
                "name": "Ana Souza",
                "email": "ana@example.com",
            },
            ProductInterest.objects,
        ),
        "register": (
            "/publics/customers",
            {"name": "Ana Souza", "email": "ana@example.com", "password": "a long passphrase 9"},
            Customer.objects,
        ),
    }


@pytest.mark.parametrize("write", ["comment", "interest", "register"])
def test_a_retry_with_the_same_key_gets_the_first_answer_without_writing_again(
    api_client, product, write
):
    url, body, rows = writes(product)[write]
    first = post(api_client, url, body, key="k-1")
    again = post(api_client, url, body, key="k-1")
    assert first.status_code == 201, first.content
    assert again.status_code == 201
    assert again.content == first.content
    assert again["Content-Type"] == first["Content-Type"]
    assert again["Idempotent-Replayed"] == "true"
    assert not first.has_header("Idempotent-Replayed")
    assert rows.count() == 1


@pytest.mark.parametrize("write", ["comment", "interest", "register"])
def test_the_same_key_with_another_body_is_422_and_writes_nothing(api_client, product, write):
    url, body, rows = writes(product)[write]
    post(api_client, url, body, key="k-1")
    other = {**body, "name": "Other Name", "message": "Other message"}
    response = post(api_client, url, other, key="k-1")
    data = assert_error_envelope(response, 422, "VALIDATION_ERROR")["data"]
    assert list(data["errors"]) == ["Idempotency-Key"]
    assert "another request body" in data["message"]
    assert rows.count() == 1


def test_without_a_key_every_post_writes(api_client, product):
    body = {"message": "Twice", **ANONYMOUS}
    post(api_client, comment_url(product), body)
    post(api_client, comment_url(product), body)
    assert Comment.objects.count() == 2
    assert not IdempotencyRecord.objects.exists()


def test_the_body_is_compared_as_json_not_as_bytes(api_client, product):
    first = post(
        api_client,
        comment_url(product),
        '{"message": "Same", "customerName": "Ana Souza", "customerEmail": "ana@example.com"}',
        key="k",
    )
    again = post(
        api_client,
        comment_url(product),
        '{"customerEmail":"ana@example.com","customerName":"Ana Souza","message":"Same"}',
        key="k",
    )
    assert again.content == first.content and Comment.objects.count() == 1


def test_the_same_endpoint_under_api_v3_and_with_a_slash_is_one_endpoint(api_client, product):
    body = {"message": "Hi", **ANONYMOUS}
    first = post(api_client, comment_url(product), body, key="k")
    again = post(api_client, f"/api/v3{comment_url(product)}/", body, key="k")
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content


def test_the_same_key_on_another_endpoint_is_422(api_client, product):
    body = {"message": "Hi", **ANONYMOUS}
    post(api_client, comment_url(product), body, key="k")
    response = post(api_client, comment_url(ProductFactory()), body, key="k")
    assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert Comment.objects.count() == 1


def test_keys_belong_to_their_caller(api_client, product):
    body = {"message": "Hi", **ANONYMOUS}
    post(api_client, comment_url(product), body, key="k", REMOTE_ADDR="10.0.0.1")
    post(api_client, comment_url(product), body, key="k", REMOTE_ADDR="10.0.0.2")
    assert Comment.objects.count() == 2


def test_a_signed_in_customer_is_the_caller_whatever_the_ip(api_client, product):
    customer = CustomerFactory()
    token = token_issue(customer_id=customer.pk, password_hash=customer.password).token
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    body = {"message": "Mine"}
    first = post(api_client, comment_url(product), body, key="k", REMOTE_ADDR="10.0.0.1", **auth)
    again = post(api_client, comment_url(product), body, key="k", REMOTE_ADDR="10.0.0.9", **auth)
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    # Anonymous, from the first IP, the same key is another caller's.
    post(
        api_client,
        comment_url(product),
        {"message": "Mine", **ANONYMOUS},
        key="k",
        REMOTE_ADDR="10.0.0.1",
    )
    assert Comment.objects.count() == 2
    assert IdempotencyRecord.objects.get(caller=f"customer:{customer.pk}").key == "k"


@pytest.mark.parametrize("key", ["", "   ", "x" * 256, "caf\u00e9", "a\tb"])
def test_a_malformed_key_is_422_naming_the_header(api_client, product, key):
    response = post(api_client, comment_url(product), {"message": "Hi", **ANONYMOUS}, key=key)
    data = assert_error_envelope(response, 422, "VALIDATION_ERROR")["data"]
    assert list(data["errors"]) == ["Idempotency-Key"]
    assert not Comment.objects.exists()


def test_the_structured_field_string_form_is_the_same_key(api_client, product):
    body = {"message": "Hi", **ANONYMOUS}
    post(api_client, comment_url(product), body, key='"8e03978e-40d5"')
    again = post(api_client, comment_url(product), body, key="8e03978e-40d5")
    assert again["Idempotent-Replayed"] == "true" and Comment.objects.count() == 1


def test_a_client_error_is_kept_and_replayed_too(api_client, product):
    body = {"message": "", **ANONYMOUS}
    first = post(api_client, comment_url(product), body, key="k")
    again = post(api_client, comment_url(product), body, key="k")
    assert first.status_code == 422 and again.status_code == 422
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content


def test_a_server_error_is_not_kept_and_its_writes_are_undone(api_client, product):
    body = {"message": "Hi", **ANONYMOUS}

    def save_then_crash(**kwargs):
        Comment.objects.create(
            product=product,
            message="half",
            **{"customer_name": "x", "customer_email": "x@example.com"},
        )
        raise RuntimeError("crash after a write")

    with mock.patch("feedback.api.views.comment_create", side_effect=save_then_crash):
        assert post(api_client, comment_url(product), body, key="k").status_code == 500
    assert not Comment.objects.exists()
    assert not IdempotencyRecord.objects.exists()
    retry = post(api_client, comment_url(product), body, key="k")
    assert retry.status_code == 201 and not retry.has_header("Idempotent-Replayed")
    assert Comment.objects.count() == 1


def test_a_database_outage_is_not_kept(api_client, product):
    body = {"message": "Hi", **ANONYMOUS}
    with mock.patch("feedback.api.views.comment_create", side_effect=real_connection_error()):
        first = post(api_client, comment_url(product), body, key="k")
    assert_error_envelope(first, 503, "SERVICE_UNAVAILABLE")
    assert post(api_client, comment_url(product), body, key="k").status_code == 201


def test_a_retry_while_the_first_is_in_flight_is_409_then_after_the_lease_it_runs(
    api_client, product
):
    body = {"message": "Hi", **ANONYMOUS}
    with mock.patch("feedback.api.views.comment_create", side_effect=Dies), pytest.raises(Dies):
        post(api_client, comment_url(product), body, key="k")
    assert IdempotencyRecord.objects.get().status_code is None  # claimed, never answered

    response = post(api_client, comment_url(product), body, key="k")
    if connection.features.has_select_for_update_nowait:
        # PostgreSQL: no row lock held on the claim, so no request runs it: taken over at once
        # (across connections: test_a_retry_after_the_first_died_runs_at_once).
        assert response.status_code == 201 and Comment.objects.count() == 1
        return
    data = assert_error_envelope(response, 409, "IDEMPOTENCY_REQUEST_IN_PROGRESS")
    assert response["Retry-After"] == "1" and "still being processed" in data["data"]["message"]
    assert not Comment.objects.exists()

    # The worker that claimed it is gone: once its lease runs out, a retry takes over.
    with time_machine.travel(timezone.now() + timedelta(seconds=61), tick=False):
        retry = post(api_client, comment_url(product), body, key="k")
    assert retry.status_code == 201 and Comment.objects.count() == 1


def test_after_24_hours_the_key_is_free_again(api_client, product):
    body = {"message": "Hi", **ANONYMOUS}
    post(api_client, comment_url(product), body, key="k")
    with time_machine.travel(timezone.now() + timedelta(hours=24, seconds=1), tick=False):
        later = post(api_client, comment_url(product), {"message": "New", **ANONYMOUS}, key="k")
    assert later.status_code == 201 and not later.has_header("Idempotent-Replayed")
    assert Comment.objects.count() == 2
    assert IdempotencyRecord.objects.count() == 1


def test_read_only_posts_accept_the_header_and_store_nothing(api_client):
    for _ in range(2):
        response = post(
            api_client,
            "/publics/payments/conditions",
            {"items": [{"reference": "a", "value": 10}]},
            key="k",
        )
        assert response.status_code == 200 and not response.has_header("Idempotent-Replayed")
    CustomerFactory(email="ana@example.com")
    login = post(
        api_client,
        "/publics/customers/login",
        {"email": "ana@example.com", "password": "x"},
        key="k",
    )
    assert login.status_code in (200, 401)
    assert not IdempotencyRecord.objects.exists()  # and no token is ever stored


def test_the_schema_documents_the_header_on_every_public_post(api_client):
    schema = api_client.get("/api/schema/?format=json").json()
    writes_ = {
        "/publics/products/{productId}/comments",
        "/publics/products/interests",
        "/publics/customers",
        "/review/product",
        "/review/sales-channel",
        "/publics/customers/password-reset",
        "/review/product/{reviewId}/votes",
    }
    posts = {path: ops["post"] for path, ops in schema["paths"].items() if "post" in ops}
    assert writes_ < set(posts)
    for path, operation in posts.items():
        header = [p for p in operation["parameters"] if p["name"] == "Idempotency-Key"]
        assert len(header) == 1 and header[0]["in"] == "header", path
        if path in writes_:
            assert "24 hours" in header[0]["description"]
            assert "409" in operation["responses"]
        else:
            assert "ignored" in header[0]["description"]


# --- concurrency (PostgreSQL: real row locks and concurrent connections) -----------------

needs_postgresql = pytest.mark.skipif(
    not django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="needs PostgreSQL (DATABASE_URL): concurrent connections with row locks",
)


def concurrent_posts(url, body, *, count=2):
    barrier = threading.Barrier(count)
    answers = []

    def one():
        try:
            barrier.wait(5)
            answers.append(post(Client(), url, body, key="same-key"))
        finally:
            connection.close()

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_identical_requests_at_once_write_once_and_the_second_is_409(product):
    from feedback import services

    real = services.comment_create

    def slow_create(**kwargs):
        time.sleep(0.5)  # the first is surely still in flight when the second arrives
        return real(**kwargs)

    with mock.patch("feedback.api.views.comment_create", side_effect=slow_create):
        answers = concurrent_posts(comment_url(product), {"message": "Race", **ANONYMOUS})
    assert sorted(a.status_code for a in answers) == [201, 409]
    assert Comment.objects.count() == 1


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_retry_after_the_first_died_runs_at_once(product):
    """An instance killed mid-request (scale drill, issue 23): its connection and row lock are
    gone, so the client's retry with the same key runs now, not after the 60-s lease."""
    body = {"message": "Killed", **ANONYMOUS}

    def dying_request():
        try:
            with mock.patch("feedback.api.views.comment_create", side_effect=Dies):
                post(Client(), comment_url(product), body, key="k")
        except Dies:
            pass
        finally:
            connection.close()  # the process is gone: so is its connection

    thread = threading.Thread(target=dying_request)
    thread.start()
    thread.join(30)
    assert IdempotencyRecord.objects.get().status_code is None  # claimed, never answered

    retry = post(Client(), comment_url(product), body, key="k")
    assert retry.status_code == 201 and Comment.objects.count() == 1
    replay = post(Client(), comment_url(product), body, key="k")
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_many_identical_requests_at_once_write_once(product):
    answers = concurrent_posts(comment_url(product), {"message": "Race", **ANONYMOUS}, count=6)
    assert len(answers) == 6
    assert {a.status_code for a in answers} <= {201, 409}
    created = [a.content for a in answers if a.status_code == 201]
    assert created and len(set(created)) == 1  # replays are byte-identical
    assert Comment.objects.count() == 1
