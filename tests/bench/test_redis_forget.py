"""bench/run.py's Redis key prefix: one per configuration, emptied at a run's start and end
but for the namespace versions, so the pages an earlier run rendered ahead stay current."""

import redis

from bench.run import REDIS_PREFIX, redis_forget
from infra.caching.versions import CacheVersions
from tests.fake_redis import real_redis_cache


def test_a_run_forgets_its_answers_and_keeps_its_versions():
    prefix = REDIS_PREFIX.format("test-forget")
    version_key = CacheVersions.KEY.format("catalog.products")
    with real_redis_cache(prefix) as (cache, (host, port, db)):
        url = f"redis://{host}:{port}/{db}"
        cache.set(version_key, 1_700_000_000_123, timeout=None)
        cache.set("answer:/publics/products?limit=20", b'{"data":[]}', timeout=None)
        cache.set("summary:1", (b"head", b"tail"), timeout=None)
        other = redis.Redis(host=host, port=port, db=db)
        other.set("someone-else:1:answer:/x", b"kept")  # another prefix: never touched
        try:
            assert redis_forget(url, prefix) == 2
            assert cache.get(version_key) == 1_700_000_000_123
            assert cache.get("answer:/publics/products?limit=20") is None
            assert cache.get("summary:1") is None
            assert other.get("someone-else:1:answer:/x") == b"kept"
            assert redis_forget(url, prefix) == 0  # (nothing left to forget)
        finally:
            other.delete("someone-else:1:answer:/x")
            other.close()
