"""Two releases of the code serving side by side (a rolling deploy) never read each other's
cached answers, fragments or values: the release is part of their keys, while namespace
versions stay shared."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apikit.caching import RECENT_ANSWERS
from infra.cache import cached, kept_clear
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
    assert api_client.get(url)["X-Cache"] == "miss"
    assert api_client.get(url)["X-Cache"] == "hit"

    as_release(settings, "release-b")
    with CaptureQueriesContext(connection) as queries:
        rendered = api_client.get(url)
    assert rendered["X-Cache"] == "miss" and len(queries) > 0  # its own address, read again
    assert rendered.json()["data"]["city"] == "São Paulo"

    as_release(settings, "release-a")
    assert api_client.get(url)["X-Cache"] == "hit"  # the first release's answer is still there


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
