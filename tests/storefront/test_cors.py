"""Browsers on the store's other domains may call the API (CORS from the environment)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from config.env import env_whole_patterns

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


# --- issue 33: preview deployments, the headers a browser may read, kept answers -------------

PREVIEW = r"https://pr-[0-9]+\.preview\.shop\.example\.com"
EXPOSED = {
    "etag",
    "retry-after",
    "idempotent-replayed",
    "ratelimit-limit",
    "ratelimit-remaining",
    "ratelimit-reset",
}


def exposed(response) -> set[str]:
    return {name.strip().lower() for name in response["Access-Control-Expose-Headers"].split(",")}


@pytest.fixture
def preview_origins(settings, monkeypatch):
    monkeypatch.setenv(
        "CORS_ALLOWED_ORIGIN_REGEXES", f"{PREVIEW} https://shop\\.example\\.(com|net)"
    )
    settings.CORS_ALLOWED_ORIGIN_REGEXES = env_whole_patterns("CORS_ALLOWED_ORIGIN_REGEXES")


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("https://pr-12.preview.shop.example.com", True),
        ("https://shop.example.net", True),
        ("https://pr-12.preview.shop.example.com.evil.net", False),  # a regex is the whole origin
        ("https://evil.net/?https://shop.example.com", False),
        ("https://pr-x.preview.shop.example.com", False),
    ],
)
def test_origin_regexes_allow_preview_deployments_and_match_whole_origins(
    api_client, preview_origins, origin, allowed
):
    response = api_client.get("/publics/payments/card-flags", HTTP_ORIGIN=origin)
    assert response.status_code == 200
    assert response.get("Access-Control-Allow-Origin") == (origin if allowed else None)


def test_a_browser_may_read_the_headers_the_service_sends(api_client, allowed_origin):
    response = api_client.get("/publics/payments/card-flags", HTTP_ORIGIN=allowed_origin)
    assert exposed(response) >= EXPOSED
    assert response["Access-Control-Allow-Origin"] == allowed_origin
    assert "Access-Control-Allow-Credentials" not in response  # bearer tokens, no cookies


def test_a_preflight_allows_the_request_headers_of_a_client(api_client, allowed_origin):
    response = api_client.options(
        "/publics/products/interests",
        HTTP_ORIGIN=allowed_origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="content-type, idempotency-key, authorization",
    )
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == allowed_origin
    allowed = {name.strip() for name in response["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "idempotency-key", "authorization", "if-none-match"} <= allowed
    assert "POST" in response["Access-Control-Allow-Methods"]


def test_kept_answers_served_early_carry_the_cors_headers_of_their_request(
    api_client, settings, allowed_origin
):
    # given two allowed origins and an answer kept by a request without any Origin
    settings.CORS_ALLOWED_ORIGINS = [allowed_origin, "http://localhost:5173"]
    url = "/publics/payments/card-flags"
    first = api_client.get(url)
    assert "Access-Control-Allow-Origin" not in first
    # when browsers on each origin, and then on an unlisted one, read the kept answer
    hits = {
        origin: api_client.get(url, HTTP_ORIGIN=origin)
        for origin in (allowed_origin, "http://localhost:5173", "https://evil.example.net")
    }
    not_modified = api_client.get(
        url, HTTP_ORIGIN="http://localhost:5173", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    # then each hit names its own origin (never another request's), or none when unlisted
    for origin, hit in hits.items():
        assert hit["X-Cache"] == "hit"
        assert "origin" in hit["Vary"].lower()
        expected = None if "evil" in origin else origin
        assert hit.get("Access-Control-Allow-Origin") == expected
    assert exposed(hits[allowed_origin]) >= EXPOSED
    # and a 304 from the kept answer is readable by the browser too
    assert (not_modified.status_code, not_modified["X-Cache"]) == (304, "hit")
    assert not_modified["Access-Control-Allow-Origin"] == "http://localhost:5173"
    assert "etag" in exposed(not_modified)


MAKE = shutil.which("make")


@pytest.mark.skipif(MAKE is None, reason="the make program is not installed")
def test_make_run_allows_the_local_development_origins_and_the_demo_itself():
    printed = subprocess.run(  # noqa: S603 - fixed command line
        [str(MAKE), "-s", "env", "PORT=8123"],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
        env={key: value for key, value in os.environ.items() if not key.startswith("CORS_")},
    ).stdout
    (line,) = [line for line in printed.splitlines() if "CORS_ALLOWED_ORIGINS" in line]
    origins = line.partition("=")[2].strip("'").split(",")
    assert set(origins) == {
        "http://localhost:3000",
        "http://127.0.0.1:3000",
        "http://localhost:5173",
        "http://127.0.0.1:5173",
        "http://127.0.0.1:8123",
        "http://localhost:8123",
    }
