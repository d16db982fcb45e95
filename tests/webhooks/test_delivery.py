"""Deliveries end to end: a public write emits an event, a job POSTs it signed to a local
receiver; transactional enqueue; a dead worker's delivery job runs again."""

from datetime import timedelta

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from feedback.services import comment_create
from tests.catalog.factories import ProductFactory
from tests.jobs.support import run_jobs
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db


def post_comment(api_client, product):
    return api_client.post(
        f"/publics/products/{product.pk}/comments",
        {
            "message": "Does it fit?",
            "customerName": "Ana Souza",
            "customerEmail": "ana@example.com",
        },
        format="json",
    )


def test_a_posted_comment_is_delivered_signed_with_its_public_shape(api_client, endpoint, receiver):
    product = ProductFactory(name="Blue shirt")

    response = post_comment(api_client, product)
    assert response.status_code == 201
    delivery = Delivery.objects.get()
    assert delivery.status == "pending" and receiver.received == []  # a job, not the request

    run_jobs()

    assert receiver.rejected == 0
    (request,) = receiver.received
    body = request.json
    assert set(body) == {"id", "type", "createdAt", "data"}
    assert body["id"] == str(delivery.event_id) == request.headers["X-Webhook-Id"]
    assert body["type"] == "comment.created" == request.headers["X-Webhook-Event"]
    # the resource is the API's own rendering of the comment (masked e-mail, product summary)
    assert body["data"] == {**response.json(), "product": body["data"]["product"]}
    assert body["data"]["customerEmail"] == "a***@example.com"
    assert body["data"]["product"]["name"] == "Blue shirt"
    assert request.headers["Content-Type"] == "application/json"
    timestamp = request.headers["X-Webhook-Timestamp"]
    assert request.headers["X-Signature"].startswith(f"t={timestamp},v1=")
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("succeeded", 1, 200)
    assert delivery.last_response == "answer 200"
    assert delivery.delivered_at is not None


def test_a_bad_secret_is_a_failed_attempt(api_client, endpoint, receiver):
    endpoint.secret = "whsec_other"
    endpoint.save()

    post_comment(api_client, ProductFactory())
    run_jobs()

    assert receiver.rejected == 1
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.last_status_code, delivery.last_error) == (
        "pending",
        401,
        "HTTP 401",
    )


def test_no_subscribed_endpoint_means_no_delivery_and_no_job(api_client, endpoint):
    endpoint.events = ["review.created"]
    endpoint.save()

    post_comment(api_client, ProductFactory())

    assert Delivery.objects.count() == 0
    assert DBTaskResult.objects.count() == 0


def test_a_rolled_back_write_leaves_no_delivery_and_no_job(endpoint):
    product = ProductFactory()

    with pytest.raises(RuntimeError), transaction.atomic():
        comment_create(
            product_id=product.pk, message="Hi", customer_name="Ana", customer_email="a@b.com"
        )
        raise RuntimeError("the write fails after the event")

    assert Delivery.objects.count() == 0
    assert DBTaskResult.objects.count() == 0


def test_a_redirect_is_not_followed(api_client, endpoint, receiver):
    receiver.statuses = [302]
    post_comment(api_client, ProductFactory())

    run_jobs()

    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.last_status_code) == ("pending", 302)
    assert len(receiver.received) == 1


def test_a_delivery_job_of_a_dead_worker_runs_again(api_client, endpoint, receiver, settings):
    settings.JOBS_LEASE_SECONDS = 30
    post_comment(api_client, ProductFactory())
    job = DBTaskResult.objects.get()
    job.claim("killed-worker")  # claimed, then the process was killed

    assert run_jobs() == 0
    with time_machine.travel(timezone.now() + timedelta(seconds=31)):
        from jobs.services import jobs_requeue_stale

        assert jobs_requeue_stale() == 1
        assert run_jobs() == 1

    assert len(receiver.received) == 1
    assert Delivery.objects.get().status == "succeeded"
