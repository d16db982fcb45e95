"""Live carrier quotes, the policy: which calls a quote makes and how long it waits. Per
integration a circuit breaker, a calls-per-minute budget counted in the shared cache (shared
by every process) and answers cached by origin, destination and parcel; the calls run on a
small thread pool and end by the quote's deadline. `live_answers` never raises nor waits past
it. Every call is logged (CarrierCall) through infra.deferred: written after the answer, by
shipping.services.carrier_calls_store; the jobs worker prunes the log
(shipping.services.carrier_calls_prune). The HTTP side is shipping.carrier_client.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from infra import deferred
from infra.circuit import CircuitBreaker, breaker_for

from .carrier_client import CarrierError, CarrierTimeout, Package, Parcel, Service, calculate
from .models import CallStatus, CarrierCall, CarrierIntegration

logger = logging.getLogger("storefront.carriers")

SUCCESS_SECONDS = 300
FAILURE_SECONDS = 30
MAX_THREADS = 8
MAX_ERROR_CHARS = 300
# The deferred records of the call log (infra.deferred; written by shipping.services).
CALL_LOG = "shipping.carrier-calls"


@dataclass(frozen=True)
class LiveAnswer:
    services: tuple[Service, ...] | None  # None: no answer (see `error`)
    error: str = ""
    expires: float = 0.0  # epoch seconds: when the cached answer goes


def breaker_of(integration: CarrierIntegration) -> CircuitBreaker:
    """This process's breaker of the integration as saved last: a save (a new `revision`, as
    every process reads it) starts a closed one, so a fixed integration is asked at once."""
    return breaker_for(
        f"carrier integration {integration.pk} revision {integration.revision}",
        reset_seconds=settings.CARRIER_BREAKER_SECONDS,
        subject="Carrier",
        while_open="its live options are left out of quotes",
        log=logger,
    )


def budget_take(integration: CarrierIntegration) -> bool:
    """Count one call in this minute's window (shared cache); False past the budget, or
    when the count cannot be kept (the cache is down: no call rather than too many)."""
    key = f"carrier-budget:{integration.pk}:{int(time.time() // 60)}"
    cache.add(key, 0, timeout=120)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between add and incr
        cache.set(key, 1, timeout=120)
        count = 1
    return isinstance(count, int) and count <= integration.calls_per_minute


def _answer_key(integration: CarrierIntegration, parcel: Parcel) -> str:
    text = repr((integration.revision, integration.base_url, integration.services, parcel)).encode()
    return f"carrier-answer:{integration.pk}:{hashlib.blake2b(text, digest_size=16).hexdigest()}"


Result = tuple[Service, ...] | CarrierError | None  # None: no answer by the deadline


# Its threads start with the first call.
_pool = ThreadPoolExecutor(MAX_THREADS, thread_name_prefix="carrier")


def _timed_call(
    integration: CarrierIntegration, parcel: Parcel, timeout: float
) -> tuple[float, Result]:
    started = time.monotonic()
    result: Result
    try:
        result = calculate(integration, parcel, timeout)
    except CarrierTimeout:
        result = None  # the socket's timeout noticed the deadline first: the same outcome
    except CarrierError as exc:
        result = exc
    return time.monotonic() - started, result


def _log(
    integration: CarrierIntegration, seconds: float, result: Result, when: datetime
) -> CarrierCall:
    """The call's log row (unsaved)."""
    if isinstance(result, tuple):
        status, http, options, error = CallStatus.OK, 200, len(result), ""
    elif result is None:
        status, http, options, error = CallStatus.TIMEOUT, None, 0, "no answer by the deadline"
    else:
        status, http, options, error = CallStatus.ERROR, result.http_status, 0, str(result)
    return CarrierCall(
        created_at=when,
        integration=integration,
        latency_ms=round(seconds * 1000),
        status=status,
        http_status=http,
        options=min(options, 32767),
        error=error[:MAX_ERROR_CHARS],
    )


def live_answers(
    calls: Sequence[tuple[CarrierIntegration, Parcel]], *, deadline: float
) -> list[LiveAnswer]:
    """The answer to each (integration, parcel), in order, by `deadline` (time.monotonic)."""
    answers: dict[int, LiveAnswer] = {}
    pending: dict[Future[tuple[float, Result]], int] = {}
    keys = [_answer_key(integration, parcel) for integration, parcel in calls]
    found = cache.get_many(keys) if keys else {}
    now, when = time.time(), timezone.now()
    for index, (integration, parcel) in enumerate(calls):
        if (cached := found.get(keys[index])) is not None:
            answers[index] = cached
        elif not breaker_of(integration).allow():
            answers[index] = LiveAnswer(
                None, "skipped: the carrier failed moments ago", now + FAILURE_SECONDS
            )
        elif not budget_take(integration):
            budget = integration.calls_per_minute
            answers[index] = LiveAnswer(
                None, f"over its budget of {budget} calls a minute", now + FAILURE_SECONDS
            )
        else:
            timeout = deadline - time.monotonic()
            pending[_pool.submit(_timed_call, integration, parcel, timeout)] = index
    if pending:
        done, _ = wait(pending, timeout=max(deadline - time.monotonic(), 0))
        for future, index in pending.items():
            integration = calls[index][0]
            breaker = breaker_of(integration)
            result: Result
            if future in done:
                seconds, result = future.result()
            else:
                future.cancel()
                seconds, result = time.time() - now, None
            deferred.record(CALL_LOG, _log(integration, seconds, result, when))
            if isinstance(result, tuple):
                breaker.record_success()
                answer = LiveAnswer(result, expires=now + SUCCESS_SECONDS)
            else:
                error = str(result) if result is not None else "no answer by the deadline"
                breaker.record_failure(result or TimeoutError(error))
                answer = LiveAnswer(None, error, expires=now + FAILURE_SECONDS)
            cache.set(keys[index], answer, timeout=round(answer.expires - now))
            answers[index] = answer
    return [answers[index] for index in range(len(calls))]


SAMPLE_PARCEL = Parcel(
    origin="01310100",
    destination="20040002",
    packages=(
        Package("sample", Decimal(11), Decimal(17), Decimal(11), Decimal(1), Decimal(10), 1),
    ),
)


def connection_test(integration: CarrierIntegration) -> CarrierCall:
    """One call with a sample parcel (São Paulo to Rio, 1 kg), logged and returned (the
    admin's "Test the connection", a POST: the log row is written at once)."""
    seconds, result = _timed_call(integration, SAMPLE_PARCEL, settings.CARRIER_TIMEOUT_MS / 1000)
    call = _log(integration, seconds, result, timezone.now())
    call.save()
    return call
