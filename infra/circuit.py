"""A small circuit breaker (per process, thread-safe), for the shared cache and for the
postal-code provider (shipping/provider.py).

States: *closed* (calls go through), *open* (calls are skipped for `reset_seconds` after
a failure), *half-open* (the first caller after that pause probes; everybody else keeps
skipping until the probe ends: one probe, never a stampede). A probe that succeeds closes
the breaker; one that fails opens it for another pause.

Only the transitions an operator cares about are logged, once each: "open" when an
outage starts and "closed" when the cache answers again (with the outage's length).
Failed probes during the outage log nothing above DEBUG.

Why not pybreaker (docs/decisions.md): its `call()` holds the breaker's lock for the
whole guarded call, so every cache call of a threaded worker would queue behind one
lock, and callers in half-open wait for the probe instead of skipping the cache; its
listeners also fire on every open -> half-open -> open cycle, which is not "once per
outage".
"""

import logging
import threading
import time
from collections.abc import Callable

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
        self._opened_at = 0.0  # when the current pause started (clock time)
        self._outage_started = 0.0  # when the outage started (first failure)
        self._probe_started = 0.0  # when the current half-open probe started

    @property
    def state(self) -> str:
        with self._lock:
            if self._state == OPEN and self._clock() - self._opened_at >= self.reset_seconds:
                return HALF_OPEN  # the next caller will probe
            return self._state

    def allow(self) -> bool:
        """May the caller use the cache now? Exactly one caller gets True in half-open."""
        if self._state == CLOSED:  # the common case, without taking the lock
            return True
        with self._lock:
            now = self._clock()
            if self._state == CLOSED:
                return True
            if self._state == OPEN and now - self._opened_at >= self.reset_seconds:
                self._state = HALF_OPEN  # this caller is the probe
                self._probe_started = now
                return True
            if self._state == HALF_OPEN and now - self._probe_started >= self.reset_seconds:
                # A probe that never reported (its thread died): let another one try.
                self._probe_started = now
                return True
            return False

    def record_success(self) -> bool:
        """The cache answered; True when this closed the breaker (an outage ended)."""
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
            previous = self._state
            now = self._clock()
            self._state = OPEN
            self._opened_at = now
            if previous == CLOSED:
                self._outage_started = now
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
        """Back to closed without logging (tests)."""
        with self._lock:
            self._state = CLOSED
            self._opened_at = self._outage_started = self._probe_started = 0.0


_registry: dict[str, CircuitBreaker] = {}
_registry_lock = threading.Lock()


def breaker_for(name: str, *, reset_seconds: float) -> CircuitBreaker:
    """The process-wide breaker of one cache server (Django makes a cache backend object
    per thread; the breaker must be shared by all of them)."""
    with _registry_lock:
        breaker = _registry.get(name)
        if breaker is None:
            breaker = _registry[name] = CircuitBreaker(name, reset_seconds=reset_seconds)
        breaker.reset_seconds = reset_seconds
        return breaker
