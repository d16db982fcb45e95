"""Demo data of the webhooks app: an endpoint pointing at the demo receiver the service
serves itself (only where that receiver is on: DEBUG or HTTPS=0), subscribed to every event,
so posting a comment in `make run` shows a delivery in the admin's log."""

from django.conf import settings

from infra.events import EVENT_TYPES
from webhooks.demo_views import DEMO_PATH
from webhooks.models import Endpoint


def seed(*, stdout) -> None:
    if not settings.WEBHOOKS_DEMO_RECEIVER:
        return
    url = f"{settings.PUBLIC_BASE_URL.rstrip('/')}/{DEMO_PATH}"
    if Endpoint.objects.filter(url=url).exists():
        return
    Endpoint.objects.create(
        url=url, description="Demo receiver (make run only)", events=list(EVENT_TYPES)
    )
    stdout.write(f"Webhooks: demo endpoint {url} registered for every event.")
