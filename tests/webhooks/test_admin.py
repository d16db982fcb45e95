"""Webhooks in the back office: endpoints with their events, the delivery log, resend,
resume, and the warning about a paused endpoint."""

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.jobs.support import run_jobs
from webhooks.models import Delivery, Endpoint
from webhooks.services import deliveries_create

pytestmark = pytest.mark.django_db


def test_staff_register_an_endpoint_with_its_events(staff_client):
    response = staff_client.post(
        reverse("admin:webhooks_endpoint_add"),
        {
            "url": "https://hooks.partner.example/in",
            "description": "ERP",
            "events": ["comment.created", "review.approved"],
            "active": "on",
            "secret": "whsec_abc",
        },
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    endpoint = Endpoint.objects.get()
    assert endpoint.events == ["comment.created", "review.approved"]
    assert endpoint.secret == "whsec_abc"


def test_plain_http_endpoints_are_refused_in_production(staff_client, settings):
    settings.WEBHOOKS_ALLOW_HTTP = False

    response = staff_client.post(
        reverse("admin:webhooks_endpoint_add"),
        {"url": "http://hooks.partner.example/in", "events": ["comment.created"], "secret": "s"},
    )

    assert response.status_code == 200
    assert "Only https URLs are allowed." in response.content.decode()
    assert not Endpoint.objects.exists()


def test_the_delivery_log_shows_status_attempts_and_last_response(staff_client, endpoint, receiver):
    receiver.statuses = [500]
    (delivery,) = deliveries_create(
        event_type="comment.created", data={"id": 7}, endpoints=[endpoint]
    )
    run_jobs()

    listing = staff_client.get(reverse("admin:webhooks_delivery_changelist")).content.decode()
    detail = staff_client.get(
        reverse("admin:webhooks_delivery_change", args=[delivery.pk])
    ).content.decode()

    assert "comment.created" in listing and "pending" in listing and "500" in listing
    assert "answer 500" in detail and "HTTP 500" in detail
    assert str(delivery.event_id) in detail


def test_resend_sends_a_delivery_again(staff_client, endpoint, receiver):
    (delivery,) = deliveries_create(event_type="comment.created", data={}, endpoints=[endpoint])
    run_jobs()

    response = staff_client.post(
        reverse("admin:webhooks_delivery_changelist"),
        {"action": "resend", "_selected_action": [delivery.pk]},
        follow=True,
    )
    run_jobs()

    assert "1 delivery queued again." in response.content.decode()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("succeeded", 2)
    assert [r.json["id"] for r in receiver.received] == [str(delivery.event_id)] * 2


def test_a_paused_endpoint_is_announced_and_can_be_resumed(staff_client, endpoint, receiver):
    Endpoint.objects.filter(pk=endpoint.pk).update(paused_at=timezone.now(), failure_streak=15)
    held = Delivery.objects.create(
        endpoint=endpoint, event_type="comment.created", payload={"id": "x"}, status="held"
    )

    page = staff_client.get(reverse("admin:webhooks_endpoint_changelist")).content.decode()
    response = staff_client.post(
        reverse("admin:webhooks_endpoint_changelist"),
        {"action": "resume", "_selected_action": [endpoint.pk]},
    )
    run_jobs()

    assert "is paused since" in page
    assert response.status_code == 302
    endpoint.refresh_from_db()
    assert (endpoint.paused_at, endpoint.failure_streak) == (None, 0)
    held.refresh_from_db()
    assert held.status == "succeeded"
