"""Webhooks in the back office: endpoints with their events, the delivery log, resend,
resume, and the warning about a paused endpoint."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from tests.jobs.support import run_jobs
from webhooks.models import Delivery, Endpoint
from webhooks.services import deliveries_create

from .conftest import SECRET

pytestmark = pytest.mark.django_db


def test_staff_register_an_endpoint_and_see_its_generated_secret_once(staff_client):
    response = staff_client.post(
        reverse("admin:webhooks_endpoint_add"),
        {
            "url": "https://hooks.partner.example/in",
            "description": "ERP",
            "events": ["comment.created", "review.approved"],
            "active": "on",
            "secret": "whsec_chosen-by-a-hostile-form",  # not a field: ignored
        },
    )

    assert response.status_code == 200, response.content.decode()[:2000]
    endpoint = Endpoint.objects.get()
    assert endpoint.events == ["comment.created", "review.approved"]
    assert endpoint.secret.startswith("whsec_") and len(endpoint.secret) > 40
    assert endpoint.secret in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    change = staff_client.get(reverse("admin:webhooks_endpoint_change", args=[endpoint.pk]))
    assert endpoint.secret not in change.content.decode()
    assert f"whsec_…{endpoint.secret[-4:]}" in change.content.decode()


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


def test_a_new_secret_is_shown_once_and_the_history_keeps_only_that_it_changed(
    staff_client, endpoint
):
    url = reverse("admin:webhooks_endpoint_new_secret", args=[endpoint.pk])
    confirm = staff_client.get(url)
    assert confirm.status_code == 200 and "stops working at once" in confirm.content.decode()
    assert Endpoint.objects.get().secret == SECRET  # a GET changes nothing

    response = staff_client.post(url)

    endpoint.refresh_from_db()
    assert endpoint.secret != SECRET and endpoint.secret.startswith("whsec_")
    assert endpoint.secret in response.content.decode()
    history = staff_client.get(reverse("admin:webhooks_endpoint_history", args=[endpoint.pk]))
    assert "Changed secret." in history.content.decode()
    assert endpoint.secret not in history.content.decode()
    change = staff_client.get(reverse("admin:webhooks_endpoint_change", args=[endpoint.pk]))
    assert endpoint.secret not in change.content.decode()


def test_a_test_event_is_delivered_signed_and_shows_in_the_delivery_log(
    staff_client, endpoint, receiver
):
    endpoint.events = ["review.approved"]  # a test event goes whatever the events
    endpoint.save()
    url = reverse("admin:webhooks_endpoint_send_test", args=[endpoint.pk])
    assert "Send the test event" in staff_client.get(url).content.decode()

    response = staff_client.post(url)
    run_jobs()

    assert response.status_code == 302
    assert response["Location"].endswith(f"?endpoint__id__exact={endpoint.pk}")
    delivery = Delivery.objects.get()
    assert (delivery.event_type, delivery.status) == ("ping", "succeeded")
    (received,) = receiver.received  # the receiver checked the signature
    assert received.headers["X-Webhook-Event"] == "ping"
    assert received.json["id"] == str(delivery.event_id)
    log = staff_client.get(response["Location"]).content.decode()
    assert "Test event queued for" in log
    assert "Test event (ping)" in log and "succeeded" in log


def test_the_test_event_action_skips_an_inactive_endpoint(staff_client, endpoint, receiver):
    other = Endpoint.objects.create(url="https://off.example/in", events=[], active=False)

    response = staff_client.post(
        reverse("admin:webhooks_endpoint_changelist"),
        {"action": "send_test", "_selected_action": [endpoint.pk, other.pk]},
        follow=True,
    )
    run_jobs()

    page = response.content.decode()
    assert "is inactive or paused: no test event was sent" in page
    assert [d.endpoint_id for d in Delivery.objects.all()] == [endpoint.pk]
    assert len(receiver.received) == 1


def test_a_url_already_registered_is_refused_but_its_own_endpoint_saves(staff_client, endpoint):
    add_url = reverse("admin:webhooks_endpoint_add")
    same = staff_client.post(add_url, {"url": endpoint.url, "events": ["comment.created"]})
    other_case = staff_client.post(
        add_url, {"url": endpoint.url.replace("http://", "HTTP://"), "events": ["comment.created"]}
    )
    edit = staff_client.post(
        reverse("admin:webhooks_endpoint_change", args=[endpoint.pk]),
        {"url": endpoint.url, "events": ["comment.created"], "active": "on"},
    )

    for add in (same, other_case):
        assert add.status_code == 200
        assert "already receives events at this URL" in add.content.decode()
    assert Endpoint.objects.count() == 1
    assert edit.status_code == 302
    endpoint.refresh_from_db()
    assert endpoint.events == ["comment.created"] and endpoint.secret == SECRET


def test_events_are_named_beside_their_codes(staff_client, endpoint):
    deliveries_create(event_type="comment.created", data={}, endpoints=[endpoint])

    form = staff_client.get(reverse("admin:webhooks_endpoint_add")).content.decode()
    log = staff_client.get(reverse("admin:webhooks_delivery_changelist")).content.decode()
    filtered = staff_client.get(
        reverse("admin:webhooks_delivery_changelist") + "?event_type=review.approved"
    ).content.decode()

    assert "Comment posted (comment.created)" in form
    assert "Comment posted (comment.created)" in log
    assert "Review approved (review.approved)" in log  # the filter
    assert "0 webhook deliveries" in filtered


@pytest.mark.parametrize("page", ["new_secret", "send_test"])
@pytest.mark.parametrize("object_id", ["999999", "abc", "1%00", "-1", "9" * 40])
def test_own_pages_of_an_unknown_endpoint_are_404(staff_client, page, object_id):
    url = reverse(f"admin:webhooks_endpoint_{page}", args=[object_id])
    assert staff_client.get(url).status_code == 404
    assert staff_client.post(url).status_code == 404


def test_staff_who_may_only_view_endpoints_cannot_rotate_test_or_resume(client, endpoint):
    user = get_user_model().objects.create_user("viewer", "v@store.example", "x", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_endpoint"))
    client.force_login(user)

    change = client.get(reverse("admin:webhooks_endpoint_change", args=[endpoint.pk]))
    rotate = client.post(reverse("admin:webhooks_endpoint_new_secret", args=[endpoint.pk]))
    ping = client.post(reverse("admin:webhooks_endpoint_send_test", args=[endpoint.pk]))
    listing = client.get(reverse("admin:webhooks_endpoint_changelist")).content.decode()

    assert change.status_code == 200 and SECRET not in change.content.decode()
    assert "Generate a new secret" not in change.content.decode()
    assert (rotate.status_code, ping.status_code) == (403, 403)
    assert 'value="resume"' not in listing and 'value="send_test"' not in listing
    endpoint.refresh_from_db()
    assert endpoint.secret == SECRET and not Delivery.objects.exists()
