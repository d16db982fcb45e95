"""infra.caching.backend.BoundedLocMemCache: the local-memory cache bounded in bytes, the
least recently used values going first."""

import pickle

from infra.caching.backend import BoundedLocMemCache

VALUE = "x" * 1000
SIZE = len(pickle.dumps(VALUE, pickle.HIGHEST_PROTOCOL))


def bounded(name: str, max_bytes: int) -> BoundedLocMemCache:
    cache = BoundedLocMemCache(name, {"OPTIONS": {"MAX_BYTES": max_bytes, "MAX_ENTRIES": 1000}})
    cache.clear()
    return cache


def test_the_least_recently_used_values_go_past_the_byte_bound():
    cache = bounded("test-bounded-lru", 3 * SIZE)
    for key in "abc":
        cache.set(key, VALUE)
    assert cache.get("a") == VALUE  # a is now the most recently used
    cache.set("d", VALUE)
    assert cache.get("b") is None  # the least recently used went
    assert [cache.get(key) for key in "acd"] == [VALUE] * 3
    assert cache.held_bytes == 3 * SIZE


def test_rewrites_deletes_expiry_and_clear_keep_the_count_exact():
    cache = bounded("test-bounded-count", 100 * SIZE)
    cache.set("a", VALUE)
    cache.set("a", "short")
    cache.set("b", VALUE, timeout=-1)  # expired at once
    assert cache.get("b") is None
    cache.set("c", VALUE)
    cache.delete("c")
    assert cache.held_bytes == len(pickle.dumps("short", pickle.HIGHEST_PROTOCOL))
    cache.clear()
    assert cache.held_bytes == 0


def test_the_entry_cull_recounts():
    cache = BoundedLocMemCache(
        "test-bounded-cull", {"OPTIONS": {"MAX_BYTES": 10**9, "MAX_ENTRIES": 3}}
    )
    cache.clear()
    for key in "abcde":
        cache.set(key, VALUE)
    assert cache.held_bytes == sum(map(len, cache._cache.values()))


def test_one_value_larger_than_the_bound_stays_alone():
    cache = bounded("test-bounded-large", SIZE // 2)
    cache.set("a", "small")
    cache.set("b", VALUE)
    assert cache.get("a") is None and cache.get("b") == VALUE


def test_values_read_again_are_not_pushed_out_by_values_stored_once():
    cache = bounded("test-bounded-admission", 10 * SIZE)
    cache.set("popular", VALUE)
    assert cache.get("popular") == VALUE  # read again: protected
    for number in range(100):  # random carts' quotes, each stored once and never read
        cache.set(f"cart-{number}", VALUE)
    assert cache.get("popular") == VALUE
    assert cache.get("cart-99") == VALUE
    assert cache.get("cart-0") is None
    assert cache.held_bytes <= 10 * SIZE
    assert cache.held_bytes == sum(map(len, cache._cache.values()))
