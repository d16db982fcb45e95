"""The postal-code provider: a ViaCEP-compatible HTTP API asked for a code that is not in
the database (settings POSTAL_CODE_PROVIDER_*; off by default).

`provider_address_get` never raises nor waits past the timeout: a slow, failing or
nonsensical provider is an unknown code (None). Failures open a circuit breaker; at most
`MAX_CONCURRENT_CALLS` calls per process are in flight; a code the provider does not know
is remembered for POSTAL_CODE_PROVIDER_MISS_SECONDS, an address it gave for LEARNED_SECONDS
(in the shared cache: until the deferred write of shipping.services lands, the next
requests for the code need not ask again).
"""

from __future__ import annotations

import logging
import re
import threading
import urllib.request
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.cache import cache

from infra.circuit import CircuitBreaker

from .carrier_client import CarrierError, json_answer, json_decimal
from .countries import state_code_get
from .postal import try_normalize_postal_code
from .selectors import PostalCodeData

logger = logging.getLogger("storefront.postal_provider")

MAX_BODY_BYTES = 16_384
MAX_CONCURRENT_CALLS = 4
LEARNED_SECONDS = 300
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_LIMITS = {"public_place": 200, "complement": 200, "district": 100, "city": 100}

_slots = threading.BoundedSemaphore(MAX_CONCURRENT_CALLS)
breaker = CircuitBreaker(
    "postal-code provider",
    reset_seconds=30,
    subject="Postal-code provider",
    while_open="unknown postal codes are not looked up",
    log=logger,
)


class ProviderError(Exception):
    """The provider failed (not: the provider does not know the code)."""


def provider_enabled_for(country: str) -> bool:
    return settings.POSTAL_CODE_PROVIDER_ENABLED and country in (
        settings.POSTAL_CODE_PROVIDER_COUNTRIES
    )


def _miss_key(country: str, code: str) -> str:
    return f"postal-provider-miss:{country}:{code}"


def _learned_key(country: str, code: str) -> str:
    return f"postal-provider-learned:{country}:{code}"


def _text(value: Any, field: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ProviderError(f"{field} is not a string")
    return _CONTROL.sub("", value).strip()[: _LIMITS[field]]


def _coordinate(data: dict, names: tuple[str, str], low: int, high: int) -> Decimal | None:
    value = next((data[name] for name in names if data.get(name) not in (None, "")), None)
    number = json_decimal(value)
    if number is None or not low <= number <= high:
        return None
    return number.quantize(Decimal("0.000001"))


def parse_answer(country: str, code: str, data: Any) -> PostalCodeData | None:
    """The address in a provider's JSON answer for `code`; None when the provider says it
    does not know it; ProviderError when the answer makes no sense."""
    if not isinstance(data, dict):
        raise ProviderError("the answer is not a JSON object")
    if data.get("erro") in (True, "true"):
        return None
    answered = data.get("cep")
    if not isinstance(answered, str) or try_normalize_postal_code(country, answered) != code:
        raise ProviderError("the answer is for another postal code")
    uf = data.get("uf")
    state = state_code_get(country, code=uf) if isinstance(uf, str) and uf else None
    latitude = _coordinate(data, ("latitude", "lat"), -90, 90)
    longitude = _coordinate(data, ("longitude", "lng"), -180, 180)
    if latitude is None or longitude is None:
        latitude = longitude = None  # a point has both or neither
    return PostalCodeData(
        country=country,
        code=code,
        public_place=_text(data.get("logradouro"), "public_place"),
        complement=_text(data.get("complemento"), "complement"),
        district=_text(data.get("bairro"), "district"),
        city=_text(data.get("localidade"), "city"),
        state_code=state or "",
        latitude=latitude,
        longitude=longitude,
    )


def _fetch(code: str) -> Any:
    url = settings.POSTAL_CODE_PROVIDER_URL.replace("{code}", code)
    if not url.startswith(("https://", "http://")):
        raise ProviderError("POSTAL_CODE_PROVIDER_URL must be an http(s) URL")
    # The scheme is checked above: S310's file:// and custom schemes cannot get here.
    request = urllib.request.Request(url, headers={"Accept": "application/json"})  # noqa: S310
    timeout = settings.POSTAL_CODE_PROVIDER_TIMEOUT_MS / 1000
    try:
        return json_answer(request, timeout, MAX_BODY_BYTES)
    except CarrierError as exc:
        if exc.http_status is not None and 400 <= exc.http_status < 500:
            return {"erro": True}  # ViaCEP answers 400 for a malformed code
        raise ProviderError(str(exc)) from None


def provider_address_get(*, country: str, code: str) -> PostalCodeData | None:
    """The provider's address of a normalized code, or None (unknown, off, failing, busy)."""
    if not provider_enabled_for(country):
        return None
    found = cache.get_many([_miss_key(country, code), _learned_key(country, code)])
    if found.get(_miss_key(country, code)):
        return None
    if (learned := found.get(_learned_key(country, code))) is not None:
        return PostalCodeData(*learned)
    breaker.reset_seconds = settings.POSTAL_CODE_PROVIDER_BREAKER_SECONDS
    if not breaker.allow() or not _slots.acquire(blocking=False):
        return None
    try:
        address = parse_answer(country, code, _fetch(code))
    except ProviderError as exc:
        breaker.record_failure(exc)
        return None
    finally:
        _slots.release()
    breaker.record_success()
    if address is None:
        cache.set(_miss_key(country, code), True, settings.POSTAL_CODE_PROVIDER_MISS_SECONDS)
    else:
        cache.set(_learned_key(country, code), tuple(address), LEARNED_SECONDS)
    return address
