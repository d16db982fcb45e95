"""Namespace versions: `cache_namespace_bump(namespace)` retires every value kept under a
namespace at once, in every process; `invalidate_on_change` bumps it on any change of its
models (`REGISTRATIONS` lists them: docs/caching.md's table is checked against it).

Versions live in the shared cache (Redis) or, with the local-memory cache, in a memory-mapped
file (CACHE_VERSIONS_FILE) every process of the machine maps; with Redis each process keeps
the ones it read until Redis pushes their change (infra.caching.tracking). A request reads
each version once (`per_request`, opened by apikit.context's middleware).
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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.utils.connection import ConnectionProxy

from ..db_routing import note_change
from .backend import cache_is_local, cache_reachable
from .tracking import tracker_for

Versions = tuple[int, ...]


def _next_version(old: int) -> int:
    """Newer than `old` even when the clock stands still (frozen time) or steps back."""
    return max(old + 1, time.time_ns())


class CacheVersions:
    """Versions as keys of the shared cache, started from the clock: an evicted version key
    never brings old entries back."""

    KEY = "ns-version:{}"
    # Keys per round trip: one MGET of every version a pass of upkeep reads (70,000 for the
    # bench store's pages ahead) outlasts CACHE_TIMEOUT_MS, opens the breaker and reads as
    # all missing; 1,000 take about 2 ms.
    READ_BATCH = 1000

    def __init__(self) -> None:
        # Used while the cache is unreachable, so recent answers still serve (RecentAnswers).
        self.last_seen: dict[str, int] = {}

    def read(self, namespaces: tuple[str, ...]) -> Versions:
        tracker = tracker_for(cache, self.KEY.format(""))
        now = time.monotonic()
        kept, since = tracker.known(namespaces, now, cache_reachable()) if tracker else ({}, -1)
        asked = [namespace for namespace in namespaces if namespace not in kept]
        found = {}
        if asked:  # one round trip (per READ_BATCH) for the versions this process does not keep
            keys = [self.KEY.format(namespace) for namespace in asked]
            values = {}
            for start in range(0, len(keys), self.READ_BATCH):
                values.update(cache.get_many(keys[start : start + self.READ_BATCH]))
            found = {
                name: values[key] for name, key in zip(asked, keys, strict=True) if key in values
            }
            if tracker:
                tracker.keep(found, since, now)
        versions = []
        for namespace in namespaces:
            version = kept.get(namespace) or found.get(namespace)
            if version is None:
                if namespace in self.last_seen and not cache_reachable():
                    version = self.last_seen[namespace]
                else:  # started now, unless another process started it first
                    key = self.KEY.format(namespace)
                    started = time.time_ns()
                    added = cache.add(key, started, timeout=None)
                    version = started if added else cache.get(key) or started
            self.last_seen[namespace] = version
            versions.append(version)
        return tuple(versions)

    def bump(self, namespace: str) -> int:
        key = self.KEY.format(namespace)
        version = _next_version(max(cache.get(key) or 0, self.last_seen.get(namespace, 0)))
        cache.set(key, version, timeout=None)
        tracker = tracker_for(cache, self.KEY.format(""))
        if tracker:
            tracker.forget(namespace)
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
        version: int = self._U64.unpack_from(self._map, self._offset(namespace))[0]
        return version or self._epoch

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


def versions_are_local() -> bool:
    """True when versions live in the file every process of the machine maps (no Redis)."""
    if isinstance(cache, ConnectionProxy):
        return cache_is_local()
    return isinstance(cache, LocMemCache)


def _store() -> CacheVersions | FileVersions:
    if not versions_are_local():
        return _CACHE_VERSIONS
    return _file_versions(str(settings.CACHE_VERSIONS_FILE))


_request_versions: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "namespace_versions", default=None
)


@contextmanager
def per_request() -> Iterator[None]:
    """Inside the block (one request), each namespace's version is read once."""
    token = _request_versions.set({})
    try:
        yield
    finally:
        _request_versions.reset(token)


# The store-wide namespaces (no `:`, unlike a record's `product:<id>`) this process has read,
# at most MAX_STORE_WIDE: a request's later read of versions from Redis reads them too.
_STORE_WIDE: dict[str, None] = {}
MAX_STORE_WIDE = 128


def namespace_versions(namespaces: tuple[str, ...]) -> Versions:
    seen = _request_versions.get()
    if seen is None:
        return _store().read(namespaces)
    missing = tuple(namespace for namespace in namespaces if namespace not in seen)
    if missing:
        store = _store()
        if seen and store is _CACHE_VERSIONS:
            # Not the request's first read (a hit needs one): a miss, mostly, whose views go
            # on to read the versions of store-wide data one `kept` at a time. One round trip
            # to Redis reads them all now (earlier than asked: never a fresher value kept
            # under an older version, only one retired sooner).
            wanted = dict.fromkeys(missing)
            wanted.update((name, None) for name in _STORE_WIDE if name not in seen)
            missing = tuple(wanted)
        seen.update(zip(missing, store.read(missing), strict=True))
        if len(_STORE_WIDE) < MAX_STORE_WIDE:
            _STORE_WIDE.update((name, None) for name in missing if ":" not in name)
    return tuple(seen[namespace] for namespace in namespaces)


_JOURNALED: set[str] = set()  # namespaces bumped only through their journal


def journaled(namespace: str) -> None:
    """From now on `namespace` is bumped only by infra.caching.journal.journal_note."""
    _JOURNALED.add(namespace)


def cache_namespace_bump(*namespaces: str) -> None:
    """Forget every cached value of the namespaces, in every process."""
    refused = _JOURNALED.intersection(namespaces)
    if refused:
        raise ValueError(f"{sorted(refused)}: journaled, note the changed ids (journal_note)")
    bump_journaled(*namespaces)


def bump_journaled(*namespaces: str) -> None:
    """cache_namespace_bump without the journal check (the journal's own bump)."""
    # The replicas' grace first: a reader seeing the new version never reads a lagging replica.
    note_change()
    store, seen = _store(), _request_versions.get()
    for namespace in namespaces:
        version = store.bump(namespace)
        if seen is not None:
            seen[namespace] = version


@dataclass(frozen=True)
class Registration:
    """One `invalidate_on_change` call: `namespace` is the namespace, or `module.function`
    of a function giving the namespaces of the changed row; `models` are model labels."""

    namespace: str
    models: tuple[str, ...]


REGISTRATIONS: list[Registration] = []  # every call, in order (docs/caching.md checks it)


def invalidate_on_change(
    namespace: str | Callable[[Any], Iterable[str]], *models: type[Model]
) -> None:
    """Bump `namespace` (or the namespaces a function of the row gives) on every save, delete
    and many-to-many change of `models`; writes that skip signals bump it themselves."""
    if isinstance(namespace, str):
        name, fixed = namespace, (namespace,)
        namespaces_of: Callable[[Any], Iterable[str]] = lambda instance: fixed  # noqa: E731
        shown = namespace
    else:
        name, namespaces_of = namespace.__qualname__, namespace
        shown = f"{namespace.__module__}.{name}"
    registration = Registration(shown, tuple(model._meta.label for model in models))
    if registration not in REGISTRATIONS:
        REGISTRATIONS.append(registration)

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
