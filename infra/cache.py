"""The shared cache by namespace: `cache_namespace_bump(namespace)` retires every value of it
at once, in every process; `invalidate_on_change` bumps it on any change of its models.

Versions live in the shared cache (Redis) or, with the local-memory cache, in a memory-mapped
file (CACHE_VERSIONS_FILE) every process of the machine maps (docs/decisions.md, issue 19).
`kept` keeps store-wide read data as plain objects in this process (no unpickling per
request); `cached` keeps per-key values in the cache; `depend_on`/`still_current` track the
versions of single records (`product:<id>`) a rendering read.
"""

import contextvars
import fcntl
import functools
import hashlib
import mmap
import os
import struct
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.signals import setting_changed
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpRequest, HttpResponse
from django.utils.connection import ConnectionProxy

from .db_routing import note_change

Versions = tuple[int, ...]


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


def _next_version(old: int) -> int:
    """Newer than `old` even when the clock stands still (frozen time) or steps back."""
    return max(old + 1, time.time_ns())


class CacheVersions:
    """Versions as keys of the shared cache, started from the clock: an evicted version key
    never brings old entries back."""

    KEY = "ns-version:{}"

    def __init__(self) -> None:
        # Used while the cache is unreachable, so recent answers still serve (RecentAnswers).
        self.last_seen: dict[str, int] = {}

    def read(self, namespaces: tuple[str, ...]) -> Versions:
        keys = [self.KEY.format(namespace) for namespace in namespaces]
        found = cache.get_many(keys)
        versions = []
        for key, namespace in zip(keys, namespaces, strict=True):
            version = found.get(key)
            if version is None:
                if namespace in self.last_seen and not cache_reachable():
                    version = self.last_seen[namespace]
                else:
                    cache.add(key, time.time_ns(), timeout=None)
                    version = cache.get(key) or time.time_ns()
            self.last_seen[namespace] = version
            versions.append(version)
        return tuple(versions)

    def bump(self, namespace: str) -> int:
        key = self.KEY.format(namespace)
        version = _next_version(max(cache.get(key) or 0, self.last_seen.get(namespace, 0)))
        cache.set(key, version, timeout=None)
        self.last_seen[namespace] = version  # this process sees its own change in an outage
        return version


class FileVersions:
    """Versions in a memory-mapped file shared by every process of one machine: a header
    (its creation time, the version of an unbumped slot) and SLOTS slots a name hashes to
    (a shared slot only retires more). Bumps take flock; a torn read gives an unused version."""

    SLOTS = 1 << 16
    _U64 = struct.Struct("<Q")  # the header and each slot

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._offsets: dict[str, int] = {}
        self._open()

    def _open(self) -> None:
        size = (1 + self.SLOTS) * self._U64.size
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.fstat(fd).st_size < size:
                os.ftruncate(fd, size)
                os.pwrite(fd, self._U64.pack(time.time_ns()), 0)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
        self._map = mmap.mmap(fd, size)
        self._fd, self._pid = fd, os.getpid()
        self._epoch = self._U64.unpack_from(self._map, 0)[0]

    def _offset(self, namespace: str) -> int:
        offset = self._offsets.get(namespace)
        if offset is None:
            if len(self._offsets) >= self.SLOTS:
                self._offsets.clear()
            digest = hashlib.blake2b(namespace.encode(), digest_size=8).digest()
            offset = self._offsets[namespace] = (
                1 + int.from_bytes(digest, "little") % self.SLOTS
            ) * 8
        return offset

    def _version(self, namespace: str) -> int:
        return self._U64.unpack_from(self._map, self._offset(namespace))[0] or self._epoch

    def read(self, namespaces: tuple[str, ...]) -> Versions:
        return tuple(map(self._version, namespaces))

    def bump(self, namespace: str) -> int:
        with self._lock:
            if self._pid != os.getpid():  # forked: a lock of our own, on our own descriptor
                self._open()
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                version = _next_version(self._version(namespace))
                self._U64.pack_into(self._map, self._offset(namespace), version)
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        return version


_CACHE_VERSIONS = CacheVersions()
_file_versions = functools.cache(FileVersions)  # by path; a race only maps the file twice


def _store() -> CacheVersions | FileVersions:
    local = (
        cache_is_local() if isinstance(cache, ConnectionProxy) else isinstance(cache, LocMemCache)
    )
    if not local:
        return _CACHE_VERSIONS
    return _file_versions(str(settings.CACHE_VERSIONS_FILE))


_request_versions: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "namespace_versions", default=None
)


def versions_per_request(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable:
    """Middleware: a request reads each namespace's version once."""

    def middleware(request: HttpRequest) -> HttpResponse:
        token = _request_versions.set({})
        try:
            return get_response(request)
        finally:
            _request_versions.reset(token)

    return middleware


def namespace_versions(namespaces: tuple[str, ...]) -> Versions:
    seen = _request_versions.get()
    if seen is None:
        return _store().read(namespaces)
    missing = tuple(namespace for namespace in namespaces if namespace not in seen)
    if missing:
        seen.update(zip(missing, _store().read(missing), strict=True))
    return tuple(seen[namespace] for namespace in namespaces)


def cache_namespace_bump(*namespaces: str) -> None:
    """Forget every cached value of the namespaces, in every process."""
    # The replicas' grace first: a reader seeing the new version never reads a lagging replica.
    note_change()
    store, seen = _store(), _request_versions.get()
    for namespace in namespaces:
        version = store.bump(namespace)
        if seen is not None:
            seen[namespace] = version


_recorded: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "cache_dependencies", default=None
)


@contextmanager
def recording() -> Iterator[dict[str, int]]:
    """Collect the versions `depend_on` notes inside the block (and pass them outwards)."""
    outer = _recorded.get()
    found: dict[str, int] = {}
    token = _recorded.set(found)
    try:
        yield found
    finally:
        _recorded.reset(token)
        if outer is not None:
            outer.update(found)


def depend_on(namespaces: Iterable[str]) -> dict[str, int]:
    names = tuple(namespaces)
    versions = dict(zip(names, namespace_versions(names), strict=True))
    noted = _recorded.get()
    if noted is not None:
        noted.update(versions)
    return versions


def still_current(dependencies: dict[str, int]) -> bool:
    return not dependencies or depend_on(dependencies) == dependencies


def cached(namespace: str, key: str, build: Callable[[], Any]) -> Any:
    """The cached value for (namespace, key), built and stored on a miss (or an outage)."""
    full_key = f"{namespace}:{settings.RELEASE}:{namespace_versions((namespace,))[0]}:{key}"
    value = cache.get(full_key)
    if value is None:
        value = build()
        cache.set(full_key, value, timeout=settings.PUBLIC_CACHE_SECONDS)
    return value


_KEPT: dict[tuple[str, Any], tuple[Versions, float, Any]] = {}
MAX_KEPT = 20_000  # keys may come from requests (an option id, a product): a bound, then start over
OUTAGE_KEEP_SECONDS = 5  # while the cache is unreachable, versions are blind: rebuild after


def _fresh(made: float) -> bool:
    return made > time.time() - OUTAGE_KEEP_SECONDS or cache_reachable()


Kept = TypeVar("Kept")


def kept(namespace: str, key: str, build: Callable[[], Kept]) -> Kept:
    """Store-wide read data, kept in this process until `namespace` changes (read-only)."""
    entry = _KEPT.get((namespace, key))
    if entry is not None and entry[0] == namespace_versions((namespace,)) and _fresh(entry[1]):
        return entry[2]
    return kept_many(namespace, [key], lambda _: (namespace,), lambda _: {key: build()})[key]


@dataclass(frozen=True)
class Warm:
    """A miss of `kept_many` also builds the next `batch` of `keys(start, stop)` (every key,
    in a fixed order) not built since `namespace` moved: batches, not queries per key."""

    namespace: str
    keys: Callable[[int, int], Sequence[Any]]
    batch: int = 200


_WARMED: dict[tuple[str, str, int], int] = {}  # (kind, namespace, version) -> keys walked


def _to_warm(kind: str, warm: Warm) -> list[Any]:
    version = namespace_versions((warm.namespace,))[0]
    done = _WARMED.get((kind, warm.namespace, version), 0)
    batch = list(warm.keys(done, done + warm.batch))
    if len(_WARMED) > 64:  # cursors of old versions
        _WARMED.clear()
    _WARMED[(kind, warm.namespace, version)] = done + len(batch)
    return batch


def kept_many(
    kind: str,
    keys: Iterable[Any],
    namespaces: Callable[[Any], tuple[str, ...]],
    build: Callable[[list[Any]], dict[Any, Any]],
    warm: Warm | None = None,
) -> dict[Any, Any]:
    """Records kept in this process (read-only), each until one of `namespaces(key)` moves;
    the missing ones built by one `build(keys)` call (with `warm`'s next batch)."""
    wanted = dict.fromkeys(keys)
    stamps = _stamps(wanted, namespaces)
    found: dict[Any, Any] = {}
    for key, stamp in stamps.items():
        entry = _KEPT.get((kind, key))
        if entry is not None and entry[0] == stamp and _fresh(entry[1]):
            found[key] = entry[2]
    missing = [key for key in stamps if key not in found]
    if missing:
        if warm is not None:
            extra = _stamps([key for key in _to_warm(kind, warm) if key not in wanted], namespaces)
            for key, stamp in extra.items():
                entry = _KEPT.get((kind, key))
                if entry is None or entry[0] != stamp:
                    stamps[key] = stamp
                    missing.append(key)
        built = build(missing)
        if len(_KEPT) + len(built) > MAX_KEPT:
            _KEPT.clear()
            _WARMED.clear()
        made = time.time()
        for key, value in built.items():
            _KEPT[(kind, key)] = (stamps[key], made, value)
        found.update((key, built[key]) for key in wanted if key in built)
    return found


def _stamps(
    keys: Iterable[Any], namespaces: Callable[[Any], tuple[str, ...]]
) -> dict[Any, tuple[int, ...]]:
    wanted = {key: namespaces(key) for key in keys}
    every = tuple({name for names in wanted.values() for name in names})
    versions = dict(zip(every, namespace_versions(every), strict=True))
    return {key: tuple(versions[name] for name in names) for key, names in wanted.items()}


def kept_clear() -> None:
    _KEPT.clear()
    _WARMED.clear()


def invalidate_on_change(
    namespace: str | Callable[[Any], Iterable[str]], *models: type[Model]
) -> None:
    """Bump `namespace` (or the namespaces a function of the row gives) on every save, delete
    and many-to-many change of `models`; writes that skip signals bump it themselves."""
    if isinstance(namespace, str):
        name, fixed = namespace, (namespace,)
        namespaces_of: Callable[[Any], Iterable[str]] = lambda instance: fixed  # noqa: E731
    else:
        name, namespaces_of = namespace.__qualname__, namespace

    def bump(instance: Model, action: str = "", **kwargs: Any) -> None:
        if not action.startswith("pre_"):  # a many-to-many change bumps once it is made
            cache_namespace_bump(*namespaces_of(instance))

    for model in models:
        uid = f"{name}:{model._meta.label}"
        post_save.connect(bump, sender=model, weak=False, dispatch_uid=f"{uid}:save")
        post_delete.connect(bump, sender=model, weak=False, dispatch_uid=f"{uid}:delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(
                bump,
                sender=field.remote_field.through,
                weak=False,
                dispatch_uid=f"{uid}:{field.name}",
            )
