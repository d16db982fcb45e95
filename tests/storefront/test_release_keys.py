"""Two releases of the code serving side by side (a rolling deploy) never read each other's
cached answers, fragments or values: the release is part of their keys, while namespace
versions stay shared."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apikit.caching import RECENT_ANSWERS
from infra.caching.kept import cached, kept_clear
from tests.marketing.factories import UpsellFactory
from tests.shipping.factories import PostalCodeFactory

pytestmark = [pytest.mark.django_db, pytest.mark.cache]


def as_release(settings, release: str) -> None:
    """Another process of another release: its own memory, the same shared cache."""
    settings.RELEASE = release
    RECENT_ANSWERS.clear()
    kept_clear()


def cache_keys() -> set[str]:
    """Every key of the cache (local memory: as stored; Redis: as the code named them)."""
    backend = cache._cache if hasattr(cache, "_cache") else None
    return set(backend) if backend is not None else set(cache.keys("*"))


def test_each_release_renders_its_own_answers(api_client, settings):
    PostalCodeFactory(country="BRA", code="01310100", city="São Paulo")
    url = "/shipping/zipcode/consult/BRA/01310-100"
    as_release(settings, "release-a")
    first = api_client.get(url)
    assert (first["X-Cache"], first["X-Release"]) == ("miss", "release-a")
    again = api_client.get(url)
    assert (again["X-Cache"], again["X-Release"]) == ("hit", "release-a")

    as_release(settings, "release-b")
    with CaptureQueriesContext(connection) as queries:
        rendered = api_client.get(url)
    assert rendered["X-Cache"] == "miss" and len(queries) > 0  # its own address, read again
    assert rendered["X-Release"] == "release-b"
    assert rendered.json()["data"]["city"] == "São Paulo"

    as_release(settings, "release-a")
    kept = api_client.get(url)  # the first release's answer is still there
    assert (kept["X-Cache"], kept["X-Release"]) == ("hit", "release-a")


def test_every_answer_names_the_release_that_rendered_it(api_client, settings):
    as_release(settings, "release-c")
    assert api_client.get("/health")["X-Release"] == "release-c"
    missing = api_client.get("/no/such/page")
    assert missing.status_code == 404 and missing["X-Release"] == "release-c"


def test_each_release_renders_its_own_fragments(api_client, settings):
    offer = UpsellFactory()
    url = "/cart/upsell/cart"
    as_release(settings, "release-a")
    assert api_client.get(url).json()["id"] == offer.pk
    keys = cache_keys()
    as_release(settings, "release-b")
    assert api_client.get(url, {"offset": 0}).json()["id"] == offer.pk
    added = cache_keys() - keys
    assert any("products:release-b:" in key for key in added)  # the full product, again
    assert all("release-a" not in key for key in added)


def test_cached_values_are_keyed_by_release(settings):
    built = []
    settings.RELEASE = "release-a"
    assert cached("test-ns", "k", lambda: built.append(1) or "a") == "a"
    settings.RELEASE = "release-b"
    assert cached("test-ns", "k", lambda: built.append(1) or "b") == "b"
    settings.RELEASE = "release-a"
    assert cached("test-ns", "k", lambda: built.append(1) or "c") == "a"
    assert len(built) == 2
