"""Namespace versions read from Redis (infra.caching.versions): a request's first read asks
only its own names (a hit's one round trip); a later read (a miss) also reads every
store-wide namespace the process has read before, so the views' `kept` calls find them."""

import threading

import pytest
from django.conf import settings

from infra.caching import versions
from infra.caching.versions import cache_namespace_bump, namespace_versions, per_request
from tests.fake_redis import real_redis_cache

pytestmark = pytest.mark.cache


@pytest.fixture
def redis_versions(monkeypatch):
    """Versions in a real Redis; each read's names, in order."""
    with real_redis_cache("version-reads-test", backend="django_redis.cache.RedisCache"):
        reads: list[tuple[str, ...]] = []
        read = versions.CacheVersions.read

        def spy(self, namespaces):
            reads.append(namespaces)
            return read(self, namespaces)

        monkeypatch.setattr(versions.CacheVersions, "read", spy)
        monkeypatch.setattr(versions, "_STORE_WIDE", {})
        yield reads


def test_a_later_read_of_a_request_reads_the_store_wide_namespaces_in_one_round_trip(
    redis_versions,
):
    reads = redis_versions
    with per_request():  # a process's first request: learns what it reads
        namespace_versions(("products",))
        namespace_versions(("banners", "product:1"))
        namespace_versions(("shipping",))
    assert reads == [("products",), ("banners", "product:1"), ("shipping",)]
    reads.clear()
    with per_request():  # the next: its first read as asked (a hit needs no more)
        namespace_versions(("products",))
        assert reads == [("products",)]
        # its second read brings every store-wide name seen (no record's) in one call
        namespace_versions(("product:2",))
        assert reads[1][0] == "product:2"
        assert set(reads[1]) == {"product:2", "banners", "shipping"}
        namespace_versions(("banners",))
        namespace_versions(("shipping",))
    assert len(reads) == 2  # nothing more to ask


def test_a_store_wide_version_read_early_is_current_when_read(redis_versions):
    with per_request():
        old = namespace_versions(("banners",))
    with per_request():
        namespace_versions(("products",))
        # another writer's bump as the request starts (a thread: not this request's context)
        writer = threading.Thread(target=cache_namespace_bump, args=("banners",))
        writer.start()
        writer.join()
        namespace_versions(("product:3",))  # reads `banners` with it: the bumped version
        assert namespace_versions(("banners",)) > old


def test_a_pass_reading_every_page_version_keeps_the_breaker_closed(monkeypatch):
    """Upkeep checks every page rendered ahead at once (70,000 versions on the bench store):
    read in one MGET it outlasted the 80 ms socket timeout, opened the breaker and saw every
    page stale, so each pass rendered them all again. Read in batches, it sees them current."""
    from django.core.cache import caches

    from infra.caching.backend import cache_reachable

    production = {  # config/settings.py's socket timeouts
        "SOCKET_CONNECT_TIMEOUT": settings.CACHE_CONNECT_TIMEOUT_MS / 1000,
        "SOCKET_TIMEOUT": settings.CACHE_TIMEOUT_MS / 1000,
    }
    with real_redis_cache("version-batches-test", options=production) as (cache, _):
        names = tuple(f"product:{number}" for number in range(70_000))
        stored = {name: 1_700_000_000_000_000_000 + number for number, name in enumerate(names)}
        key = versions.CacheVersions.KEY.format
        items = [(key(name), version) for name, version in stored.items()]
        for start in range(0, len(items), 5_000):
            cache.set_many(dict(items[start : start + 5_000]), timeout=None)
        asked: list[int] = []  # keys per round trip (how long one takes depends on the machine)
        backend = caches["default"]
        get_many = backend.get_many
        monkeypatch.setattr(
            backend, "get_many", lambda keys: asked.append(len(keys)) or get_many(keys)
        )
        with per_request():
            read = namespace_versions(names)
        assert cache_reachable()
        assert read == tuple(stored.values())
        assert max(asked) <= versions.CacheVersions.READ_BATCH
        assert sum(asked) == len(names)
