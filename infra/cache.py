"""The shared cache by namespace: values kept until staff change their data.

Invalidation is by namespace version: `cache_namespace_bump("categories")` makes every
key of that namespace unreachable at once; `invalidate_on_change(namespace, *models)`
bumps it on every save, delete and many-to-many change of the models (the one side effect
allowed in signals). The version starts from the clock, so an evicted version key never
brings old entries back. A cache outage is a miss: values are built from the database.
"""

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save

from .db_routing import note_change

_VERSION_KEY = "ns-version:{namespace}"

# The versions this process last read or wrote, per namespace: while the shared cache is
# unreachable (its circuit breaker open), keys keep them, so what the process rendered in the
# last moments (apikit.caching.RecentAnswers) still serves instead of every read rebuilding.
_LAST_SEEN: dict[str, int] = {}


def cache_reachable() -> bool:
    """False while the cache backend's circuit breaker skips the shared cache."""
    breaker = getattr(cache, "breaker", None)
    return breaker is None or breaker.state == "closed"


def _namespace_version(namespace: str) -> int:
    key = _VERSION_KEY.format(namespace=namespace)
    version = cache.get(key)
    if version is None:
        if namespace in _LAST_SEEN and not cache_reachable():
            return _LAST_SEEN[namespace]
        version = time.time_ns()
        cache.add(key, version, timeout=None)
        version = cache.get(key) or version
    _LAST_SEEN[namespace] = version
    return version


def cache_namespace_bump(namespace: str) -> None:
    """Forget every cached value of the namespace (call on any change to its data).

    The new version is larger than both the old one and the clock, so it differs from the
    old one even when the clock stands still (frozen time in tests) or steps back.
    """
    key = _VERSION_KEY.format(namespace=namespace)
    old = max(cache.get(key) or 0, _LAST_SEEN.get(namespace, 0))
    version = max(old + 1, time.time_ns())
    cache.set(key, version, timeout=None)
    _LAST_SEEN[namespace] = version  # this process sees its own change even in an outage
    note_change()  # reads go to the primary for a moment (read replicas)


def cached(namespace: str, key: str, build: Callable[[], Any], timeout: int | None = None) -> Any:
    """Return the cached value for (namespace, key), building and storing it on a miss.

    A cache outage (Redis down) is a miss: the value is built from the database.
    """
    full_key = f"{namespace}:{_namespace_version(namespace)}:{key}"
    value = cache.get(full_key)
    if value is None:
        value = build()
        cache.set(
            full_key,
            value,
            timeout=settings.PUBLIC_CACHE_SECONDS if timeout is None else timeout,
        )
    return value


def namespace_versions(namespaces: tuple[str, ...]) -> tuple[int, ...]:
    """The current version of each namespace, read in one cache call."""
    keys = [_VERSION_KEY.format(namespace=namespace) for namespace in namespaces]
    found = cache.get_many(keys)
    versions = []
    for key, namespace in zip(keys, namespaces, strict=True):
        version = found.get(key)
        if version is None:
            version = _namespace_version(namespace)
        else:
            _LAST_SEEN[namespace] = version
        versions.append(version)
    return tuple(versions)


def invalidate_on_change(namespace: str, *models: type[Model]) -> None:
    """Bump `namespace` whenever a row of `models` is saved or deleted, or one of their
    many-to-many links changes (the one side effect allowed in signals).

    Writes that skip signals (`QuerySet.update`, raw SQL imports) bump it themselves.
    """

    def bump(**kwargs: Any) -> None:
        cache_namespace_bump(namespace)

    def bump_on_link(action: str, **kwargs: Any) -> None:
        if action in ("post_add", "post_remove", "post_clear"):
            cache_namespace_bump(namespace)

    for model in models:
        uid = f"{namespace}:{model._meta.label}"
        post_save.connect(bump, sender=model, weak=False, dispatch_uid=f"{uid}:save")
        post_delete.connect(bump, sender=model, weak=False, dispatch_uid=f"{uid}:delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(
                bump_on_link,
                sender=field.remote_field.through,
                weak=False,
                dispatch_uid=f"{uid}:{field.name}",
            )
