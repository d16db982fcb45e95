"""Errors outside the envelope (issue 11, item 7): limits, chunked bodies, methods, CSRF."""

import http.client
import io
import json
import logging
import runpy
import socket

import pytest
from django.conf import settings as django_settings
from django.test import Client
from gunicorn.config import Config

from feedback.models import Comment
from storefront.models import Customer
from storefront.tokens import token_issue
from tests.catalog.factories import ProductFactory
from tests.helpers import assert_error_envelope
from tests.storefront.factories import CustomerFactory

from .live_gunicorn import CONF, http_request

pytestmark = pytest.mark.django_db

BANNERS = "/api/v3/publics/template/banners"
CONDITIONS = "/publics/payments/conditions"


# --- URL and header limits -----------------------------------------------------------------


def url_of_length(length: int) -> str:
    prefix = f"{BANNERS}?codes="
    return prefix + "x" * (length - len(prefix))


def test_a_url_at_the_limit_reaches_the_endpoint(api_client):
    url = url_of_length(django_settings.MAX_URL_BYTES)
    assert len(url) == 8000
    response = api_client.get(url)
    assert response.status_code == 422  # the code is too long: the endpoint answered
    assert "codes.0" in response.json()["data"]["errors"]


def test_a_url_over_the_limit_is_414_in_the_envelope(api_client):
    response = api_client.get(url_of_length(django_settings.MAX_URL_BYTES + 1))
    body = assert_error_envelope(response, 414, "URI_TOO_LONG")
    assert "8000 bytes" in body["data"]["message"]


def test_a_long_url_is_414_whatever_the_method_or_route(api_client):
    long_path = "/nope/" + "a" * 8000
    assert_error_envelope(api_client.post(long_path), 414, "URI_TOO_LONG")


def test_a_header_at_the_limit_passes_and_over_it_is_431(api_client):
    value = "v" * (8000 - len("X-Big: "))
    assert api_client.get("/publics/payments/card-flags", HTTP_X_BIG=value).status_code == 200
    response = api_client.get("/publics/payments/card-flags", HTTP_X_BIG=value + "v")
    body = assert_error_envelope(response, 431, "REQUEST_HEADER_FIELDS_TOO_LARGE")
    assert "X-Big" in body["data"]["message"]


def test_more_header_fields_than_the_limit_is_431(api_client):
    # The test client adds Cookie; CONTENT_TYPE/CONTENT_LENGTH count when present.
    headers = {f"HTTP_X_H{n}": "1" for n in range(101)}
    response = api_client.get("/publics/payments/card-flags", **headers)
    assert_error_envelope(response, 431, "REQUEST_HEADER_FIELDS_TOO_LARGE")
    headers = {f"HTTP_X_H{n}": "1" for n in range(90)}
    assert api_client.get("/publics/payments/card-flags", **headers).status_code == 200


def test_gunicorn_limits_sit_above_the_application_limits(monkeypatch):
    monkeypatch.delenv("TRUST_X_FORWARDED_PROTO", raising=False)
    config = Config()
    for name, value in runpy.run_path(str(CONF)).items():
        if name in config.settings:
            config.set(name, value)
    longest_method_and_version = len("OPTIONS ") + len(" HTTP/1.1")
    assert config.limit_request_line >= django_settings.MAX_URL_BYTES + longest_method_and_version
    assert config.limit_request_field_size > django_settings.MAX_HEADER_BYTES
    assert config.limit_request_fields > django_settings.MAX_HEADER_FIELDS


def test_the_openapi_schema_documents_the_url_limit_on_long_list_parameters(api_client):
    schema = api_client.get("/api/schema/?format=json").json()
    banners = schema["paths"]["/publics/template/banners"]["get"]["parameters"]
    quote = schema["paths"]["/publics/products/quote"]["get"]["parameters"]
    for parameters, name in ((banners, "codes"), (quote, "items")):
        description = next(p["description"] for p in parameters if p["name"] == name)
        assert "8,000 bytes" in description and "414" in description


# --- chunked request bodies ------------------------------------------------------------


def chunked_post(api_client, path, body: bytes, *, terminated=True):
    environ = {
        "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input": io.BytesIO(body),  # what gunicorn hands over: the body, de-chunked
    }
    if terminated:
        environ["wsgi.input_terminated"] = True
    return api_client.generic("POST", path, content_type="application/json", **environ)


def test_a_chunked_body_is_read_like_any_other(api_client):
    body = json.dumps({"items": [{"reference": "a", "value": "not a number"}]}).encode()
    response = chunked_post(api_client, CONDITIONS, body)
    data = assert_error_envelope(response, 422, "VALIDATION_ERROR")["data"]
    # The body was read: the error is about its item, not "items is required".
    assert list(data["errors"]) == ["items.0.value"]


def test_a_chunked_write_is_stored(api_client):
    product = ProductFactory()
    body = {"message": "Chunked?", "customerName": "Ana Souza", "customerEmail": "a@example.com"}
    response = chunked_post(
        api_client, f"/publics/products/{product.pk}/comments", json.dumps(body).encode()
    )
    assert response.status_code == 201, response.content
    assert Comment.objects.get().message == "Chunked?"


def test_a_chunked_body_over_the_cap_is_413(api_client, settings):
    settings.API_MAX_BODY_BYTES = 100
    response = chunked_post(api_client, CONDITIONS, b'{"items": "' + b"x" * 200 + b'"}')
    assert_error_envelope(response, 413, "PAYLOAD_TOO_LARGE")


def test_a_chunked_body_the_server_cannot_terminate_is_411(api_client):
    response = chunked_post(api_client, CONDITIONS, b"{}", terminated=False)
    assert_error_envelope(response, 411, "LENGTH_REQUIRED")


class BrokenStream(io.BytesIO):
    def read(self, *args):
        raise ValueError("Invalid chunk size: 'zz'")  # as gunicorn's InvalidChunkSize


@pytest.mark.parametrize("chunked", [True, False])
def test_a_body_that_cannot_be_read_is_400(api_client, chunked):
    environ = {"wsgi.input": BrokenStream(b"{}"), "CONTENT_LENGTH": "2"}
    if chunked:
        environ |= {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True}
    response = api_client.generic("POST", CONDITIONS, content_type="application/json", **environ)
    body = assert_error_envelope(response, 400, "BAD_REQUEST")
    assert body["data"]["message"] == "The request body could not be read."


def test_real_gunicorn_hands_a_chunked_body_to_the_api(gunicorn_server):
    port = gunicorn_server()
    body = json.dumps({"items": [{"reference": "a", "value": "x"}]}).encode()
    status, headers, answer = http_request(
        port, "POST", CONDITIONS, {"Content-Type": "application/json"}, [body[:10], body[10:]]
    )
    assert status == 422 and headers["content-type"] == "application/json"
    assert list(json.loads(answer)["data"]["errors"]) == ["items.0.value"]


@pytest.mark.parametrize("chunks", [b"zz\r\n\r\n", b"-5\r\nabc\r\n", b"3\r\nabcXX0\r\n\r\n"])
def test_real_gunicorn_malformed_chunks_are_a_400_envelope(gunicorn_server, chunks):
    port = gunicorn_server()
    head = f"POST {CONDITIONS} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(head.encode() + b"Transfer-Encoding: chunked\r\n\r\n" + chunks)
        response = http.client.HTTPResponse(connection)
        response.begin()
        assert response.status == 400
        assert response.getheader("Content-Type") == "application/json"
        envelope = json.loads(response.read())
    assert envelope["data"] == {
        "code": 400,
        "errorCode": "BAD_REQUEST",
        "message": "The request body could not be read.",
    }


@pytest.mark.parametrize(
    ("request_head", "status"),
    [
        (b"get /health HTTP/1.1\r\n", 400),  # a lower-case method
        (b"GET /health HTTP/2.0\r\n", 400),
        (b"GET /health HTTP/1.1\r\nNo colon here\r\n", 400),
        (b"GET /" + b"q" * 8200 + b" HTTP/1.1\r\n", 414),  # over gunicorn's request line
        (b"GET /health HTTP/1.1\r\n" + b"X-H: 1\r\n" * 201, 431),
    ],
)
def test_real_gunicorn_refusals_are_envelopes_too(gunicorn_server, request_head, status):
    port = gunicorn_server()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request_head + b"Host: 127.0.0.1\r\n\r\n")
        response = http.client.HTTPResponse(connection)
        response.begin()
        assert response.status == status
        assert response.getheader("Content-Type") == "application/json"
        envelope = json.loads(response.read())
    assert envelope["status"] is False and envelope["data"]["code"] == status


def test_real_gunicorn_lets_the_application_answer_long_urls_and_headers(gunicorn_server):
    port = gunicorn_server()
    path = "/nope?" + "q" * 8100  # over MAX_URL_BYTES, under gunicorn's 8190
    status, _, answer = http_request(port, "GET", path)
    assert status == 414 and json.loads(answer)["data"]["errorCode"] == "URI_TOO_LONG"
    big = "v" * 12000  # over MAX_HEADER_BYTES, under gunicorn's field size
    status, _, answer = http_request(port, "GET", "/health", {"X-Big": big})
    assert status == 431
    assert json.loads(answer)["data"]["errorCode"] == "REQUEST_HEADER_FIELDS_TOO_LARGE"


# --- methods and CSRF ------------------------------------------------------------------


@pytest.fixture
def csrf_client(media_root):
    """A client that checks CSRF like a browser-facing server, with a session cookie."""
    client = Client(enforce_csrf_checks=True)
    client.cookies["sessionid"] = "whatever"
    return client


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("path", ["/nope", "/api/v3/nothing/", "/admin-not-really"])
def test_writes_to_unknown_urls_are_404_envelopes_not_the_csrf_page(csrf_client, method, path):
    response = getattr(csrf_client, method)(path, "a=1", "application/x-www-form-urlencoded")
    assert_error_envelope(response, 404, "NOT_FOUND")


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("path", ["/health", "/health/", "/media/a.txt", "/api/docs/"])
def test_writes_to_read_only_urls_are_405_envelopes(csrf_client, media_root, method, path):
    media_root.mkdir(parents=True, exist_ok=True)
    (media_root / "a.txt").write_bytes(b"hello")
    response = getattr(csrf_client, method)(path, "a=1", "application/x-www-form-urlencoded")
    assert_error_envelope(response, 405, "METHOD_NOT_ALLOWED")
    assert response["Allow"] == "GET, HEAD"


def test_the_schema_answers_its_405_as_a_json_envelope(csrf_client):
    response = csrf_client.post("/api/schema/")
    assert_error_envelope(response, 405, "METHOD_NOT_ALLOWED")


def test_media_is_still_served_on_get_and_head(api_client, media_root):
    media_root.mkdir(parents=True)
    (media_root / "a.txt").write_bytes(b"hello")
    assert b"".join(api_client.get("/media/a.txt").streaming_content) == b"hello"
    assert api_client.head("/media/a.txt").status_code == 200


def cookie_client(customer) -> Client:
    client = Client(enforce_csrf_checks=True, HTTP_ORIGIN="https://evil.example")
    token = token_issue(customer_id=customer.pk, password_hash=customer.password).token
    client.cookies["service-cookie-name"] = token
    return client


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/x-www-form-urlencoded", "message=Forged"),
        ("multipart/form-data; boundary=BoUnDaRy", "--BoUnDaRy--\r\n"),
        ("text/plain", json.dumps({"message": "Forged"})),
    ],
)
def test_a_cross_site_form_post_cannot_use_the_cookie_token(content_type, body):
    # What a browser sends for a forged <form> on another site: the cookie rides along,
    # but a form can only send these three content types, and the API reads JSON only.
    product = ProductFactory()
    client = cookie_client(CustomerFactory())
    response = client.post(f"/publics/products/{product.pk}/comments", body, content_type)
    assert_error_envelope(response, 415, "UNSUPPORTED_MEDIA_TYPE")
    assert not Comment.objects.exists()


def test_an_empty_cross_site_form_post_writes_nothing():
    product = ProductFactory()
    client = cookie_client(CustomerFactory())
    response = client.post(
        f"/publics/products/{product.pk}/comments", "", "application/x-www-form-urlencoded"
    )
    assert response.status_code in (415, 422)
    assert not Comment.objects.exists()


def test_the_cookie_token_still_works_for_json_writes_of_the_storefront():
    # A JSON write needs a CORS preflight cross-site; the storefront's own origin sends it.
    product = ProductFactory()
    customer = CustomerFactory()
    client = cookie_client(customer)
    response = client.post(
        f"/publics/products/{product.pk}/comments",
        json.dumps({"message": "Signed in"}),
        "application/json",
    )
    assert response.status_code == 201, response.content
    assert Comment.objects.get().customer_id == customer.pk


def test_a_cross_site_form_post_to_the_admin_is_refused_by_the_csrf_check(admin_user):
    client = Client(enforce_csrf_checks=True, HTTP_ORIGIN="https://evil.example")
    client.force_login(admin_user)
    response = client.post(
        "/admin/storefront/customer/add/",
        {"name": "Forged", "email": "forged@example.com"},
    )
    assert response.status_code == 403
    assert not Customer.objects.filter(email="forged@example.com").exists()


def test_an_unlisted_host_is_a_400_envelope_and_no_error_in_the_log(api_client, caplog):
    response = api_client.get("/publics/payments/card-flags", HTTP_HOST="evil.example")
    assert_error_envelope(response, 400, "BAD_REQUEST")
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
