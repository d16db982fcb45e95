"""The cache backends settings.CACHES names, and what the rest of the layer asks of them.

`BreakerRedisCache`: django-redis behind a per-process circuit breaker (infra.circuit).

An outage (a connection error or a timeout of tens of milliseconds) opens the breaker: for
BREAKER_RESET_SECONDS every operation is skipped (reads miss, writes are dropped), then one
caller probes. So a hung Redis costs a worker one short timeout per pause, never a 500.
Dropped writes are never replayed: their keys are deleted when the breaker closes, so a value
changed during the outage is rebuilt, not served stale (rate-limit add/incr are not remembered).
"""

import functools
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.core.cache import cache, caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.signals import setting_changed
from django.utils.connection import ConnectionProxy
from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..circuit import breaker_for
from .admission import Segments

logger = logging.getLogger("storefront.cache")

# The server cannot be reached or does not answer: the breaker opens.
OUTAGE_ERRORS = (RedisConnectionError, RedisTimeoutError, ConnectionInterrupted, OSError)

# What a skipped or failed call returns (else None, as with IGNORE_EXCEPTIONS).
_FALLBACKS: dict[str, Callable[[], Any]] = {
    "get_many": dict,
    "has_key": lambda: False,
    "keys": list,
    "delete_many": lambda: 0,
}

# No network I/O, or lazy objects doing it after the call returns: not guarded (unused here).
_UNGUARDED = {"close", "client", "lock", "iter_keys", "sscan_iter"}
# Writes whose keys are deleted when an outage ends.
_REMEMBERED_WRITES = {"set", "delete", "set_many", "delete_many"}
MAX_REMEMBERED_KEYS = 10_000


class DroppedWrites:
    """Keys of writes dropped during an outage, per process and Redis location."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._keys: set[str] = set()
        self.overflowed = False

    def add(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        first = args[0] if args else kwargs.get("key", kwargs.get("data", kwargs.get("keys", ())))
        keys = [first] if name in ("set", "delete") else list(first)
        with self._lock:
            for key in keys:
                if len(self._keys) >= MAX_REMEMBERED_KEYS:
                    self.overflowed = True
                    return
                self._keys.add(key)

    def take(self) -> tuple[list[str], bool]:
        with self._lock:
            keys, overflowed = list(self._keys), self.overflowed
            self._keys, self.overflowed = set(), False
        return keys, overflowed


_dropped: dict[str, DroppedWrites] = {}  # per Redis location, shared by every thread's backend


def _redacted(location: str) -> str:
    """Without credentials (for logs)."""
    first = location.split(",")[0]
    parts = urlsplit(first)
    if parts.hostname is None:
        return first
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname}{port}{parts.path}"


def _guarded(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    fallback = _FALLBACKS.get(name, lambda: None)

    @functools.wraps(method)
    def wrapper(self: "BreakerRedisCache", *args: Any, **kwargs: Any) -> Any:
        if name == "get":
            default = args[1] if len(args) > 1 else kwargs.get("default")
            miss: Callable[[], Any] = lambda: default  # noqa: E731
        else:
            miss = fallback
        breaker = self.breaker
        if not breaker.allow():
            if name in _REMEMBERED_WRITES:
                self.dropped_writes.add(name, args, kwargs)
            return miss()
        try:
            result = method(self, *args, **kwargs)
        except OUTAGE_ERRORS as exc:
            if name in _REMEMBERED_WRITES:  # it may or may not have reached Redis
                self.dropped_writes.add(name, args, kwargs)
            breaker.record_failure(exc)
            return miss()
        except RedisError as exc:
            # Redis answered, with an error (a bug or a full server): not an outage.
            self._answered()
            logger.warning("Cache %s failed: %s: %s", name, type(exc).__name__, exc)
            return miss()
        except BaseException:
            self._answered()  # Redis answered (e.g. ValueError from incr)
            raise
        self._answered()
        return result

    return wrapper


class BreakerRedisCache(RedisCache):
    """RedisCache with a circuit breaker (OPTIONS["BREAKER_RESET_SECONDS"]) around every
    operation, in place of IGNORE_EXCEPTIONS."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS", {}))
        reset_seconds = float(options.pop("BREAKER_RESET_SECONDS", 3))
        options["IGNORE_EXCEPTIONS"] = False
        super().__init__(server, {**params, "OPTIONS": options})
        self._ignore_exceptions = False
        name = _redacted(str(server))
        self.breaker = breaker_for(name, reset_seconds=reset_seconds)
        self.dropped_writes = _dropped.setdefault(name, DroppedWrites())  # atomic

    def _answered(self) -> None:
        if self.breaker.record_success():
            self._forget_dropped_writes()

    def _forget_dropped_writes(self) -> None:
        keys, overflowed = self.dropped_writes.take()
        if overflowed:
            logger.warning(
                "More than %d cache writes were dropped during the outage: cached values "
                "may be stale until they expire (CACHE_TIMEOUT, PUBLIC_CACHE_SECONDS).",
                MAX_REMEMBERED_KEYS,
            )
        if keys:
            self.delete_many(keys)
            logger.info("Deleted %d cache keys written during the outage.", len(keys))


def _wrap_operations() -> None:
    for name, member in vars(RedisCache).items():
        if name.startswith("_") or name in _UNGUARDED or not callable(member):
            continue
        setattr(BreakerRedisCache, name, _guarded(name, member))


_wrap_operations()


@functools.cache
def _default_breaker() -> Any:
    return getattr(caches["default"], "breaker", None)


@functools.cache
def cache_is_local() -> bool:
    """True when the default cache is this process's own memory (no shared cache)."""
    return isinstance(caches["default"], LocMemCache)


def _settings_changed(*, setting: str, **kwargs: Any) -> None:
    if setting == "CACHES":
        _default_breaker.cache_clear()
        cache_is_local.cache_clear()


setting_changed.connect(_settings_changed)


def cache_reachable() -> bool:
    """False while the cache backend's circuit breaker skips the shared cache."""
    if isinstance(cache, ConnectionProxy):
        breaker = _default_breaker()
    else:  # a backend set in place of the proxy (tests)
        breaker = getattr(cache, "breaker", None)
    return breaker is None or breaker.state == "closed"


_segments: dict[str, Segments] = {}  # cache name -> its keys' order and bytes, shared like
# LocMemCache's data


class BoundedLocMemCache(LocMemCache):
    """LocMemCache bounded in bytes too (OPTIONS `MAX_BYTES`): answers weigh 0.3 to 10 KB, so
    an entry count alone lets a worker grow by 100 MB. Values go in a segmented LRU
    (infra.caching.admission): one read after they were stored protects them from the values
    stored once and never read (a random cart's quote). (`incr` is not recounted: a few
    bytes of drift per counter.)"""

    # LocMemCache's own state (not in django-stubs)
    _cache: "OrderedDict[str, bytes]"
    _expire_info: dict[str, float | None]
    _lock: threading.Lock

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        super().__init__(name, params)
        max_bytes = int(params.get("OPTIONS", {}).get("MAX_BYTES", 40 * 1024 * 1024))
        self._segments = _segments.setdefault(name, Segments(max_bytes))
        self._segments.max_bytes = max_bytes
        self._segments.protected_bytes_max = int(max_bytes * 0.8)

    @property
    def held_bytes(self) -> int:
        """The bytes of the pickled values held."""
        return self._segments.bytes

    def validate_key(self, key: str) -> None:
        """No memcached key checks (a Python loop over each character of each key, 2 % of a
        cached answer's instructions): the keys are the project's, and Redis takes any."""

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        missing = object()
        value = super().get(key, missing, version)
        if value is missing:
            return default
        with self._lock:
            self._segments.used(self.make_key(key, version=version))
        return value

    def _set(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT) -> None:
        super()._set(key, value, timeout)  # type: ignore[misc]
        for evicted in self._segments.added(key, len(value)):
            del self._cache[evicted]
            del self._expire_info[evicted]

    def _cull(self) -> None:
        super()._cull()  # type: ignore[misc]
        self._segments.retain(self._cache)

    def _delete(self, key: str) -> bool:
        deleted: bool = super()._delete(key)  # type: ignore[misc]
        if deleted:
            self._segments.removed(key)
        return deleted

    def clear(self) -> None:
        with self._lock:  # as LocMemCache.clear, the segments too
            self._cache.clear()
            self._expire_info.clear()
            self._segments.clear()
