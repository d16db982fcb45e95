"""Read replicas (DATABASE_REPLICA_URLS): a public GET/HEAD (not the admin) reads from one
replica, picked at its first read, until it writes; everything else uses the primary.

A replica is skipped when the data changed a moment ago (`note_change`, called by every
cache namespace bump: DATABASE_REPLICA_GRACE_SECONDS on the primary, so rebuilt answers
never come from a lagging replica), when it has not replayed the primary's WAL position
noted after the last change, or when it does not answer (REPLICA_DOWN_SECONDS). A lagging
standby costs the primary the reads, never a stale answer (docs/decisions.md, issue 23).
"""

from __future__ import annotations

import contextvars
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections, transaction
from django.http import HttpRequest, HttpResponse

from .caching.backend import cache_reachable

PRIMARY = "default"
_CHANGE_KEY = "db:recent-change"  # set for the grace period after each change
_POSITION_KEY = "db:change-position"  # the primary's WAL position after the last change
REPLICA_BEHIND_RECHECK_SECONDS = 1.0
REPLICA_DOWN_SECONDS = 5.0


@dataclass
class _ReplicaReads:
    allowed: bool  # a public GET: may read from a replica
    alias: str | None = None  # the replica picked, once checked
    primary: bool = False  # stuck to the primary (wrote, or no replica fit)
    wrote: bool = False  # note the primary's position when the request ends


_reads: contextvars.ContextVar[_ReplicaReads | None] = contextvars.ContextVar(
    "replica_reads", default=None
)

# Per replica: the WAL position last seen replayed (None: no standby), until when skipped.
_replayed: dict[str, int | None] = {}
_skip_until: dict[str, float] = {}


def note_change() -> None:
    """Data changed: reads go to the primary for the grace, then to replicas that replayed it."""
    if not settings.DATABASE_REPLICA_ALIASES:
        return
    cache.set(_CHANGE_KEY, True, settings.DATABASE_REPLICA_GRACE_SECONDS)
    state = _reads.get()
    if state is not None:
        state.wrote = True  # noted when the request ends, its transactions committed
    else:
        transaction.on_commit(_note_position, using=PRIMARY)


def _lsn(alias: str, function: str) -> int | None:
    with connections[alias].cursor() as cursor:
        cursor.execute(f"SELECT {function}() - '0/0'")  # a fixed function name
        value = cursor.fetchone()[0]
    return None if value is None else int(value)


def _note_position() -> None:
    """Note the primary's WAL position in the shared cache, unless a later one is there."""
    if connections[PRIMARY].vendor != "postgresql":
        return
    try:
        position = _lsn(PRIMARY, "pg_current_wal_insert_lsn")
    except DatabaseError:
        return  # not available: the grace period alone holds reads on the primary
    if position is None:
        return
    for _ in range(3):  # two processes noting at once: the larger position stays
        noted = cache.get(_POSITION_KEY)
        if noted is not None and noted >= position:
            return
        cache.set(_POSITION_KEY, position, timeout=None)


def _fits(alias: str, position: int) -> bool:
    now = time.monotonic()
    if _skip_until.get(alias, 0.0) > now:
        return False
    connection = connections[alias]
    try:
        connection.close_if_health_check_failed()  # once per request, as Django does
        connection.ensure_connection()
        replayed = _replayed.get(alias, -1)  # -1: not asked yet
        if connection.vendor == "postgresql" and replayed is not None and replayed < position:
            replayed = _replayed[alias] = _lsn(alias, "pg_last_wal_replay_lsn")
            if replayed is not None and replayed < position:
                _skip_until[alias] = now + REPLICA_BEHIND_RECHECK_SECONDS
                return False
    except DatabaseError:  # Django closes the broken connection when the request ends
        _skip_until[alias] = now + REPLICA_DOWN_SECONDS
        return False
    return True


def _pick() -> str | None:
    if not cache_reachable():
        return None  # blind to other processes' changes: the primary
    found = cache.get_many([_CHANGE_KEY, _POSITION_KEY])
    if found.get(_CHANGE_KEY):
        return None
    position = found.get(_POSITION_KEY) or 0
    aliases = settings.DATABASE_REPLICA_ALIASES
    for alias in random.sample(aliases, len(aliases)):
        if _fits(alias, position):
            return alias
    return None


class ReplicaRouter:
    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        state = _reads.get()
        if state is None or not state.allowed or state.primary:
            return None  # the primary
        if connections[PRIMARY].in_atomic_block:
            return None  # a transaction on the primary reads what it writes
        if state.alias is None:
            state.alias = _pick()
            if state.alias is None:
                state.primary = True
                return None
        return state.alias

    def db_for_write(self, model: Any, **hints: Any) -> str:
        state = _reads.get()
        if state is not None:
            state.primary = True  # read your writes: the rest of the request uses the primary
            state.wrote = True
        return PRIMARY

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # replicas hold the same data as the primary

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == PRIMARY  # replicas receive the schema by replication


class ReplicaReadsMiddleware:
    """Lets a public GET/HEAD read from a replica; notes the primary's position after a write."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not settings.DATABASE_REPLICA_ALIASES:
            return self.get_response(request)
        allowed = request.method in ("GET", "HEAD") and not request.path.startswith(
            settings.ADMIN_PATH_PREFIX
        )
        state = _ReplicaReads(allowed=allowed)
        token = _reads.set(state)
        try:
            return self.get_response(request)
        finally:
            _reads.reset(token)
            if state.wrote:
                _note_position()
