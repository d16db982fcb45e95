"""Versions kept in process between their changes, with Redis (docs/caching.md, "Freshness
promises").

Every kept answer is checked against the versions of what it shows: with Redis, one MGET per
hit, about half of a hit's cost. So each process opens one more connection, in RESP3, and
asks Redis to push the name of every version key that changes, whoever changes it
(`CLIENT TRACKING ON BCAST PREFIX <the versions' prefix>`). A version read from Redis is
then kept in process until its key's change is pushed, only while that connection is up
and answers (a PING at most every second, one unanswered for a second ends the trust), and
KEEP_SECONDS at most.

Before kept versions are used, the pushes already received are read (a poll of the socket,
no round trip). Redis queues a change's push before it answers the write, so a change whose
write was acknowledged before a request arrives is seen by it, in every process: the same
promise as asking Redis. A read of Redis that overlaps a push (or a new connection) is used
but not kept: a value read just before its change is never kept past it. Any error on the
connection forgets everything kept and falls back to asking Redis, until a new connection
is made (RETRY_SECONDS later, and only while the cache's breaker is closed).
"""

import contextlib
import logging
import os
import threading
from collections import OrderedDict
from typing import Any

from django.core.signals import setting_changed
from redis.exceptions import RedisError, ResponseError

logger = logging.getLogger("storefront.cache")


class VersionTracker:
    # A connection cut without a word (a partition) brings no push and no error: a PING at
    # most every PING_SECONDS, and one unanswered for SILENT_SECONDS ends the trust.
    PING_SECONDS = 1.0
    SILENT_SECONDS = 1.0
    KEEP_SECONDS = 60.0  # and each version is read again after this, whatever happened
    RETRY_SECONDS = 5.0
    MAX_KEPT = 65_536  # versions kept (one per namespace or record), the least read go first

    def __init__(self, connection_class: type, connection_kwargs: dict[str, Any], prefix: str):
        self._connection_class = connection_class
        self._connection_kwargs = connection_kwargs | {"protocol": 3}
        self.prefix = prefix
        self._lock = threading.Lock()
        self._connection: Any = None
        self._pid = 0
        self._retry_at = 0.0
        self._refused = False  # the server refuses tracking (no CLIENT TRACKING): never again
        # name (a key without the prefix) -> (version, monotonic time kept until), oldest first
        self._kept: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self.changes = 0  # pushes read and connections made: a read that spans one is not kept
        self._heard_at = 0.0  # when the connection last answered (a PONG)
        self._ping_at: float | None = None  # when the PING awaiting its PONG was sent

    def known(
        self, names: tuple[str, ...], now: float, reachable: bool
    ) -> tuple[dict[str, int], int]:
        """The kept versions of `names` (after reading the pushes received), and the count of
        changes to hand to `keep` with what is read of Redis for the rest."""
        with self._lock:
            if not self._ready(now, reachable):
                return {}, -1
            found = {}
            for name in names:
                entry = self._kept.get(name)
                if entry is not None and entry[1] > now:
                    found[name] = entry[0]
                    self._kept.move_to_end(name)
            return found, self.changes

    def keep(self, versions: dict[str, int], since: int, now: float) -> None:
        """Keep `versions`, read of Redis after `known` gave `since`, unless a change was
        pushed (or the connection changed) meanwhile."""
        if since < 0 or not versions:
            return
        with self._lock:
            if self._connection is None or not self._drained(now) or self.changes != since:
                return
            until = now + self.KEEP_SECONDS
            for name, version in versions.items():
                self._kept[name] = (version, until)
                self._kept.move_to_end(name)
            while len(self._kept) > self.MAX_KEPT:
                self._kept.popitem(last=False)

    def forget(self, name: str) -> None:
        """This process changed `name` (its push may not have arrived yet)."""
        with self._lock:
            self._kept.pop(name, None)
            self.changes += 1

    def close(self) -> None:
        with self._lock:
            self._drop()

    # --- under the lock ---------------------------------------------------------------

    def _ready(self, now: float, reachable: bool) -> bool:
        if self._connection is not None and self._pid != os.getpid():
            self._connection, self._kept = None, OrderedDict()  # the parent's connection
        if self._connection is None:
            if self._refused or now < self._retry_at or not reachable:
                return False
            self._connect(now)
            return self._connection is not None
        if not self._drained(now):
            return False
        try:
            if self._ping_at is not None:
                if now - self._ping_at > self.SILENT_SECONDS:  # no PONG: presumed cut
                    raise TimeoutError("no answer to PING")
            elif now - self._heard_at > self.PING_SECONDS:
                self._connection.send_command("PING")
                self._ping_at = now
        except (RedisError, OSError):
            self._drop()
            self._retry_at = now + self.RETRY_SECONDS
            return False
        return True

    def _connect(self, now: float) -> None:
        connection = self._connection_class(**self._connection_kwargs)
        try:
            connection.connect()
            connection.send_command("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", self.prefix)
            connection.read_response()
        except ResponseError as exc:  # Redis before 6, or CLIENT disabled: ask every time
            self._refused = True
            logger.warning("Versions are read from Redis for every request: %s", exc)
            connection.disconnect()
            return
        except (RedisError, OSError):
            self._retry_at = now + self.RETRY_SECONDS
            connection.disconnect()
            return
        # What redis-py's own client-side cache does; its cache needs Redis 7.4.
        connection._parser.set_invalidation_push_handler(self._changed)
        self._connection, self._pid = connection, os.getpid()
        self._kept.clear()
        self.changes += 1
        self._heard_at, self._ping_at = now, None

    def _drained(self, now: float) -> bool:
        """Read every push (and PONG) received; False (and nothing kept) if the connection
        failed."""
        try:
            while self._connection.can_read(timeout=0):
                if self._connection.read_response(push_request=True) is not None:  # PONG
                    self._heard_at, self._ping_at = now, None
        except (RedisError, OSError):
            self._drop()
            self._retry_at = now + self.RETRY_SECONDS
            return False
        return True

    def _changed(self, push: list[Any]) -> None:
        """An `invalidate` push: the keys changed, or None when the database was flushed."""
        self.changes += 1
        keys = push[1]
        if keys is None:
            self._kept.clear()
            return
        cut = len(self.prefix)
        for key in keys:
            self._kept.pop((key.decode() if isinstance(key, bytes) else key)[cut:], None)

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        self._kept.clear()
        self.changes += 1
        if connection is not None:
            with contextlib.suppress(RedisError, OSError):
                connection.disconnect()


_trackers: dict[tuple[str, str], VersionTracker] = {}  # (location, prefix) -> its tracker
# (id of a backend, prefix) -> (the backend, held so its id stays its own; its tracker)
_of_backend: dict[tuple[int, str], tuple[Any, VersionTracker | None]] = {}
_trackers_lock = threading.Lock()


def tracker_for(backend: Any, prefix: str) -> VersionTracker | None:
    """The process's tracker of the keys under `prefix` (a key as the application names it)
    in `backend`'s Redis; None for another backend."""
    resolved = _of_backend.get((id(backend), prefix))
    if resolved is not None:
        return resolved[1]
    tracker = None
    make_key = getattr(backend, "make_key", None)
    client: Any = getattr(backend, "client", None)
    made = str(make_key(prefix)) if make_key is not None else ""
    # (not a KEY_FUNCTION whose keys do not end in the application's key)
    if hasattr(client, "get_client") and made.endswith(prefix):
        location = repr(getattr(backend, "_server", ""))
        with _trackers_lock:
            tracker = _trackers.get((location, made))
            if tracker is None:
                pool = client.get_client(write=False).connection_pool
                tracker = VersionTracker(pool.connection_class, pool.connection_kwargs, made)
                _trackers[(location, made)] = tracker
    _of_backend[(id(backend), prefix)] = (backend, tracker)
    return tracker


def _settings_changed(*, setting: str, **kwargs: Any) -> None:
    if setting == "CACHES":
        with _trackers_lock:
            for tracker in _trackers.values():
                tracker.close()
            _trackers.clear()
            _of_backend.clear()


setting_changed.connect(_settings_changed)
