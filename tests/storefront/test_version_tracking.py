"""Versions kept in process between their changes, with Redis (infra.caching.tracking): a
version read once is not asked again until Redis pushes its change, and a change made by
another client is seen by the next read, whatever happened to the connection meanwhile."""

import time

import pytest
import redis
from redis.exceptions import ResponseError

from infra.caching import versions
from infra.caching.tracking import VersionTracker, tracker_for
from tests.fake_redis import real_redis_cache

pytestmark = pytest.mark.cache

PREFIX = "ns-version:"


class CountingCache:
    """The cache, counting its `get_many` calls (each a round trip to Redis)."""

    def __init__(self, cache):
        self._cache = cache
        self.round_trips = 0

    def get_many(self, keys):
        self.round_trips += 1
        return self._cache.get_many(keys)

    def __getattr__(self, name):
        return getattr(self._cache, name)


@pytest.fixture
def tracked(monkeypatch):
    """(the counting cache, another Redis client writing as another process would)."""
    with real_redis_cache("version-tracking-test") as (cache, (host, port, db)):
        counting = CountingCache(cache)
        monkeypatch.setattr(versions, "cache", counting)
        other = redis.Redis(host=host, port=port, db=db)
        yield counting, other
        other.close()


def _key(cache, namespace):
    return str(cache.make_key(PREFIX + namespace))


def _read(namespace):
    return versions.CacheVersions().read((namespace,))[0]


def test_a_version_read_again_costs_no_round_trip(tracked):
    cache, _ = tracked
    first = _read("banners")  # started (its own push retires it)
    assert _read("banners") == first  # read of Redis, kept
    asked = cache.round_trips
    assert _read("banners") == first
    assert versions.CacheVersions().read(("banners",)) == (first,)
    assert cache.round_trips == asked  # both from the process


def test_another_clients_change_is_seen_by_the_next_read(tracked):
    cache, other = tracked
    _read("banners")
    _read("banners")  # kept now
    for version in (10**19, 10**19 + 1, 10**19 + 2):
        other.set(_key(cache, "banners"), version)  # acknowledged: its push is on its way
        assert _read("banners") == version
    other.delete(_key(cache, "banners"))  # evicted: started again, never the kept one
    assert _read("banners") != 10**19 + 2


def test_this_process_sees_its_own_bump_at_once(tracked):
    store = versions.CacheVersions()
    before = store.read(("products",))[0]
    store.read(("products",))
    after = store.bump("products")
    assert after > before
    assert store.read(("products",)) == (after,)


def test_a_read_that_spans_a_change_is_not_kept(tracked):
    cache, other = tracked
    _read("shipping")
    tracker = tracker_for(cache, PREFIX)
    _, since = tracker.known(("shipping",), time.monotonic(), True)
    old = cache.get(PREFIX + "shipping")
    other.set(_key(cache, "shipping"), 10**19)  # the change lands after the read
    time.sleep(0.05)  # its push has arrived
    tracker.keep({"shipping": old}, since, time.monotonic())
    assert tracker.known(("shipping",), time.monotonic(), True)[0] == {}
    assert _read("shipping") == 10**19


def test_a_cut_connection_forgets_what_it_kept(tracked):
    cache, other = tracked
    _read("reviews")
    _read("reviews")
    tracking = [client["id"] for client in other.client_list() if "t" in client.get("flags", "")]
    assert tracking  # this process's tracking connection
    for client_id in tracking:
        other.client_kill_filter(_id=client_id)
    other.set(_key(cache, "reviews"), 10**19)  # no push can tell it now
    assert _read("reviews") == 10**19


def test_a_flushed_database_forgets_what_was_kept(tracked):
    _, other = tracked
    first = _read("comments")
    _read("comments")
    other.flushdb()
    time.sleep(0.01)
    assert _read("comments") != first  # started again


def test_kept_versions_expire_without_a_push(tracked):
    cache, _ = tracked
    _read("store")
    _read("store")
    tracker = tracker_for(cache, PREFIX)
    now = time.monotonic()
    assert tracker.known(("store",), now, True)[0]
    later = now + VersionTracker.KEEP_SECONDS + 0.01
    assert tracker.known(("store",), later, True)[0] == {}


def test_an_unreachable_cache_is_not_connected_to(tracked):
    cache, _ = tracked
    tracker = tracker_for(cache, PREFIX)
    tracker.close()
    assert tracker.known(("store",), time.monotonic(), False) == ({}, -1)


class RefusingConnection:
    """A server without CLIENT TRACKING (Redis before 6, or the command disabled)."""

    connects = 0

    def __init__(self, **kwargs):
        pass

    def connect(self):
        RefusingConnection.connects += 1

    def send_command(self, *args):
        pass

    def read_response(self, **kwargs):
        raise ResponseError("unknown command 'CLIENT'")

    def disconnect(self):
        pass


def test_a_server_refusing_tracking_is_asked_every_time_and_not_retried():
    tracker = VersionTracker(RefusingConnection, {}, "p:ns-version:")
    now = time.monotonic()
    assert tracker.known(("a",), now, True) == ({}, -1)
    assert tracker.known(("a",), now + 3600, True) == ({}, -1)
    assert RefusingConnection.connects == 1
    tracker.keep({"a": 1}, -1, now)
    assert tracker.known(("a",), now, True) == ({}, -1)


class SilentConnection:
    """A connection cut without a word: it takes commands, and nothing ever comes back."""

    sent: list[tuple] = []

    def __init__(self, **kwargs):
        self._parser = self

    def set_invalidation_push_handler(self, handler):
        pass

    def connect(self):
        pass

    def send_command(self, *args):
        self.sent.append(args)

    def read_response(self, **kwargs):
        return b"OK"

    def can_read(self, timeout=0):
        return False

    def disconnect(self):
        pass


def test_a_connection_that_stops_answering_is_not_trusted_past_a_second_of_silence():
    tracker = VersionTracker(SilentConnection, {}, "p:ns-version:")
    now = time.monotonic()
    _, since = tracker.known(("a",), now, True)
    tracker.keep({"a": 7}, since, now)
    assert tracker.known(("a",), now + 0.5, True)[0] == {"a": 7}
    assert tracker.known(("a",), now + 1.5, True)[0] == {"a": 7}  # asks: a PING
    assert SilentConnection.sent[-1] == ("PING",)
    assert tracker.known(("a",), now + 2.0, True)[0] == {"a": 7}  # within a second of it
    assert tracker.known(("a",), now + 2.6, True) == ({}, -1)  # no PONG: forgotten
    assert tracker.known(("a",), now + 8, True)[0] == {}  # a new connection keeps nothing old
