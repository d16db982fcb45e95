"""The cache circuit breaker: open after a failure, one probe after the pause, closed when
the probe succeeds; the open and close of an outage are logged once each."""

import logging
import threading

from infra.circuit import CircuitBreaker


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def breaker(clock: Clock) -> CircuitBreaker:
    return CircuitBreaker("redis://test", reset_seconds=3, clock=clock)


def test_a_closed_breaker_lets_every_call_through():
    subject = breaker(Clock())
    assert all(subject.allow() for _ in range(5))
    assert subject.state == "closed"


def test_a_failure_opens_it_and_calls_are_skipped_until_the_pause_ends():
    clock = Clock()
    subject = breaker(clock)
    subject.record_failure(TimeoutError("hung"))

    assert subject.state == "open"
    assert not subject.allow()
    clock.now += 2.9
    assert not subject.allow()
    clock.now += 0.1
    assert subject.state == "half-open"


def test_after_the_pause_exactly_one_caller_probes_even_when_many_arrive_at_once():
    clock = Clock()
    subject = breaker(clock)
    subject.record_failure(TimeoutError("hung"))
    clock.now += 3
    start = threading.Barrier(16)
    allowed = []

    def caller():
        start.wait()
        allowed.append(subject.allow())

    threads = [threading.Thread(target=caller) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert allowed.count(True) == 1


def test_a_successful_probe_closes_it_and_a_failed_one_opens_it_for_another_pause():
    clock = Clock()
    subject = breaker(clock)
    subject.record_failure(TimeoutError("hung"))
    clock.now += 3
    assert subject.allow()
    subject.record_failure(TimeoutError("still hung"))
    assert subject.state == "open"
    assert not subject.allow()

    clock.now += 3
    assert subject.allow()
    assert subject.record_success() is True
    assert subject.state == "closed"
    assert subject.allow()


def test_a_lost_probe_does_not_keep_the_cache_skipped_for_ever():
    clock = Clock()
    subject = breaker(clock)
    subject.record_failure(TimeoutError("hung"))
    clock.now += 3
    assert subject.allow()  # the probe's thread never reports back
    assert not subject.allow()
    clock.now += 3
    assert subject.allow()


def test_an_outage_is_logged_once_when_it_starts_and_once_when_it_ends(caplog):
    caplog.set_level(logging.DEBUG, logger="storefront.cache")
    clock = Clock()
    subject = breaker(clock)
    for _ in range(5):  # failures, then failed probes
        subject.record_failure(TimeoutError("hung"))
        clock.now += 3
        subject.allow()
    subject.record_success()
    subject.record_success()

    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [("open" in r.getMessage(), "closed" in r.getMessage()) for r in loud] == [
        (True, False),
        (False, True),
    ]
    assert "after 15.0 s" in loud[1].getMessage()
