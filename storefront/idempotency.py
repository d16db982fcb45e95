"""Safe retries of public writes: the first answer per `Idempotency-Key` and caller.

A key is claimed (a unique row), then the request runs in one transaction that holds the row
locked and stores the answer beside the request's own writes: both commit or neither does.
A failure worth retrying (`keep=False`) releases the key; a claim whose request died is taken
over (at once where rows lock, else after its lease). The HTTP side is
storefront/api/idempotency.py.
"""

import contextlib
import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from .models import IdempotencyRecord

# Longer than any request may run (gunicorn's timeout): where rows do not lock (SQLite), a
# claim older than this belongs to a request that died.
LEASE = timedelta(seconds=60)
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL: FOR UPDATE NOWAIT found the row locked


class IdempotencyKeyReused(Exception):
    """The key was used (by this caller, within the TTL) with another request."""


class IdempotencyInProgress(Exception):
    """The first request with this key is still running."""


@dataclass(frozen=True)
class StoredAnswer:
    status_code: int
    content_type: str
    body: bytes


@dataclass(frozen=True)
class RunOutcome:
    answer: StoredAnswer
    keep: bool  # store it for retries (False: release the key, the retry runs again)
    rollback: bool  # undo the request's own writes


def idempotency_fingerprint(*, endpoint: str, data: Any) -> str:
    """The same endpoint and JSON value give the same fingerprint, whatever the key order."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{endpoint}\n{canonical}".encode("utf-8", "surrogatepass")).hexdigest()


def idempotent_call(
    *, key: str, caller: str, fingerprint: str, run: Callable[[], tuple[Any, RunOutcome]]
) -> Any | StoredAnswer:
    """Run `run` once per key and caller: `run`'s first value, or the StoredAnswer of an
    earlier run (a replay)."""
    claim = _claim(key=key, caller=caller, fingerprint=fingerprint, moment=timezone.now())
    if isinstance(claim, StoredAnswer):
        return claim
    try:
        return _run_claimed(record=claim, run=run)
    except (IdempotencyInProgress, IdempotencyKeyReused):
        raise
    except Exception:
        with contextlib.suppress(Exception):  # the database is gone: the lease frees it later
            IdempotencyRecord.objects.filter(pk=claim.pk, status_code__isnull=True).delete()
        raise


def _claim(
    *, key: str, caller: str, fingerprint: str, moment: datetime
) -> IdempotencyRecord | StoredAnswer:
    ttl = timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL)
    for _attempt in range(3):
        try:
            with transaction.atomic():
                return IdempotencyRecord.objects.create(
                    key=key,
                    caller=caller,
                    fingerprint=fingerprint,
                    created_at=moment,
                    locked_until=moment + LEASE,
                    expires_at=moment + ttl,
                )
        except IntegrityError:
            pass  # the key is taken: see by whom
        existing = IdempotencyRecord.objects.filter(key=key, caller=caller).first()
        if existing is None:
            continue  # purged meanwhile
        if existing.expires_at <= moment:
            IdempotencyRecord.objects.filter(pk=existing.pk, expires_at__lte=moment).delete()
            continue
        if existing.fingerprint != fingerprint:
            raise IdempotencyKeyReused
        if existing.status_code is not None:
            return _answer(existing)
        if existing.locked_until > moment and not connection.features.has_select_for_update_nowait:
            raise IdempotencyInProgress
        # Its request died before answering: take it over. Where rows lock (PostgreSQL) a live
        # request holds the row locked (_run_claimed), so _run_claimed tells at once.
        return existing
    raise IdempotencyInProgress


def _run_claimed(
    *, record: IdempotencyRecord, run: Callable[[], tuple[Any, RunOutcome]]
) -> Any | StoredAnswer:
    with transaction.atomic():
        try:
            with transaction.atomic():
                locked = (
                    IdempotencyRecord.objects.select_for_update(nowait=True)
                    .filter(pk=record.pk)
                    .first()
                )
        except OperationalError as exc:
            if getattr(exc.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
                raise IdempotencyInProgress from exc
            raise
        if locked is None:
            raise IdempotencyInProgress  # purged or released by another taker: retry later
        if locked.status_code is not None:
            return _answer(locked)  # another taker finished it meanwhile
        with transaction.atomic():  # the request's writes, undone alone on rollback
            result, outcome = run()
            if outcome.rollback:
                transaction.set_rollback(True)
        if outcome.keep:  # the answer's fields are the record's
            IdempotencyRecord.objects.filter(pk=locked.pk).update(**asdict(outcome.answer))
        else:
            locked.delete()
    return result


def _answer(record: IdempotencyRecord) -> StoredAnswer:
    assert record.status_code is not None
    return StoredAnswer(
        status_code=record.status_code, content_type=record.content_type, body=bytes(record.body)
    )
