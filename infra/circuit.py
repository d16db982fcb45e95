"""A small circuit breaker (per process, thread-safe), for the shared cache and the
postal-code provider: closed, open for `reset_seconds` after a failure, then half-open (one
caller probes, the others keep skipping). Logs once per outage, when it opens and closes.
Not pybreaker (docs/decisions.md): it holds its lock for the whole guarded call and logs
every open -> half-open -> open cycle.
"""

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

logger = logging.getLogger("storefront.cache")

CLOSED = "closed"
OPEN = "open"
HALF_OPEN = "half-open"


class CircuitBreaker:
    def __init__(
        self,
        name: str,
        *,
        reset_seconds: float,
        clock: Callable[[], float] = time.monotonic,
        subject: str = "Cache",
        while_open: str = "the cache is skipped (reads are misses, writes are dropped)",
        log: logging.Logger = logger,
    ) -> None:
        self.name = name
        self.subject = subject  # what the breaker guards, first word of its log lines
        self.while_open = while_open  # what callers do while it is open
        self._log = log
        self.reset_seconds = reset_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._state = CLOSED
        # when the current pause, the outage (first failure) and the half-open probe started
        self._opened_at = self._outage_started = self._probe_started = 0.0

    @property
    def state(self) -> str:
        with self._lock:
            if self._state == OPEN and self._clock() - self._opened_at >= self.reset_seconds:
                return HALF_OPEN  # the next caller will probe
            return self._state

    def allow(self) -> bool:
        """May the caller go on? Exactly one caller gets True in half-open."""
        if self._state == CLOSED:  # the common case, without taking the lock
            return True
        with self._lock:
            now = self._clock()
            if self._state == CLOSED:
                return True
            # half-open: a probe that never reported (its thread died) lets another one try
            started = self._opened_at if self._state == OPEN else self._probe_started
            if now - started < self.reset_seconds:
                return False
            self._state, self._probe_started = HALF_OPEN, now  # this caller probes
            return True

    def record_success(self) -> bool:
        """True when this closed the breaker (an outage ended)."""
        if self._state == CLOSED:  # the common case, without taking the lock
            return False
        with self._lock:
            if self._state == CLOSED:
                return False
            self._state = CLOSED
            outage = self._clock() - self._outage_started
        self._log.warning(
            "%s circuit breaker closed for %s: it answers again after %.1f s.",
            self.subject,
            self.name,
            outage,
        )
        return True

    def record_failure(self, error: BaseException) -> None:
        with self._lock:
            previous, self._state, self._opened_at = self._state, OPEN, self._clock()
            if previous == CLOSED:
                self._outage_started = self._opened_at
        if previous == CLOSED:
            self._log.warning(
                "%s circuit breaker open for %s (%s: %s): %s and probed again every %.1f s.",
                self.subject,
                self.name,
                type(error).__name__,
                str(error).rstrip("."),
                self.while_open,
                self.reset_seconds,
            )
        else:
            self._log.debug("%s probe failed for %s: %s", self.subject, self.name, error)

    def reset(self) -> None:
        with self._lock:
            self._state = CLOSED
            self._opened_at = self._outage_started = self._probe_started = 0.0


_registry: dict[str, CircuitBreaker] = {}


def breaker_for(name: str, *, reset_seconds: float, **options: Any) -> CircuitBreaker:
    """The process-wide breaker of `name` (a cache server, a carrier integration; `options` as
    CircuitBreaker takes them), shared by every thread; one `setdefault`, atomic, settles two
    threads creating it at once."""
    made = CircuitBreaker(name, reset_seconds=reset_seconds, **options)
    breaker = _registry.setdefault(name, made)
    breaker.reset_seconds = reset_seconds
    return breaker
