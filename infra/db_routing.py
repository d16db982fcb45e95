"""Read replicas (settings DATABASE_REPLICA_URLS): reads of public GET requests go to a
replica, everything else to the primary ("default").

`ReplicaReadsMiddleware` marks a public GET/HEAD request (not the admin) as allowed to read
from one replica, picked at random per request; `ReplicaRouter` sends that request's reads
there until it writes (`db_for_write`), opens a transaction on the primary, or the data
changed a moment ago. Writes, the admin, management commands, background work and any
code outside such a request read and write the primary.

"Changed a moment ago": every cache namespace bump (a staff or customer change, see
`infra.cache.cache_namespace_bump`) calls `note_change`, and for the next
DATABASE_REPLICA_GRACE_SECONDS all reads go to the primary. The answers rebuilt right after
a change are what the shared cache keeps, so they must not come from a replica that has
not received the change yet (docs/decisions.md).
"""

from __future__ import annotations

import contextvars
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.http import HttpRequest, HttpResponse

PRIMARY = "default"
_CHANGE_KEY = "db:recent-change"


@dataclass
class _ReplicaReads:
    alias: str
    primary: bool = False  # stuck to the primary (wrote, or data changed a moment ago)
    checked_changes: bool = False


_reads: contextvars.ContextVar[_ReplicaReads | None] = contextvars.ContextVar(
    "replica_reads", default=None
)


def note_change() -> None:
    """Data changed: reads go to the primary for the grace period (every process)."""
    if settings.DATABASE_REPLICA_ALIASES:
        cache.set(_CHANGE_KEY, True, settings.DATABASE_REPLICA_GRACE_SECONDS)


class ReplicaRouter:
    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        state = _reads.get()
        if state is None or state.primary:
            return None  # the primary
        if connections[PRIMARY].in_atomic_block:
            return None  # a transaction on the primary reads what it writes
        if not state.checked_changes:
            state.checked_changes = True
            if cache.get(_CHANGE_KEY):
                state.primary = True
                return None
        return state.alias

    def db_for_write(self, model: Any, **hints: Any) -> str:
        state = _reads.get()
        if state is not None:
            state.primary = True  # read your writes: the rest of the request uses the primary
        return PRIMARY

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # replicas hold the same data as the primary

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == PRIMARY  # replicas receive the schema by replication


class ReplicaReadsMiddleware:
    """Lets a public GET/HEAD read from a replica (see the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        aliases = settings.DATABASE_REPLICA_ALIASES
        if (
            not aliases
            or request.method not in ("GET", "HEAD")
            or request.path.startswith(settings.ADMIN_PATH_PREFIX)
        ):
            return self.get_response(request)
        token = _reads.set(_ReplicaReads(alias=random.choice(aliases)))  # noqa: S311 (load spreading)
        try:
            return self.get_response(request)
        finally:
            _reads.reset(token)
