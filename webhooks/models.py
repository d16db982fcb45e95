"""Endpoints staff register and the deliveries of events to them."""

import secrets
import uuid

from django.db import models
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from infra.events import EVENT_TYPES
from infra.models import TimestampedModel

SECRET_PREFIX = "whsec_"  # noqa: S105 (a prefix, not a secret)
# The test event staff send from the admin (not an event of the store: nobody subscribes).
PING = "ping"
EVENT_NAMES: dict[str, Promise] = {**EVENT_TYPES, PING: _("Test event")}


def event_label(code: str) -> str | Promise:
    """How staff read an event: its name and its code, "Comment posted (comment.created)"."""
    name = EVENT_NAMES.get(code)
    return format_lazy("{} ({})", name, code) if name else code


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def masked_secret(secret: str) -> str:
    """`whsec_…abcd`: enough to tell secrets apart, not to sign with (short ones: `…`)."""
    prefix = SECRET_PREFIX if secret.startswith(SECRET_PREFIX) else ""
    rest = secret[len(prefix) :]
    return f"{prefix}…{rest[-4:]}" if len(rest) >= 16 else f"{prefix}…"


class Endpoint(TimestampedModel):
    url = models.URLField(
        _("URL"),
        max_length=500,
        help_text=_("Where events are POSTed. Only https in production."),
    )
    description = models.CharField(_("description"), max_length=200, blank=True)
    secret = models.CharField(
        _("secret"),
        max_length=100,
        default=new_secret,
        help_text=_("Shared with the receiver, which checks the X-Signature header with it."),
    )
    events = models.JSONField(_("events"), default=list, help_text=_("Event types sent."))
    active = models.BooleanField(_("active"), default=True)
    paused_at = models.DateTimeField(
        _("paused at"),
        null=True,
        blank=True,
        help_text=_("Set when deliveries kept failing; resume the endpoint to send again."),
    )
    failure_streak = models.PositiveIntegerField(_("failed attempts in a row"), default=0)

    class Meta:
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")
        ordering = ["id"]

    def __str__(self) -> str:
        return self.description or self.url

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    SUCCEEDED = "succeeded", _("succeeded")
    FAILED = "failed", _("failed (gave up)")
    HELD = "held", _("held (endpoint paused or inactive)")


class Delivery(models.Model):
    """One event for one endpoint: attempted until it succeeds or 24 hours have passed."""

    endpoint = models.ForeignKey(
        Endpoint, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("endpoint")
    )
    event_id = models.UUIDField(_("event id"), default=uuid.uuid4, editable=False)
    event_type = models.CharField(_("event"), max_length=50)
    payload = models.JSONField(_("payload"))
    status = models.CharField(
        _("status"), max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt at"), null=True, blank=True)
    last_attempt_at = models.DateTimeField(_("last attempt at"), null=True, blank=True)
    last_status_code = models.PositiveIntegerField(_("last HTTP status"), null=True, blank=True)
    last_response = models.TextField(_("last response (start)"), blank=True)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-id"]
        indexes = [models.Index(fields=["endpoint", "status"], name="webhooks_delivery_status")]

    def __str__(self) -> str:
        return f"{self.event_type} -> {self.endpoint_id} ({self.status})"
