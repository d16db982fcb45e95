"""Outbound e-mails: one row per message, written in the transaction that decided to send it."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class EmailStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")


class OutboundEmail(models.Model):
    """An e-mail a job sends once: `key` names the fact it reports (one message per fact)."""

    key = models.CharField(_("key"), max_length=200, unique=True)
    message_id = models.CharField(_("Message-ID"), max_length=255)
    to = models.CharField(_("to"), max_length=254)
    subject = models.CharField(_("subject"), max_length=255)
    body_text = models.TextField(_("text body"))
    body_html = models.TextField(_("HTML body"), blank=True)
    # Values the bodies hold a marker for (one-time links); emptied once sent or given up.
    hidden = models.JSONField(_("hidden values"), default=dict, blank=True, editable=False)
    headers = models.JSONField(_("headers"), default=dict, blank=True, editable=False)
    status = models.CharField(
        _("status"), max_length=10, choices=EmailStatus.choices, default=EmailStatus.QUEUED
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("outbound e-mail")
        verbose_name_plural = _("outbound e-mails")
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "id"], name="jobs_email_status_idx")]

    def __str__(self) -> str:
        return f"{self.subject} -> {self.to}"
