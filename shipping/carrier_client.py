"""The HTTP client of live carrier quotes: the one place that speaks HTTP to carriers, to a
freight aggregator's API shaped like Melhor Envio's ``POST /api/v2/me/shipment/calculate``
(tables of kind "live"): the request body, the call, the answer's parsing. Its ``custom_*``
values (the account's own markup and days) win when present. What to ask, when and how
often (breaker, budget, answer cache, deadline) is shipping.carriers's.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings

from .models import CarrierIntegration

CALCULATE_PATH = "/api/v2/me/shipment/calculate"
MAX_BODY_BYTES = 256 * 1024


class CarrierError(Exception):
    def __init__(self, message: str, http_status: int | None = None) -> None:
        super().__init__(message)
        self.http_status = http_status


class CarrierTimeout(CarrierError):
    """No answer within the call's timeout: the same outcome as the quote's deadline."""


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
    except TimeoutError:
        raise CarrierTimeout("no answer by the deadline") from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError):
            raise CarrierTimeout("no answer by the deadline") from None
        raise CarrierError(f"{type(exc).__name__}: {exc}") from None
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
