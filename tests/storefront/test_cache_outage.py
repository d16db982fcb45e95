"""A hung Redis (accepts connections, never answers) does not slow the service down: the
cache client's short timeouts and the circuit breaker skip it, /health says so at once,
and the cache is used again once it answers.

Runs in every suite (the fake Redis is a local TCP server; the Redis that answers later is
REDIS_URL's server, or a redis-server started by the test) and again in the `cache` run.
"""

import logging
import time

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from apikit.caching import RecentAnswers
from infra.caching.backend import BreakerRedisCache
from infra.caching.versions import CacheVersions
from tests.catalog.factories import CategoryFactory
from tests.fake_redis import HungRedis, real_redis

pytestmark = [pytest.mark.django_db, pytest.mark.cache]

READ = "/publics/products/categories/tree"
PAUSE = 1  # CACHE_BREAKER_SECONDS of these tests


def breaker_cache_settings(url: str) -> dict:
    return {
        "default": {
            "BACKEND": "infra.caching.backend.BreakerRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "outage-test",
            "OPTIONS": {
                "CLIENT_CLASS": "django_redis.client.DefaultClient",
                "SOCKET_CONNECT_TIMEOUT": 0.05,
                "SOCKET_TIMEOUT": 0.08,
                "BREAKER_RESET_SECONDS": PAUSE,
            },
        }
    }


@pytest.fixture
def hung_redis():
    server = HungRedis()
    yield server
    server.stop()


@pytest.fixture
def hung_cache(hung_redis):
    """The default cache is a Redis that never answers (db 11: never a shared one)."""
    with override_settings(CACHES=breaker_cache_settings(hung_redis.url(db=11))):
        # breakers are per server and process-wide: an earlier test's server on the same port
        # may have left this one open (then its opening is not logged again)
        cache.breaker.reset()
        yield hung_redis


def timed_get(client, url):
    start = time.perf_counter()
    response = client.get(url)
    return response, time.perf_counter() - start


def breaker_records(caplog, word):
    return [
        r
        for r in caplog.records
        if r.name == "storefront.cache" and f"circuit breaker {word}" in r.getMessage()
    ]


def test_reads_stay_fast_and_the_breaker_opens_once_while_redis_hangs(
    api_client, hung_cache, caplog
):
    caplog.set_level(logging.INFO, logger="storefront.cache")

    start = time.perf_counter()
    responses = [api_client.get(READ) for _ in range(20)]
    elapsed = time.perf_counter() - start

    assert [r.status_code for r in responses] == [200] * 20
    assert elapsed < 2.0, f"20 reads took {elapsed:.2f} s with a hung cache"
    assert hung_cache.accepted >= 1  # the cache was tried
    assert isinstance(caches["default"], BreakerRedisCache)
    assert cache.breaker.state == "open"
    assert len(breaker_records(caplog, "open")) == 1  # once, not per request


def test_health_answers_at_once_and_says_degraded_while_the_breaker_is_open(api_client, hung_cache):
    first, first_seconds = timed_get(api_client, "/health")  # trips the breaker
    again, again_seconds = timed_get(api_client, "/health")  # skips the cache

    for response, seconds in ((first, first_seconds), (again, again_seconds)):
        assert seconds < 1.0
        assert response.status_code == 200
        assert response.json() == {
            "status": "degraded",
            "database": "ok",
            "cache": "unavailable",
            "cacheBreaker": "open",
        }
    assert again_seconds < 0.5


def test_the_breaker_probes_once_and_closes_when_redis_answers_again(
    api_client, hung_cache, caplog
):
    caplog.set_level(logging.INFO, logger="storefront.cache")
    api_client.get(READ)
    assert cache.breaker.state == "open"

    with real_redis() as (host, port, _db):
        hung_cache.answer_from(host, port)
        time.sleep(PAUSE + 0.1)
        assert cache.breaker.state == "half-open"

        response = api_client.get(READ)
        assert response.status_code == 200
        assert cache.breaker.state == "closed"
        cache.set("outage-test-key", "back", timeout=30)
        assert cache.get("outage-test-key") == "back"

        health = api_client.get("/health")
        assert health.json() == {
            "status": "ok",
            "database": "ok",
            "cache": "ok",
            "cacheBreaker": "closed",
        }
        cache.clear()

    assert len(breaker_records(caplog, "open")) == 1
    assert len(breaker_records(caplog, "closed")) == 1


def test_a_write_dropped_during_the_outage_is_deleted_not_replayed(hung_cache):
    with real_redis() as (host, port, _db):
        hung_cache.answer_from(host, port)
        time.sleep(PAUSE + 0.1)
        cache.set("ns-version:demo", 1, timeout=None)  # probe: closes the breaker
        assert cache.get("ns-version:demo") == 1
        cache.breaker.record_failure(TimeoutError("simulated outage"))

        cache.set("ns-version:demo", 2, timeout=None)  # a bump during the outage: dropped
        assert cache.breaker.state == "open"
        time.sleep(PAUSE + 0.1)
        cache.get("anything")  # the probe closes the breaker

        assert cache.breaker.state == "closed"
        # Neither the stale 1 nor a replayed 2: a miss, rebuilt from the clock by its owner.
        assert cache.get("ns-version:demo") is None
        cache.clear()


def test_rate_limit_counters_survive_an_outage_without_being_overwritten(
    api_client, hung_cache, monkeypatch
):
    from rest_framework.throttling import SimpleRateThrottle

    from tests.catalog.factories import ProductFactory

    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"public_write": "4/min"})
    product = ProductFactory()
    body = {"message": "Hello", "customerName": "Ana", "customerEmail": "ana@example.com"}

    def post():
        return api_client.post(f"/publics/products/{product.pk}/comments", body, format="json")

    with real_redis() as (host, port, _db):
        hung_cache.answer_from(host, port)
        time.sleep(PAUSE + 0.1)
        assert [post()["RateLimit-Remaining"] for _ in range(2)] == ["3", "2"]

        cache.breaker.record_failure(TimeoutError("simulated outage"))
        during = [post() for _ in range(3)]  # public writes fail open, uncounted
        assert [r.status_code for r in during] == [201, 201, 201]
        assert all("RateLimit-Remaining" not in r for r in during)

        time.sleep(PAUSE + 0.1)
        after = [post() for _ in range(3)]
        assert cache.breaker.state == "closed"
        # The counter went on from its state before the outage (2 hits): nothing wrote an
        # older or a locally rebuilt count over it.
        assert [r.status_code for r in after] == [201, 201, 429]
        assert [r["RateLimit-Remaining"] for r in after] == ["1", "0", "0"]
        cache.clear()


class _SkippedCache(DummyCache):
    """The shared cache while its breaker is open: every read a miss, writes dropped."""

    class breaker:
        state = "open"


def test_during_an_outage_each_process_serves_what_it_just_rendered(api_client, monkeypatch):
    # given versions kept in the shared cache (Redis), and the tree answered while it worked
    versions = CacheVersions()
    monkeypatch.setattr("infra.caching.versions._store", lambda: versions)
    first = api_client.get(READ)
    assert first.status_code == 200

    # when the shared cache becomes unreachable (breaker open)
    skipped = _SkippedCache("outage", {})
    monkeypatch.setattr("infra.caching.versions.cache", skipped)
    monkeypatch.setattr("infra.caching.backend.cache", skipped)
    monkeypatch.setattr("apikit.caching.cache", skipped)

    # then the answer this process rendered moments ago is served without a query
    with CaptureQueriesContext(connection) as queries:
        again = api_client.get(READ)
    assert again.content == first.content
    assert len(queries) == 0

    # and a change made by this process is seen at once (its own bump is remembered)
    CategoryFactory(name="Nova categoria")
    with CaptureQueriesContext(connection) as queries:
        changed = api_client.get(READ)
    assert len(queries) > 0
    assert b"Nova categoria" in changed.content

    # and nothing outlives RecentAnswers.SECONDS: later answers are rebuilt
    later = time.time() + RecentAnswers.SECONDS + 1
    monkeypatch.setattr("apikit.caching.time.time", lambda: later)
    with CaptureQueriesContext(connection) as queries:
        assert api_client.get(READ).status_code == 200
    assert len(queries) > 0
