"""Every error path of the API toolkit answers the error envelope (DESIGN §4)."""

import pytest
from rest_framework.test import APIClient

from storefront.api.throttling import PublicWriteThrottle
from tests.helpers import assert_error_envelope

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.storefront.toolkit_urls")]


def test_success_envelope_wraps_data(api_client):
    response = api_client.get("/echo")
    assert response.status_code == 200
    assert response.json() == {"status": True, "data": {"hello": "world"}}


@pytest.mark.parametrize("url", ["/echo", "/echo/", "/api/v3/echo", "/api/v3/echo/"])
def test_every_route_answers_with_and_without_slash_and_prefix(api_client, url):
    response = api_client.get(url)
    assert response.status_code == 200


def test_post_with_trailing_slash_keeps_its_body(api_client):
    response = api_client.post(
        "/echo/", {"name": "ana", "items": [{"reference": "a"}]}, format="json"
    )
    assert response.status_code == 201
    assert response.json() == {"name": "ana", "items": [{"reference": "a"}]}


def test_missing_field_is_422_naming_the_field(api_client):
    response = api_client.post("/echo", {"items": []}, format="json")
    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert body["data"]["message"] == "The name field is required."
    assert body["data"]["errors"] == {"name": ["The name field is required."]}


def test_nested_errors_are_dotted_paths(api_client):
    response = api_client.post(
        "/echo",
        {"name": "x" * 11, "items": [{"reference": "ok"}, {"reference": "too long"}]},
        format="json",
    )
    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    errors = body["data"]["errors"]
    assert set(errors) == {"name", "items.1.reference"}
    assert "items.1.reference" in errors["items.1.reference"][0]
    assert body["data"]["message"].endswith("(and 1 more error)")


def test_wrong_type_for_a_list_is_422(api_client):
    response = api_client.post("/echo", {"name": "a", "items": "nope"}, format="json")
    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert "items" in body["data"]["errors"]


@pytest.mark.parametrize("raw", [b"{", b'{"name": }', b"\xff\xfe", b"[1, 2", b"NaN"])
def test_malformed_json_is_422_on_body(api_client, raw):
    response = api_client.post("/echo", data=raw, content_type="application/json")
    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert list(body["data"]["errors"]) == ["body"]


def test_wrong_content_type_is_415(api_client):
    response = api_client.post("/echo", data="name=a", content_type="text/plain")
    assert_error_envelope(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_form_encoded_body_is_415(api_client):
    response = api_client.post("/echo", data={"name": "a"})  # multipart by default
    assert_error_envelope(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_wrong_method_is_405(api_client):
    response = api_client.delete("/echo")
    assert_error_envelope(response, 405, "METHOD_NOT_ALLOWED")


def test_not_found_error_carries_its_code(api_client):
    response = api_client.get("/missing")
    body = assert_error_envelope(response, 404, "SERVICE_STORE_PRODUCT_NOT_FOUND")
    assert body["data"]["message"] == "Product 1 was not found."


def test_crash_in_api_view_is_500_without_details(api_client):
    response = api_client.get("/crash")
    body = assert_error_envelope(response, 500, "INTERNAL_ERROR")
    text = response.content.decode()
    assert "secret" not in text and "RuntimeError" not in text
    assert body["data"]["message"] == "Internal server error."


def test_crash_in_plain_django_view_is_500_envelope_even_with_debug(settings):
    settings.DEBUG = True
    client = APIClient(raise_request_exception=False)
    response = client.get("/plain-crash")
    assert_error_envelope(response, 500, "INTERNAL_ERROR")
    assert "SELECT" not in response.content.decode()


def test_unknown_url_in_test_urlconf_is_404(api_client):
    assert_error_envelope(api_client.get("/unknown"), 404, "NOT_FOUND")


def test_throttled_write_is_429_with_retry_after(api_client, monkeypatch):
    monkeypatch.setattr(PublicWriteThrottle, "THROTTLE_RATES", {"public_write": "2/min"})
    payload = {"name": "a", "items": []}
    for _ in range(2):
        assert api_client.post("/echo", payload, format="json").status_code == 201
    response = api_client.post("/echo", payload, format="json")
    assert_error_envelope(response, 429, "TOO_MANY_REQUESTS")
    assert int(response["Retry-After"]) >= 1
    # Reads are never throttled by the write throttle.
    assert api_client.get("/echo").status_code == 200


def test_throttle_counts_per_client_ip(api_client, monkeypatch):
    monkeypatch.setattr(PublicWriteThrottle, "THROTTLE_RATES", {"public_write": "1/min"})
    payload = {"name": "a", "items": []}
    assert (
        api_client.post("/echo", payload, format="json", REMOTE_ADDR="10.0.0.1").status_code == 201
    )
    assert (
        api_client.post("/echo", payload, format="json", REMOTE_ADDR="10.0.0.1").status_code == 429
    )
    assert (
        api_client.post("/echo", payload, format="json", REMOTE_ADDR="10.0.0.2").status_code == 201
    )


@pytest.mark.parametrize("depth", [1000, 5000])
def test_json_nested_too_deeply_is_422_not_a_crash(api_client, depth):
    raw = ("[" * depth + "]" * depth).encode()
    response = api_client.post("/echo", data=raw, content_type="application/json")
    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert list(body["data"]["errors"]) == ["body"]
