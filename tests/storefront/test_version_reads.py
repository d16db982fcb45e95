"""Namespace versions read from Redis (infra.caching.versions): a request's first read asks
only its own names (a hit's one round trip); a later read (a miss) also reads every
store-wide namespace the process has read before, so the views' `kept` calls find them."""

import threading

import pytest

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
