"""The shared cache by namespace: values kept until their data changes, in every process.

Invalidation is by namespace version: `cache_namespace_bump("categories")` makes every
key of that namespace unreachable at once, in every process of the store;
`invalidate_on_change(namespace, *models)` bumps it on every save, delete and many-to-many
change of the models (the one side effect allowed in signals).

Where the versions live (`_store()`):

- with a shared cache (Redis), in it: every machine of the store reads the same versions;
- with the embedded local-memory cache, in a small memory-mapped file beside the database
  (CACHE_VERSIONS_FILE): the workers of `make serve`, `manage.py` commands and the job
  worker all map the same file, so a change made by any of them is seen by the next answer
  of every other, at the cost of a memory read per namespace (docs/decisions.md, issue 19).

Three ways to keep a value:

- `kept(namespace, key, build)`: store-wide read data (the category index, shipping
  tables, price rules...) kept as plain objects in this process's memory and rebuilt when
  the namespace's version moves: no unpickling per request. Callers never mutate them.
- `cached(namespace, key, build)`: per-key values (a postal code's address) in the cache.
- Versions of single records (`product:<id>`) are namespaces too: a fragment keyed by
  its product's version survives other products' changes. What a rendering read is
  noted with `depend_on` inside `recording()`; `still_current` checks it later.

A request reads each version once (`versions_per_request` middleware): with Redis, each
read fetches the namespaces asked for that are not read yet, in one round trip.
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
    """The shared cache's circuit breaker (None: a cache without one), found once."""
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
    """Larger than the old version and the clock: it differs from the old one even when the
    clock stands still (frozen time in tests) or steps back."""
    return max(old + 1, time.time_ns())


class CacheVersions:
    """Versions as keys of the shared cache. A version starts from the clock, so an evicted
    version key never brings old entries back."""

    KEY = "ns-version:{}"

    def __init__(self) -> None:
        # The versions this process last read or wrote: while the shared cache is unreachable
        # (its breaker open), keys keep them, so what the process rendered in the last
        # moments (apikit.caching.RecentAnswers) still serves instead of every read rebuilding.
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
    """Versions in a memory-mapped file shared by every process of one machine.

    The file holds a header (the moment it was made: the version of a slot never bumped)
    and SLOTS 64-bit slots; a namespace's version is the slot its name hashes to. Two names
    sharing a slot only means a change of one also retires the other's values. Reads are
    a memory read; a bump is a locked read-modify-write (flock between processes, a lock
    between threads). A torn read can only give a version nobody stored values under.
    """

    SLOTS = 1 << 16
    _HEADER = struct.Struct("<Q")
    _SLOT = struct.Struct("<Q")

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._pid = 0
        self._fd = -1
        self._offsets: dict[str, int] = {}
        self._open()

    def _open(self) -> None:
        size = self._HEADER.size + self.SLOTS * self._SLOT.size
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.fstat(fd).st_size < size:
                os.ftruncate(fd, size)
                os.pwrite(fd, self._HEADER.pack(time.time_ns()), 0)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
        self._map = mmap.mmap(fd, size)
        self._fd, self._pid = fd, os.getpid()
        self._epoch = self._HEADER.unpack_from(self._map, 0)[0]

    def _offset(self, namespace: str) -> int:
        offset = self._offsets.get(namespace)
        if offset is None:
            if len(self._offsets) >= self.SLOTS:
                self._offsets.clear()
            digest = hashlib.blake2b(namespace.encode(), digest_size=8).digest()
            offset = self._HEADER.size + int.from_bytes(digest, "little") % self.SLOTS * 8
            self._offsets[namespace] = offset
        return offset

    def _version(self, namespace: str) -> int:
        return self._SLOT.unpack_from(self._map, self._offset(namespace))[0] or self._epoch

    def read(self, namespaces: tuple[str, ...]) -> Versions:
        return tuple(map(self._version, namespaces))

    def bump(self, namespace: str) -> int:
        with self._lock:
            if self._pid != os.getpid():  # forked: a lock of our own, on our own descriptor
                self._open()
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                version = _next_version(self._version(namespace))
                self._SLOT.pack_into(self._map, self._offset(namespace), version)
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        return version


_CACHE_VERSIONS = CacheVersions()
_FILE_VERSIONS: dict[str, FileVersions] = {}
_FILE_LOCK = threading.Lock()


def _store() -> CacheVersions | FileVersions:
    """The file beside the database when the cache is this process's memory, else the cache."""
    local = (
        cache_is_local() if isinstance(cache, ConnectionProxy) else isinstance(cache, LocMemCache)
    )
    if not local:
        return _CACHE_VERSIONS
    path = str(settings.CACHE_VERSIONS_FILE)
    store = _FILE_VERSIONS.get(path)
    if store is None:
        with _FILE_LOCK:
            store = _FILE_VERSIONS.get(path) or FileVersions(path)
            _FILE_VERSIONS[path] = store
    return store


# --- Versions, once per request -------------------------------------------------------

_request_versions: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "namespace_versions", default=None
)


def versions_per_request(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable:
    """Middleware: a request reads each namespace's version once (its own bumps included)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        token = _request_versions.set({})
        try:
            return get_response(request)
        finally:
            _request_versions.reset(token)

    return middleware


def namespace_versions(namespaces: tuple[str, ...]) -> Versions:
    """The current version of each namespace (one cache call at most)."""
    seen = _request_versions.get()
    if seen is None:
        return _store().read(namespaces)
    missing = tuple(namespace for namespace in namespaces if namespace not in seen)
    if missing:
        seen.update(zip(missing, _store().read(missing), strict=True))
    return tuple(seen[namespace] for namespace in namespaces)


def cache_namespace_bump(*namespaces: str) -> None:
    """Forget every cached value of the namespaces, in every process (call on any change
    to their data)."""
    # First the replicas' grace (reads go to the primary for a moment), so a reader that
    # sees a new version also sees the grace and never rebuilds from a lagging replica.
    note_change()
    store, seen = _store(), _request_versions.get()
    for namespace in namespaces:
        version = store.bump(namespace)
        if seen is not None:
            seen[namespace] = version


# --- What a rendering depends on ------------------------------------------------------

_recorded: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "cache_dependencies", default=None
)


@contextmanager
def recording() -> Iterator[dict[str, int]]:
    """Collect the versions `depend_on` notes inside the block (they also reach an
    enclosing recording: an answer depends on what its fragments depend on)."""
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
    """The current versions of `namespaces`, noted in the recording under way."""
    names = tuple(namespaces)
    versions = dict(zip(names, namespace_versions(names), strict=True))
    noted = _recorded.get()
    if noted is not None:
        noted.update(versions)
    return versions


def still_current(dependencies: dict[str, int]) -> bool:
    """True when none of the recorded versions moved (noting them again if so)."""
    return not dependencies or depend_on(dependencies) == dependencies


# --- Keeping values -------------------------------------------------------------------


def cached(namespace: str, key: str, build: Callable[[], Any], timeout: int | None = None) -> Any:
    """Return the cached value for (namespace, key), building and storing it on a miss.

    A cache outage (Redis down) is a miss: the value is built from the database.
    """
    full_key = f"{namespace}:{settings.RELEASE}:{namespace_versions((namespace,))[0]}:{key}"
    value = cache.get(full_key)
    if value is None:
        value = build()
        cache.set(
            full_key,
            value,
            timeout=settings.PUBLIC_CACHE_SECONDS if timeout is None else timeout,
        )
    return value


_KEPT: dict[tuple[str, Any], tuple[Versions, float, Any]] = {}
MAX_KEPT = 20_000  # keys may come from requests (an option id, a product): a bound, then start over
# While the shared cache is unreachable its versions are the last ones seen, blind to other
# processes' changes: kept values are then rebuilt when older than this (as RecentAnswers).
OUTAGE_KEEP_SECONDS = 5


def _fresh(made: float) -> bool:
    """Whether a value kept since `made` may still be served: always while the shared
    cache answers (its versions tell), for OUTAGE_KEEP_SECONDS while it does not."""
    return made > time.time() - OUTAGE_KEEP_SECONDS or cache_reachable()


Kept = TypeVar("Kept")


def kept(namespace: str, key: str, build: Callable[[], Kept]) -> Kept:
    """Store-wide read data, kept in this process's memory until `namespace` changes.

    The value is shared by every request of the process: treat it as read-only.
    """
    entry = _KEPT.get((namespace, key))
    if entry is not None and entry[0] == namespace_versions((namespace,)) and _fresh(entry[1]):
        return entry[2]
    return kept_many(namespace, [key], lambda _: (namespace,), lambda _: {key: build()})[key]


@dataclass(frozen=True)
class Warm:
    """How a miss of `kept_many` warms the store: `keys(start, stop)` gives a slice of every
    key there is (a catalogue's, in a fixed order); each miss also builds, in the same call,
    the next `batch` of them this process has not built since `namespace` last moved, so
    random traffic fills the store in batches, not a query or six a key (issue 19)."""

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
    """Records kept in this process's memory (plain data, read-only), each until one of its
    `namespaces(key)` moves; the missing and outdated ones built by one `build(keys)` call
    (keys it leaves out are not found, and not kept), with the next batch of `warm` keys
    when given. Versions are read before building."""
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
    """{key: the versions of its namespaces}, read in one call."""
    wanted = {key: namespaces(key) for key in keys}
    every = tuple({name for names in wanted.values() for name in names})
    versions = dict(zip(every, namespace_versions(every), strict=True))
    return {key: tuple(versions[name] for name in names) for key, names in wanted.items()}


def kept_clear() -> None:
    """Forget what this process keeps (tests, between their databases)."""
    _KEPT.clear()
    _WARMED.clear()


def invalidate_on_change(
    namespace: str | Callable[[Any], Iterable[str]], *models: type[Model]
) -> None:
    """Bump `namespace` whenever a row of `models` is saved or deleted, or one of their
    many-to-many links changes (the one side effect allowed in signals). `namespace` may
    be a function of the changed row giving the namespaces to bump (a record's own).

    Writes that skip signals (`QuerySet.update`, raw SQL imports) bump it themselves.
    """
    if isinstance(namespace, str):
        name, fixed = namespace, (namespace,)
        namespaces_of: Callable[[Any], Iterable[str]] = lambda instance: fixed  # noqa: E731
    else:
        name, namespaces_of = namespace.__qualname__, namespace

    def bump(instance: Model, **kwargs: Any) -> None:
        cache_namespace_bump(*namespaces_of(instance))

    def bump_on_link(action: str, instance: Model, **kwargs: Any) -> None:
        if action in ("post_add", "post_remove", "post_clear"):
            cache_namespace_bump(*namespaces_of(instance))

    for model in models:
        uid = f"{name}:{model._meta.label}"
        post_save.connect(bump, sender=model, weak=False, dispatch_uid=f"{uid}:save")
        post_delete.connect(bump, sender=model, weak=False, dispatch_uid=f"{uid}:delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(
                bump_on_link,
                sender=field.remote_field.through,
                weak=False,
                dispatch_uid=f"{uid}:{field.name}",
            )
