"""The demo: seed_demo registers an endpoint at the receiver the service serves itself
(only with the receiver on), and that receiver checks signatures."""

import json
import time
from io import StringIO

import pytest

from demo import webhooks as demo
from webhooks import signing
from webhooks.demo_views import demo_webhook_receiver
from webhooks.models import Endpoint

pytestmark = pytest.mark.django_db


def test_the_demo_registers_one_endpoint_for_every_event(settings):
    settings.WEBHOOKS_DEMO_RECEIVER = True
    demo.seed(stdout=StringIO())
    demo.seed(stdout=StringIO())

    endpoint = Endpoint.objects.get()
    assert endpoint.url == "http://127.0.0.1:8000/demo/webhook-receiver"
    assert len(endpoint.events) == 6


def test_no_demo_endpoint_in_production(settings):
    settings.WEBHOOKS_DEMO_RECEIVER = False
    demo.seed(stdout=StringIO())
    assert not Endpoint.objects.exists()


def test_the_demo_receiver_accepts_only_fresh_valid_signatures(rf, settings):
    settings.WEBHOOKS_DEMO_RECEIVER = True
    demo.seed(stdout=StringIO())
    secret = Endpoint.objects.get().secret
    body = json.dumps({"id": "e1"}).encode()

    def call(header):
        request = rf.post(
            "/demo/webhook-receiver", body, content_type="application/json",
            HTTP_X_SIGNATURE=header, HTTP_X_WEBHOOK_ID="e1",
        )  # fmt: skip
        return demo_webhook_receiver(request)

    now = int(time.time())
    assert call(signing.signature_header(secret, now, body)).status_code == 200
    assert call(signing.signature_header(secret, now - 600, body)).status_code == 401
    assert call(signing.signature_header("wrong", now, body)).status_code == 401
    assert call("").status_code == 401
