"""The shared-cache helpers: cached values, namespace invalidation, HTTP validators.

Marked `cache`: CI runs them again against Redis when REDIS_URL is set.
"""

from unittest import mock

import pytest
from django.core.cache import cache
from rest_framework.test import APIRequestFactory

from storefront.api.caching import cache_namespace_bump, cached, conditional_response, etag_for

pytestmark = pytest.mark.cache


def test_cached_builds_once_then_serves_from_cache():
    build = mock.Mock(return_value={"a": 1})
    assert cached("ns-test", "k", build) == {"a": 1}
    assert cached("ns-test", "k", build) == {"a": 1}
    assert build.call_count == 1


def test_namespace_bump_forgets_every_key_of_the_namespace_only():
    cached("ns-a", "k1", lambda: "old-1")
    cached("ns-a", "k2", lambda: "old-2")
    cached("ns-b", "k1", lambda: "other")
    cache_namespace_bump("ns-a")
    assert cached("ns-a", "k1", lambda: "new-1") == "new-1"
    assert cached("ns-a", "k2", lambda: "new-2") == "new-2"
    assert cached("ns-b", "k1", lambda: "changed") == "other"


def test_an_evicted_version_key_never_brings_old_entries_back():
    cached("ns-c", "k", lambda: "old")
    cache.delete("ns-version:ns-c")
    assert cached("ns-c", "k", lambda: "fresh") == "fresh"


def unreachable_redis_cache():
    from django_redis.cache import RedisCache

    return RedisCache(
        "redis://127.0.0.1:1/0",
        {
            "OPTIONS": {
                "CLIENT_CLASS": "django_redis.client.DefaultClient",
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.2,
                "SOCKET_TIMEOUT": 0.2,
            }
        },
    )


def test_a_redis_outage_is_a_cache_miss_not_an_error():
    with mock.patch("storefront.api.caching.cache", unreachable_redis_cache()):
        assert cached("ns-down", "k", lambda: "built") == "built"
        assert cached("ns-down", "k", lambda: "built again") == "built again"
        cache_namespace_bump("ns-down")  # does not raise either


def test_etag_is_stable_and_changes_with_the_payload():
    assert etag_for(b'{"a":1}') == etag_for(b'{"a":1}')
    assert etag_for(b'{"a":1}') != etag_for(b'{"a":2}')


def test_conditional_response_answers_304_for_a_matching_etag():
    factory = APIRequestFactory()
    payload = {"status": True, "data": [1, 2]}
    first = conditional_response(factory.get("/x"), payload, max_age=60)
    assert first.status_code == 200
    assert first["Cache-Control"] == "public, max-age=60"
    again = conditional_response(factory.get("/x", HTTP_IF_NONE_MATCH=first["ETag"]), payload)
    assert again.status_code == 304
    other = conditional_response(factory.get("/x", HTTP_IF_NONE_MATCH='"nope"'), payload)
    assert other.status_code == 200


def test_namespace_bump_works_while_the_clock_stands_still(monkeypatch):
    monkeypatch.setattr("storefront.api.caching.time.time_ns", lambda: 1_000)
    cached("ns-frozen", "k", lambda: "old")
    cache_namespace_bump("ns-frozen")
    assert cached("ns-frozen", "k", lambda: "new") == "new"
    cache_namespace_bump("ns-frozen")
    assert cached("ns-frozen", "k", lambda: "newer") == "newer"


def test_a_response_read_from_a_request_body_is_private():
    factory = APIRequestFactory()
    request = factory.generic("GET", "/x", b'{"codes": ["a"]}', content_type="application/json")
    response = conditional_response(request, {"status": True}, max_age=60)
    assert response["Cache-Control"] == "private, max-age=60"
