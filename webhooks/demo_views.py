"""A demo-only webhook receiver the service serves itself (settings.WEBHOOKS_DEMO_RECEIVER:
on with DEBUG or HTTPS=0, never in production). It checks the signature exactly as
docs/webhooks.md tells a real receiver to, so `make run` shows a delivery succeed."""

import time

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from . import signing
from .models import Endpoint

DEMO_PATH = "demo/webhook-receiver"


@csrf_exempt
@require_POST
def demo_webhook_receiver(request: HttpRequest) -> JsonResponse:
    header = request.headers.get("X-Signature", "")
    body = request.body
    now = int(time.time())
    secrets = Endpoint.objects.filter(url__endswith=DEMO_PATH).values_list("secret", flat=True)
    if not any(signing.verify(secret, header, body, now=now) for secret in secrets):
        return JsonResponse({"error": "bad or stale signature"}, status=401)
    return JsonResponse({"received": request.headers.get("X-Webhook-Id", "")})
