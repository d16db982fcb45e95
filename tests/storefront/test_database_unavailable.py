"""A database that cannot be reached answers 503 SERVICE_UNAVAILABLE (issue 11, item 5)."""

import logging
import socket
import sqlite3
from unittest import mock

import psycopg
import psycopg.errors
import pytest
from django.db import InterfaceError, OperationalError, connection, connections
from django.test import RequestFactory

from apikit import fallback
from tests.catalog.factories import ProductFactory
from tests.helpers import assert_error_envelope
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db

# Uncached reads, writes, a signed-in read and an admin page: all touch the database.
REQUESTS = [
    ("get", "/review/product", None),
    ("get", "/publics/products/comments", None),
    (
        "post",
        "/publics/products/interests",
        {"productId": 1, "origin": "notify-me", "name": "Ana Souza", "email": "a@example.com"},
    ),
    (
        "post",
        "/publics/products/1/comments",
        {"message": "Hi", "customerName": "Ana Souza", "customerEmail": "a@example.com"},
    ),
    ("post", "/publics/customers/login", {"email": "a@example.com", "password": "x"}),
    (
        "post",
        "/publics/customers",
        {"name": "Ana Souza", "email": "a@example.com", "password": "a long passphrase 1234"},
    ),
]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the block ends: nobody listens


def real_connection_error() -> Exception:
    """What Django raises when it cannot connect, obtained by trying for real: PostgreSQL
    at a closed port of 127.0.0.1, or a SQLite file in a folder that does not exist."""
    settings = dict(connection.settings_dict)
    if connection.vendor == "postgresql":
        settings.update(HOST="127.0.0.1", PORT=str(closed_port()))
    else:
        settings.update(NAME="/nonexistent-folder/for/sure/db.sqlite3")
    wrapper = type(connections["default"])(settings, alias="default")
    try:
        wrapper.ensure_connection()
    except (OperationalError, InterfaceError) as exc:
        return exc
    finally:
        wrapper.close()
    pytest.fail("connecting to an unreachable database succeeded")


def django_error(driver_error: Exception, cls=OperationalError) -> Exception:
    """A driver error wrapped the way Django's DatabaseErrorWrapper wraps it."""
    error = cls(*driver_error.args)
    error.__cause__ = driver_error
    return error


def sqlstate_error(code: str) -> Exception:
    return django_error(psycopg.errors.lookup(code)(f"server said {code}"))


OUTAGES = {
    "connection refused": real_connection_error,
    "too many connections": lambda: sqlstate_error("53300"),
    "server shutting down": lambda: sqlstate_error("57P01"),
    "server starting up": lambda: sqlstate_error("57P03"),
    "connection failure": lambda: sqlstate_error("08006"),
    "statement cancelled": lambda: sqlstate_error("57014"),
    "no answer": lambda: django_error(psycopg.OperationalError("server closed the connection")),
    "connection already closed": lambda: InterfaceError("connection already closed"),
    "sqlite locked": lambda: django_error(sqlite3.OperationalError("database is locked")),
}


def send(client, method, url, body):
    if body is None:
        return getattr(client, method)(url)
    return getattr(client, method)(url, body, format="json")


@pytest.mark.parametrize("outage", sorted(OUTAGES))
@pytest.mark.parametrize(("method", "url", "body"), REQUESTS)
def test_an_unreachable_database_is_503_with_retry_after(api_client, outage, method, url, body):
    error = OUTAGES[outage]()
    with mock.patch.object(connection, "ensure_connection", side_effect=error):
        response = send(api_client, method, url, body)
    body = assert_error_envelope(response, 503, "SERVICE_UNAVAILABLE")
    assert response["Retry-After"] == "5"
    assert "Try again" in body["data"]["message"]
    assert "psycopg" not in response.content.decode() and "sqlite" not in response.content.decode()


def test_a_signed_in_request_with_the_database_down_is_503(api_client):
    customer = CustomerFactory()
    from storefront.tokens import token_issue

    token = token_issue(customer_id=customer.pk, password_hash=customer.password).token
    with mock.patch.object(connection, "ensure_connection", side_effect=real_connection_error()):
        response = api_client.get("/publics/customers/me", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert_error_envelope(response, 503, "SERVICE_UNAVAILABLE")


def test_an_admin_page_with_the_database_down_is_503(admin_client):
    with mock.patch.object(connection, "ensure_connection", side_effect=real_connection_error()):
        response = admin_client.get("/admin/catalog/product/")
    assert_error_envelope(response, 503, "SERVICE_UNAVAILABLE")


@pytest.mark.parametrize(
    "error",
    [
        django_error(sqlite3.OperationalError("no such table: catalog_product")),
        django_error(psycopg.errors.lookup("42601")("syntax error"), OperationalError),
        OperationalError("something else"),
        RuntimeError("a bug"),
    ],
    ids=["missing table", "syntax error", "bare", "not a database error"],
)
def test_a_database_bug_stays_a_500(api_client, error):
    with mock.patch("feedback.api.views.product_reviews_public", side_effect=error):
        response = api_client.get("/review/product")
    assert_error_envelope(response, 500, "INTERNAL_ERROR")


def error_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_an_outage_is_logged_once_per_request_in_one_line(api_client, caplog):
    error = real_connection_error()
    with mock.patch.object(connection, "ensure_connection", side_effect=error):
        api_client.get("/review/product")
    records = error_records(caplog)
    assert len(records) == 1
    assert records[0].name == "storefront.database"
    assert records[0].exc_info is None
    assert records[0].getMessage().startswith("Database unavailable on GET /review/product: ")


@pytest.mark.parametrize("url", ["/review/product", "/admin/catalog/product/"])
def test_a_crash_is_logged_once_not_twice(admin_client, caplog, url):
    with (
        mock.patch("feedback.api.views.product_reviews_public", side_effect=RuntimeError("x")),
        mock.patch("django.contrib.admin.ModelAdmin.get_queryset", side_effect=RuntimeError("x")),
    ):
        admin_client.raise_request_exception = False  # the admin's 500 is Django's handling
        response = admin_client.get(url)
    assert response.status_code == 500
    records = error_records(caplog)
    assert [r.name for r in records] == ["django.request"]
    assert records[0].exc_info is not None


def test_handler500_answers_503_for_an_outage_raised_in_a_middleware(caplog):
    request = RequestFactory().get("/anything")
    try:
        raise real_connection_error()
    except OperationalError:
        response = fallback.server_error(request)
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response._has_been_logged is True
    assert [r.name for r in error_records(caplog)] == ["storefront.database"]


def test_handler500_still_answers_500_for_anything_else(caplog):
    request = RequestFactory().get("/anything")
    try:
        raise ValueError("bug")
    except ValueError:
        response = fallback.server_error(request)
    assert response.status_code == 500 and response._has_been_logged is True


def test_the_service_answers_again_when_the_database_is_back(api_client):
    ProductFactory()
    with mock.patch.object(connection, "ensure_connection", side_effect=real_connection_error()):
        assert api_client.get("/review/product").status_code == 503
    assert api_client.get("/review/product").status_code == 200
