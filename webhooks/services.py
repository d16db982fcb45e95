"""Writes of the webhooks app: recording deliveries, attempting them, pausing endpoints."""

import json
import logging
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from jobs.services import email_enqueue

from . import signing, transport
from .models import PING, Delivery, DeliveryStatus, Endpoint, new_secret

logger = logging.getLogger(__name__)

USER_AGENT = "Storefront-Webhooks/1"


def endpoints_for(event_type: str) -> list[Endpoint]:
    """Active, unpaused endpoints subscribed to `event_type` (one query)."""
    endpoints = Endpoint.objects.filter(active=True, paused_at__isnull=True)
    return [e for e in endpoints if event_type in (e.events or [])]


def deliveries_create(
    *, event_type: str, data: dict[str, Any], endpoints: list[Endpoint]
) -> list[Delivery]:
    """One delivery per endpoint and its job, in the caller's transaction."""
    from .tasks import deliver_webhook

    created: list[Delivery] = []
    with transaction.atomic():
        now = timezone.now()
        for endpoint in endpoints:
            delivery = Delivery(endpoint=endpoint, event_type=event_type, next_attempt_at=now)
            delivery.payload = {
                "id": str(delivery.event_id),
                "type": event_type,
                "createdAt": now.isoformat().replace("+00:00", "Z"),
                "data": data,
            }
            delivery.save()
            deliver_webhook.enqueue(delivery.pk)
            created.append(delivery)
    return created


def endpoint_send_test(*, endpoint: Endpoint) -> Delivery | None:
    """Deliver a signed `ping` event to `endpoint` through the normal path (a delivery and
    its job), whatever its events; None when it is inactive or paused (nothing is sent)."""
    if not endpoint.active or endpoint.paused:
        return None
    data = {"message": "A test event sent from the store's back office."}
    (delivery,) = deliveries_create(event_type=PING, data=data, endpoints=[endpoint])
    return delivery


def endpoint_secret_rotate(*, endpoint: Endpoint) -> str:
    endpoint.secret = new_secret()
    endpoint.save(update_fields=["secret", "updated_at"])
    return endpoint.secret


def retry_delay(attempts: int) -> timedelta:
    """Wait after `attempts` failed attempts: first delay doubled each time, capped."""
    first = settings.WEBHOOKS_RETRY_FIRST_SECONDS
    seconds = min(first * 2 ** max(attempts - 1, 0), settings.WEBHOOKS_RETRY_MAX_DELAY_SECONDS)
    return timedelta(seconds=seconds)


def request_body(delivery: Delivery) -> bytes:
    return json.dumps(delivery.payload, separators=(",", ":"), ensure_ascii=False).encode()


def delivery_attempt(delivery_id: int) -> str:
    """One attempt of delivery `delivery_id` (the webhook job), claimed with a conditional
    update (no lock held during the HTTP call): a job run twice attempts at most once more.
    A failure schedules the next job with backoff until the retry window is over."""
    from .tasks import deliver_webhook

    delivery = Delivery.objects.select_related("endpoint").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != DeliveryStatus.PENDING:
        return "nothing to do"
    endpoint = delivery.endpoint
    if not endpoint.active or endpoint.paused:
        Delivery.objects.filter(pk=delivery.pk, status=DeliveryStatus.PENDING).update(
            status=DeliveryStatus.HELD
        )
        return "held"
    now = timezone.now()
    if delivery.next_attempt_at and delivery.next_attempt_at > now + timedelta(seconds=1):
        return "not due"  # a stale copy of the job; the scheduled one will run
    claimed = Delivery.objects.filter(
        pk=delivery.pk, status=DeliveryStatus.PENDING, attempts=delivery.attempts
    ).update(attempts=F("attempts") + 1, last_attempt_at=now, next_attempt_at=None)
    if not claimed:
        return "claimed elsewhere"
    attempts = delivery.attempts + 1

    body = request_body(delivery)
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Webhook-Id": str(delivery.event_id),
        "X-Webhook-Event": delivery.event_type,
        "X-Webhook-Timestamp": str(timestamp),
        "X-Signature": signing.signature_header(endpoint.secret, timestamp, body),
    }
    status_code: int | None = None
    response_text = ""
    error = ""
    try:
        target = transport.check_url(
            endpoint.url,
            allow_http=settings.WEBHOOKS_ALLOW_HTTP,
            allow_private=settings.WEBHOOKS_ALLOW_PRIVATE,
        )
        answer = transport.post(target, body, headers, timeout=settings.WEBHOOKS_TIMEOUT)
        status_code, response_text = answer.status, answer.body
        if not 200 <= answer.status < 300:
            error = f"HTTP {answer.status}"
    except transport.UnsafeURL as exc:
        error = f"Refused: {exc}"
    except Exception as exc:  # network errors, timeouts, TLS errors
        error = f"{type(exc).__name__}: {exc}"[:500]

    with transaction.atomic():
        done = timezone.now()
        fields: dict[str, Any] = {
            "last_status_code": status_code,
            "last_response": response_text,
            "last_error": error,
        }
        delivered = Delivery.objects.filter(pk=delivery.pk)
        if not error:
            delivered.update(**fields, status=DeliveryStatus.SUCCEEDED, delivered_at=done)
            Endpoint.objects.filter(pk=endpoint.pk).update(failure_streak=0)
            return "delivered"
        next_at = done + retry_delay(attempts)
        window_end = delivery.created_at + timedelta(seconds=settings.WEBHOOKS_RETRY_FOR_SECONDS)
        retry = next_at <= window_end
        fields.update({"next_attempt_at": next_at} if retry else {"status": DeliveryStatus.FAILED})
        delivered.update(**fields)
        Endpoint.objects.filter(pk=endpoint.pk).update(failure_streak=F("failure_streak") + 1)
        endpoint.refresh_from_db(fields=["failure_streak", "paused_at"])
        if (
            endpoint.paused_at is None
            and endpoint.failure_streak >= settings.WEBHOOKS_PAUSE_AFTER_FAILURES
        ):
            endpoint_pause(endpoint=endpoint, reason=error)
        if retry:
            if deliver_webhook.get_backend().supports_defer:
                deliver_webhook.using(run_after=next_at).enqueue(delivery.pk)
            return "retry scheduled"
    return "failed"


def endpoint_pause(*, endpoint: Endpoint, reason: str) -> None:
    """Pause `endpoint` and e-mail ADMINS and MANAGERS (the admin shows it too)."""
    with transaction.atomic():
        changed = Endpoint.objects.filter(pk=endpoint.pk, paused_at__isnull=True).update(
            paused_at=timezone.now()
        )
        if not changed:
            return
        endpoint.refresh_from_db(fields=["paused_at"])
        logger.warning("Webhook endpoint %s paused after repeated failures", endpoint.pk)
        recipients = sorted({a for _name, a in [*settings.ADMINS, *settings.MANAGERS]})
        subject = _("Webhook endpoint paused: %(url)s") % {"url": endpoint.url}
        text = _(
            "Deliveries to the webhook endpoint %(url)s failed %(count)s times in a row "
            "(last error: %(reason)s), so it was paused. Its new events are held. Fix the "
            "receiver, then use the 'Resume' action on the endpoint in the admin."
        ) % {"url": endpoint.url, "count": endpoint.failure_streak, "reason": reason}
        for address in recipients:
            email_enqueue(
                key=f"webhook-paused:{endpoint.pk}:{endpoint.paused_at:%Y%m%d%H%M%S}:{address}",
                to=address,
                subject=f"{settings.EMAIL_SUBJECT_PREFIX}{subject}",
                text=text,
            )


def endpoints_resume(*, endpoints: list[Endpoint]) -> int:
    """Resume paused endpoints and send again the deliveries held while they were paused."""
    with transaction.atomic():
        for endpoint in endpoints:
            Endpoint.objects.filter(pk=endpoint.pk).update(paused_at=None, failure_streak=0)
            held = Delivery.objects.filter(status=DeliveryStatus.HELD, endpoint=endpoint)
            _send_again(list(held.values_list("pk", flat=True)))
    return len(endpoints)


def deliveries_resend(*, deliveries: QuerySet[Delivery]) -> int:
    """Send deliveries again now (same event id: receivers deduplicate on it)."""
    ids = list(deliveries.values_list("pk", flat=True))
    with transaction.atomic():
        _send_again(ids)
    return len(ids)


def _send_again(ids: list[int]) -> None:
    from .tasks import deliver_webhook

    Delivery.objects.filter(pk__in=ids).update(
        status=DeliveryStatus.PENDING, next_attempt_at=timezone.now()
    )
    for delivery_id in ids:
        deliver_webhook.enqueue(delivery_id)
