"""Rate limits of the API: atomic fixed-window counters in the shared cache, counted in the
database (sign-in limits) or not at all (public writes) while it is down, and in the database
without a shared cache (each process's memory would multiply a limit by the workers);
RateLimit-* headers on every throttled answer (docs/decisions.md, "Cache outages and rate
limits")."""

from __future__ import annotations

import logging
import math
import threading
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.throttling import SimpleRateThrottle

from infra.caching.backend import cache_is_local
from infra.client_ip import client_ip
from storefront.services import throttle_counter_hit

if TYPE_CHECKING:  # types only: the middleware here loads before DRF's settings are read
    from rest_framework.request import Request
    from rest_framework.views import APIView

logger = logging.getLogger("storefront.throttling")

RATE_LIMIT_HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")


class _Outage:
    """Per-process memory of "the shared cache is down for the throttles" (log once)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.down = False

    def note(self, *, down: bool) -> None:
        if self.down == down:
            return
        with self._lock:
            if self.down == down:
                return
            self.down = down
        logger.warning(
            "Rate limits: the shared cache is unavailable. Public-write limits are not "
            "enforced (fail open); sign-in limits are counted in the database."
            if down
            else "Rate limits: the shared cache answers again; limits are counted in it."
        )


shared_cache_outage = _Outage()


_HIT = 2**32  # counter value = hits * 2**32 + window start (Unix seconds, < 2**32)


def cache_counter_hit(key: str, *, now: float, duration: int) -> tuple[int, float] | None:
    """One atomic hit on the cache counter `key`: (hits in the window, window end), or None
    when the cache is unavailable. Past 2**21 hits Redis's Lua (doubles) blurs the low bits,
    but the count is still far above any limit."""
    for _ in range(2):
        cache.add(key, int(now), timeout=duration)
        try:
            value = cache.incr(key, _HIT)
        except ValueError:
            continue  # the counter expired between add and incr: create it again
        if value is None:
            return None
        hits, start = divmod(int(value), _HIT)
        return hits, min(max(start, now - duration), now) + duration
    return None


class FixedWindowThrottle(SimpleRateThrottle):
    """Base of the API's throttles: `scope` names the rate, `get_cache_key` the counter."""

    when_cache_down = "open"  # or "database"
    # Set by SimpleRateThrottle.__init__ from the parsed rate (its stubs do not declare them).
    num_requests: int
    duration: int

    def get_ident(self, request: Request) -> str:
        return client_ip(request)

    def bucket(self, view: APIView, ident: str) -> str:
        scope = getattr(view, "throttle_scope", None) or type(view).__name__
        return f"throttle:{self.scope}:{scope}:{ident}"

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        self.now = now = self.timer()
        key = f"{key}:{self.duration}"
        hit: tuple[int, float] | None
        if cache_is_local():  # each process's own memory: the processes share the database
            hit = throttle_counter_hit(key=key, now=now, duration=self.duration)
        else:
            hit = cache_counter_hit(key, now=now, duration=self.duration)
            shared_cache_outage.note(down=hit is None)
            if hit is None:
                if self.when_cache_down != "database":
                    return True
                hit = throttle_counter_hit(key=key, now=now, duration=self.duration)
        count, self.reset_at = hit
        self._record_headers(request, count)
        return count <= self.num_requests

    def wait(self) -> float:
        return max(1, math.ceil(self.reset_at - self.now))

    def _record_headers(self, request: Request, count: int) -> None:
        """Keep the figures of the policy closest to exhaustion for the middleware below."""
        figures = (self.num_requests, max(0, self.num_requests - count), self.wait())
        django_request: HttpRequest = getattr(request, "_request", request)
        current = getattr(django_request, "rate_limit", None)
        if current is None or (figures[1], -figures[2]) < (current[1], -current[2]):
            # (an attribute of Django's request object, which the stubs do not declare)
            django_request.rate_limit = figures  # type: ignore[attr-defined]


class PublicWriteThrottle(FixedWindowThrottle):
    """Every public POST: `public_write` rate per client IP (throttle_scope names the bucket)."""

    scope = "public_write"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.bucket(view, self.get_ident(request))

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return super().allow_request(request, view)


class RateLimitHeadersMiddleware(MiddlewareMixin):
    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        figures = getattr(request, "rate_limit", None)
        if figures is not None:
            for name, value in zip(RATE_LIMIT_HEADERS, figures, strict=True):
                response[name] = str(value)
        return response


def rate_limit_headers() -> list[OpenApiParameter]:
    described = {
        "RateLimit-Limit": "Requests allowed in the current window (the tightest limit).",
        "RateLimit-Remaining": "Requests left in the current window.",
        "RateLimit-Reset": "Seconds until the current window ends.",
    }
    return [
        OpenApiParameter(name, OpenApiTypes.INT, location="header", response=True, description=text)
        for name, text in described.items()
    ]
