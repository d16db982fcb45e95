"""Values kept under the version of a namespace: `cached` in the cache (Redis or the local
one), `kept` and `kept_many` as plain objects in this process's memory (no unpickling per
request; read-only by callers), each good until one of its namespaces is bumped."""

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.conf import settings
from django.core.cache import cache

from .admission import Segments
from .backend import cache_reachable
from .versions import Versions, namespace_versions


def cached(namespace: str, key: str, build: Callable[[], Any]) -> Any:
    """The cached value for (namespace, key), built and stored on a miss (or an outage)."""
    full_key = f"{namespace}:{settings.RELEASE}:{namespace_versions((namespace,))[0]}:{key}"
    value = cache.get(full_key)
    if value is None:
        value = build()
        cache.set(full_key, value, timeout=settings.PUBLIC_CACHE_SECONDS)
    return value


_KEPT: dict[tuple[str, Any], tuple[Versions, float, Any]] = {}
# Keys may come from requests (an option id, a product): at most MAX_KEPT records, the
# least recently used first out, records used once (a warm batch's, a one-off key's) before
# those used again (infra.caching.admission). Each warmed kind holds CATALOGUE_LIMIT (5,000).
MAX_KEPT = 40_000
_ORDER: Segments[tuple[str, Any]] = Segments(max_bytes=MAX_KEPT)  # every record counts 1
_ORDER_LOCK = threading.Lock()
OUTAGE_KEEP_SECONDS = 5  # while the cache is unreachable, versions are blind: rebuild after


def _fresh(made: float) -> bool:
    return made > time.time() - OUTAGE_KEEP_SECONDS or cache_reachable()


Kept = TypeVar("Kept")


def kept(namespace: str, key: str, build: Callable[[], Kept]) -> Kept:
    """Store-wide read data, kept in this process until `namespace` changes (read-only)."""
    entry = _KEPT.get((namespace, key))
    if entry is not None and entry[0] == namespace_versions((namespace,)) and _fresh(entry[1]):
        _used([(namespace, key)])
        return cast(Kept, entry[2])
    built = kept_many(namespace, [key], lambda _: (namespace,), lambda _: {key: build()})
    return cast(Kept, built[key])


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
    _used([(kind, key) for key in found])
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
        made = time.time()
        with _ORDER_LOCK:
            for key, value in built.items():
                _KEPT[(kind, key)] = (stamps[key], made, value)
                for dropped in _ORDER.added((kind, key), 1):
                    _KEPT.pop(dropped, None)
        found.update((key, built[key]) for key in wanted if key in built)
    return found


def _used(records: list[tuple[str, Any]]) -> None:
    if records:
        with _ORDER_LOCK:
            for record in records:
                _ORDER.used(record)


def _stamps(
    keys: Iterable[Any], namespaces: Callable[[Any], tuple[str, ...]]
) -> dict[Any, tuple[int, ...]]:
    wanted = {key: namespaces(key) for key in keys}
    every = tuple({name for names in wanted.values() for name in names})
    versions = dict(zip(every, namespace_versions(every), strict=True))
    return {key: tuple(versions[name] for name in names) for key, names in wanted.items()}


_APART: dict[tuple[tuple[str, ...], str], tuple[Versions, float, Any]] = {}
_APART_LOCK = threading.Lock()


def kept_apart(namespaces: tuple[str, ...], key: str, build: Callable[[], Kept]) -> Kept:
    """One store-wide value kept in this process until one of `namespaces` moves, apart from
    the records of `kept_many`: their bound (MAX_KEPT, reached by per-product records in a
    large catalogue) never clears it. For a few large values each process holds one of (the
    catalogue listing, the ids of the product pages); built under a lock, once."""
    stamp = namespace_versions(namespaces)
    entry = _APART.get((namespaces, key))
    if entry is None or entry[0] != stamp or not _fresh(entry[1]):
        with _APART_LOCK:
            entry = _APART.get((namespaces, key))
            if entry is None or entry[0] != stamp or not _fresh(entry[1]):
                entry = _APART[(namespaces, key)] = (stamp, time.time(), build())
    return cast(Kept, entry[2])


def kept_clear() -> None:
    with _ORDER_LOCK:
        _KEPT.clear()
        _ORDER.clear()
    _WARMED.clear()
    _APART.clear()
