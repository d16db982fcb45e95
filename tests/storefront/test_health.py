"""GET /health reports database and cache reachability."""

from unittest import mock

import pytest

from tests.helpers import assert_error_envelope

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/health", "/health/"])
@pytest.mark.cache
def test_health_is_ok_when_database_and_cache_answer(api_client, url):
    response = api_client.get(url)
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
        "cacheBreaker": "closed",
    }
    assert response["Cache-Control"] == "no-store"


def test_health_is_degraded_but_200_when_the_cache_is_down(api_client):
    with mock.patch("apikit.health.cache.get", side_effect=ConnectionError("down")):
        response = api_client.get("/health")
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "cache": "unavailable",
        "cacheBreaker": "closed",  # a failed call of a cache without a breaker
    }


def test_health_is_503_when_the_database_is_down(api_client):
    with mock.patch("apikit.health._database_ok", return_value=False):
        response = api_client.get("/health")
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"


def test_health_refuses_other_methods_with_the_envelope(api_client):
    response = api_client.post("/health")
    assert_error_envelope(response, 405, "METHOD_NOT_ALLOWED")
