"""Retries with exponential backoff for 24 hours; an endpoint that keeps failing is paused
and staff are told."""

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone

from tests.catalog.factories import ProductFactory
from tests.jobs.support import run_jobs
from webhooks.models import Delivery, Endpoint
from webhooks.services import deliveries_create, endpoints_resume, retry_delay

pytestmark = pytest.mark.django_db


def retry_schedule() -> list[timedelta]:
    """When each attempt comes after the event (the first at once) within the retry window."""
    window = timedelta(seconds=settings.WEBHOOKS_RETRY_FOR_SECONDS)
    at, schedule, attempts = timedelta(0), [timedelta(0)], 0
    while True:
        attempts += 1
        at += retry_delay(attempts)
        if at > window:
            return schedule
        schedule.append(at)


def test_the_backoff_doubles_from_30_seconds_up_to_4_hours_within_24_hours():
    assert [retry_delay(n).total_seconds() for n in (1, 2, 3, 4, 9, 10, 20)] == [
        30, 60, 120, 240, 7680, 14400, 14400,
    ]  # fmt: skip
    schedule = retry_schedule()
    assert schedule[:4] == [timedelta(0), timedelta(seconds=30), timedelta(seconds=90),
                            timedelta(seconds=210)]  # fmt: skip
    assert schedule[-1] <= timedelta(hours=24) < schedule[-1] + timedelta(hours=4)
    assert len(schedule) == 14  # the last attempt 20.3 hours after the event
    assert schedule[-1] == timedelta(seconds=72930)


def test_a_failing_receiver_is_retried_on_the_schedule_then_given_up(endpoint, receiver, settings):
    settings.WEBHOOKS_PAUSE_AFTER_FAILURES = 1000
    receiver.statuses = [500] * 100
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        (delivery,) = deliveries_create(event_type="comment.created", data={}, endpoints=[endpoint])
        seen = []
        for offset in retry_schedule():
            clock.move_to(start + offset)
            assert run_jobs() == 1
            delivery.refresh_from_db()
            seen.append(delivery.last_attempt_at - start)
            assert run_jobs() == 0  # nothing else due at this moment
        clock.move_to(start + timedelta(hours=30))
        assert run_jobs() == 0

    assert seen == retry_schedule()
    assert (delivery.status, delivery.attempts) == ("failed", len(seen))
    assert delivery.next_attempt_at is None
    assert len(receiver.received) == len(seen)


def test_a_later_success_ends_the_retries(endpoint, receiver):
    receiver.statuses = [503]
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        (delivery,) = deliveries_create(event_type="comment.created", data={}, endpoints=[endpoint])
        run_jobs()
        delivery.refresh_from_db()
        assert delivery.next_attempt_at == start + timedelta(seconds=30)
        clock.shift(timedelta(seconds=30))
        run_jobs()

    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("succeeded", 2, 200)
    endpoint.refresh_from_db()
    assert endpoint.failure_streak == 0


def test_an_endpoint_failing_again_and_again_is_paused_and_staff_are_emailed(
    endpoint, receiver, settings
):
    settings.WEBHOOKS_PAUSE_AFTER_FAILURES = 3
    settings.ADMINS = [("Ops", "ops@store.example")]
    settings.MANAGERS = [("Boss", "boss@store.example")]
    receiver.statuses = [500] * 10
    with time_machine.travel(timezone.now(), tick=False) as clock:
        deliveries_create(event_type="comment.created", data={}, endpoints=[endpoint] * 3)
        run_jobs()
        endpoint.refresh_from_db()
        assert endpoint.paused_at is not None
        assert endpoint.failure_streak == 3
        run_jobs()  # the staff e-mails' jobs
        # further events skip the paused endpoint; retries due are held
        deliveries_create(event_type="comment.created", data={}, endpoints=[])
        clock.shift(timedelta(seconds=30))
        run_jobs()

    assert sorted(m.to[0] for m in mail.outbox) == ["boss@store.example", "ops@store.example"]
    assert endpoint.url in mail.outbox[0].subject
    assert set(Delivery.objects.values_list("status", flat=True)) == {"held"}
    assert len(receiver.received) == 3

    # resuming sends the held deliveries again
    receiver.statuses = []
    endpoints_resume(endpoints=[endpoint])
    run_jobs()
    endpoint.refresh_from_db()
    assert endpoint.paused_at is None
    assert set(Delivery.objects.values_list("status", flat=True)) == {"succeeded"}


def test_paused_and_inactive_endpoints_get_no_new_deliveries(endpoint, api_client):
    paused = Endpoint.objects.create(
        url=endpoint.url, events=endpoint.events, paused_at=timezone.now()
    )
    inactive = Endpoint.objects.create(url=endpoint.url, events=endpoint.events, active=False)
    product = ProductFactory()

    api_client.post(
        f"/publics/products/{product.pk}/comments",
        {"message": "Hi", "customerName": "Ana Souza", "customerEmail": "a@example.com"},
        format="json",
    )

    assert list(Delivery.objects.values_list("endpoint", flat=True)) == [endpoint.pk]
    assert not Delivery.objects.filter(endpoint__in=[paused, inactive]).exists()
