"""Live carrier quotes: the one place that speaks HTTP to carriers, to a freight aggregator's
API shaped like Melhor Envio's ``POST /api/v2/me/shipment/calculate`` (tables of kind
"live"). Its ``custom_*`` values (the account's own markup and days) win when present.

`live_answers` never raises nor waits past the quote's deadline: per integration a circuit
breaker, a calls-per-minute budget counted in the shared cache (shared by every process),
and answers cached by origin, destination and parcel. Every call is logged (CarrierCall).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from datetime import timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from infra.circuit import CircuitBreaker, breaker_for

from .models import CallStatus, CarrierCall, CarrierIntegration

logger = logging.getLogger("storefront.carriers")

CALCULATE_PATH = "/api/v2/me/shipment/calculate"
MAX_BODY_BYTES = 256 * 1024
SUCCESS_SECONDS = 300
FAILURE_SECONDS = 30
MAX_THREADS = 8
MAX_ERROR_CHARS = 300


class CarrierError(Exception):
    def __init__(self, message: str, http_status: int | None = None) -> None:
        super().__init__(message)
        self.http_status = http_status


@dataclass(frozen=True)
class Package:
    """One product line of a parcel (cm, kg, BRL per unit), as the API takes it."""

    id: str
    width: Decimal
    height: Decimal
    length: Decimal
    weight: Decimal
    insurance_value: Decimal
    quantity: int


@dataclass(frozen=True)
class Parcel:
    origin: str  # normalized postal codes
    destination: str
    packages: tuple[Package, ...]


@dataclass(frozen=True)
class Service:
    id: int
    name: str
    company: str
    price: Decimal
    min_days: int
    max_days: int


@dataclass(frozen=True)
class LiveAnswer:
    services: tuple[Service, ...] | None  # None: no answer (see `error`)
    error: str = ""
    expires: float = 0.0  # epoch seconds: when the cached answer goes


def json_decimal(value: Any) -> Decimal | None:
    """A JSON number or numeric string as a finite Decimal, else None."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _price(value: Any) -> Decimal | None:
    number = json_decimal(value)
    return number if number is not None and number >= 0 else None


def _days(service: dict) -> tuple[int, int] | None:
    for name in ("custom_delivery_range", "delivery_range"):
        found = service.get(name)
        if isinstance(found, dict):
            low, high = found.get("min"), found.get("max")
            if isinstance(low, int) and isinstance(high, int) and 0 <= low <= high <= 365:
                return low, high
    for name in ("custom_delivery_time", "delivery_time"):
        days = service.get(name)
        if isinstance(days, int) and not isinstance(days, bool) and 0 <= days <= 365:
            return days, days
    return None


def parse_answer(data: Any) -> tuple[Service, ...]:
    """The services of an answer that can carry the parcel; CarrierError when the answer
    is not a list of services."""
    if not isinstance(data, list):
        raise CarrierError("the answer is not a list of services")
    services = []
    for entry in data:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), int):
            raise CarrierError("a service has no id")
        if entry.get("error"):
            continue  # this service cannot carry the parcel
        price = _price(entry.get("custom_price")) or _price(entry.get("price"))
        days = _days(entry)
        if price is None or days is None:
            continue
        company = entry.get("company")
        company = company if isinstance(company, dict) else {}
        services.append(
            Service(
                id=entry["id"],
                name=str(entry.get("name") or entry["id"])[:100],
                company=str(company.get("name") or "")[:100],
                price=price,
                min_days=days[0],
                max_days=days[1],
            )
        )
    return tuple(services)


def _request_body(integration: CarrierIntegration, parcel: Parcel) -> dict[str, Any]:
    body: dict[str, Any] = {
        "from": {"postal_code": parcel.origin},
        "to": {"postal_code": parcel.destination},
        "products": [
            {
                name: float(value) if isinstance(value, Decimal) else value
                for name, value in asdict(package).items()
            }
            for package in parcel.packages
        ],
        "options": {"receipt": False, "own_hand": False},
    }
    if integration.services:
        body["services"] = integration.services
    return body


def json_answer(request: urllib.request.Request, timeout: float, max_bytes: int) -> Any:
    """The JSON answer to a request (its URL's scheme checked by the caller); CarrierError on
    any failure, with the HTTP status in `http_status` when there was an answer."""
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            body = response.read(max_bytes + 1)
    except urllib.error.HTTPError as exc:
        raise CarrierError(f"HTTP {exc.code}", exc.code) from None
    except (OSError, ValueError) as exc:  # URLError, timeouts, resets, a bad URL
        raise CarrierError(f"{type(exc).__name__}: {exc}") from None
    if len(body) > max_bytes:
        raise CarrierError("the answer is too long", 200)
    try:
        return json.loads(body)
    except ValueError:
        raise CarrierError("the answer is not JSON", 200) from None


def calculate(
    integration: CarrierIntegration, parcel: Parcel, timeout: float
) -> tuple[Service, ...]:
    """One call to the API; CarrierError on any failure (HTTP status in `http_status`)."""
    token = integration.token()
    if not token:
        raise CarrierError(f"the environment variable {integration.token_variable} is empty")
    url = integration.base_url.rstrip("/") + CALCULATE_PATH
    if not url.startswith(("https://", "http://")):
        raise CarrierError("the base URL must be an http(s) URL")
    request = urllib.request.Request(  # noqa: S310 (the scheme is checked above)
        url,
        data=json.dumps(_request_body(integration, parcel)).encode(),
        method="POST",
        headers={
            "Accept": "application/json",
            "Content-Type": "application/json",
            "Authorization": f"Bearer {token}",
            "User-Agent": settings.CARRIER_USER_AGENT,
        },
    )
    data = json_answer(request, max(timeout, 0.01), MAX_BODY_BYTES)
    try:
        return parse_answer(data)
    except CarrierError as exc:
        exc.http_status = 200
        raise


def breaker_of(integration_id: int) -> CircuitBreaker:
    return breaker_for(
        f"carrier integration {integration_id}",
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


# Its threads start with the first call.
_pool = ThreadPoolExecutor(MAX_THREADS, thread_name_prefix="carrier")


def _timed_call(
    integration: CarrierIntegration, parcel: Parcel, timeout: float
) -> tuple[float, tuple[Service, ...] | CarrierError]:
    started = time.monotonic()
    try:
        result: tuple[Service, ...] | CarrierError = calculate(integration, parcel, timeout)
    except CarrierError as exc:
        result = exc
    return time.monotonic() - started, result


def _log(integration: CarrierIntegration, seconds: float, result: Any, when: Any) -> CarrierCall:
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
    pending: dict[Future, int] = {}
    keys = [_answer_key(integration, parcel) for integration, parcel in calls]
    found = cache.get_many(keys) if keys else {}
    now, when = time.time(), timezone.now()
    for index, (integration, parcel) in enumerate(calls):
        if (cached := found.get(keys[index])) is not None:
            answers[index] = cached
        elif not breaker_of(integration.pk).allow():
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
        logs = []
        for future, index in pending.items():
            integration = calls[index][0]
            breaker = breaker_of(integration.pk)
            if future in done:
                seconds, result = future.result()
            else:
                future.cancel()
                seconds, result = time.time() - now, None
            logs.append(_log(integration, seconds, result, when))
            if isinstance(result, tuple):
                breaker.record_success()
                answer = LiveAnswer(result, expires=now + SUCCESS_SECONDS)
            else:
                error = str(result) if result is not None else "no answer by the deadline"
                breaker.record_failure(result or TimeoutError(error))
                answer = LiveAnswer(None, error, expires=now + FAILURE_SECONDS)
            cache.set(keys[index], answer, timeout=round(answer.expires - now))
            answers[index] = answer
        CarrierCall.objects.bulk_create(logs)
        _call_log_prune(now)
    return [answers[index] for index in range(len(calls))]


_pruned_at = 0.0


def _call_log_prune(now: float) -> None:
    """The call log keeps CARRIER_CALL_LOG_DAYS days (looked at hourly by each process)."""
    global _pruned_at
    if now - _pruned_at < 3600:
        return
    _pruned_at = now
    oldest = timezone.now() - timedelta(days=settings.CARRIER_CALL_LOG_DAYS)
    CarrierCall.objects.filter(created_at__lt=oldest).delete()


SAMPLE_PARCEL = Parcel(
    origin="01310100",
    destination="20040002",
    packages=(
        Package("sample", Decimal(11), Decimal(17), Decimal(11), Decimal(1), Decimal(10), 1),
    ),
)


def connection_test(integration: CarrierIntegration) -> CarrierCall:
    """One call with a sample parcel (São Paulo to Rio, 1 kg), logged and returned."""
    seconds, result = _timed_call(integration, SAMPLE_PARCEL, settings.CARRIER_TIMEOUT_MS / 1000)
    call = _log(integration, seconds, result, timezone.now())
    call.save()
    return call
