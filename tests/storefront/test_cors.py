"""Browsers on the store's other domains may call the API (CORS from the environment)."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def allowed_origin(settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://www.shop.example.com"]
    return "https://www.shop.example.com"


def test_preflight_from_an_allowed_origin_is_answered(api_client, allowed_origin):
    response = api_client.options(
        "/health",
        HTTP_ORIGIN=allowed_origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="service-cookie-name, content-type",
    )
    assert response["Access-Control-Allow-Origin"] == allowed_origin
    allowed_headers = response["Access-Control-Allow-Headers"].lower()
    assert "service-cookie-name" in allowed_headers and "authorization" in allowed_headers


def test_other_origins_get_no_cors_headers(api_client, allowed_origin):
    response = api_client.get("/health", HTTP_ORIGIN="https://evil.example.net")
    assert "Access-Control-Allow-Origin" not in response
