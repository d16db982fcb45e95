"""Writes of the jobs app: outbound e-mails and the queue's upkeep.

`email_enqueue` records an e-mail and enqueues its job in the caller's transaction (no e-mail
unless the caller commits; a used `key` sends nothing twice). Secrets (a one-time link) are
`hidden` values: the stored bodies, which staff read, hold a marker in their place.
"""

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import Count, Min
from django.utils import timezone
from django.utils.html import escape
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from .models import EmailStatus, OutboundEmail

logger = logging.getLogger(__name__)


def message_id_for(key: str) -> str:
    domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip(" >") or "store.invalid"
    safe = "".join(c if c.isalnum() or c in "-._" else "." for c in key)
    return f"<{safe}@{domain}>"


def hidden_marker(name: str) -> str:
    """The marker of the hidden value `name` (no HTML-special characters: templates keep it)."""
    return f"[{name}: hidden, sent only to the recipient]"


def email_enqueue(
    *,
    key: str,
    to: str,
    subject: str,
    text: str,
    html: str = "",
    hidden: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> OutboundEmail | None:
    """The e-mail of `key`, recorded and enqueued; None when that key exists already.
    `hidden`: {marker in the bodies: the value the sent message carries in its place};
    `headers`: extra headers of the message (List-Unsubscribe; never Message-ID)."""
    from .tasks import send_email  # the task module imports this one

    hidden = hidden or {}
    for value in hidden.values():
        if value and (value in text or value in html or escape(value) in html):
            raise ValueError("A hidden value is in the body: put its marker there instead.")
    subject = " ".join(subject.split())[:255]
    with transaction.atomic():
        try:
            with transaction.atomic():
                email = OutboundEmail.objects.create(
                    key=key,
                    message_id=message_id_for(key),
                    to=to,
                    subject=subject,
                    body_text=text,
                    body_html=html,
                    hidden=hidden,
                    headers=headers or {},
                )
        except IntegrityError:
            return None
        send_email.enqueue(email.pk)
    return email


def email_retry_delay(attempts: int) -> timedelta:
    return timedelta(minutes=2 ** max(attempts - 1, 0))


def email_send(email_id: int) -> str:
    """Send the queued e-mail once, the row locked and marked sent in one transaction (only
    a worker dying before the commit sends it twice, with the same Message-ID); a refused
    message is retried (EMAIL_MAX_ATTEMPTS in all), then marked failed."""
    error = ""
    with transaction.atomic():
        email = (
            OutboundEmail.objects.select_for_update()
            .filter(pk=email_id, status=EmailStatus.QUEUED)
            .first()
        )
        if email is None:
            return "already handled"
        text, html = email.body_text, email.body_html
        for marker, value in email.hidden.items():
            text, html = text.replace(marker, value), html.replace(marker, escape(value))
        message = EmailMultiAlternatives(
            subject=email.subject,
            body=text,
            to=[email.to],
            headers={**email.headers, "Message-ID": email.message_id},
        )
        if html:
            message.attach_alternative(html, "text/html")
        try:
            message.send()
        except Exception as exc:
            logger.exception("E-mail %s could not be sent", email.pk)
            error = f"{type(exc).__name__}: {exc}"[:1000]
        else:
            email.status = EmailStatus.SENT
            email.sent_at = timezone.now()
            email.attempts += 1
            email.hidden = {}
            email.save(update_fields=["status", "sent_at", "attempts", "hidden"])
            return "sent"
    return _email_failed(email_id, error)


def _email_failed(email_id: int, error: str) -> str:
    from .tasks import send_email

    with transaction.atomic():
        email = OutboundEmail.objects.select_for_update().get(pk=email_id)
        email.attempts += 1
        email.last_error = error
        if email.attempts >= settings.EMAIL_MAX_ATTEMPTS:
            email.status = EmailStatus.FAILED
            email.hidden = {}
            email.save(update_fields=["attempts", "last_error", "status", "hidden"])
            return "failed"
        email.save(update_fields=["attempts", "last_error"])
        if not send_email.get_backend().supports_defer:
            return "left queued"  # the immediate backend (tests, demo) cannot wait
        run_after = timezone.now() + email_retry_delay(email.attempts)
        send_email.using(run_after=run_after).enqueue(email.pk)
    return "retry scheduled"


def jobs_requeue_stale() -> int:
    """Make jobs of dead workers (running past the lease) ready again; jobs are safe to rerun."""
    cutoff = timezone.now() - timedelta(seconds=settings.JOBS_LEASE_SECONDS)
    return DBTaskResult.objects.filter(
        status=TaskResultStatus.RUNNING, started_at__lt=cutoff
    ).update(status=TaskResultStatus.READY, started_at=None)


@dataclass(frozen=True)
class QueueStats:
    ready: int
    due: int
    running: int
    failed: int
    oldest_due_seconds: float
    emails_queued: int
    emails_failed: int


def queue_stats() -> QueueStats:
    now = timezone.now()
    counts = dict(DBTaskResult.objects.values_list("status").annotate(n=Count("id")).order_by())
    due = DBTaskResult.objects.ready()
    oldest = due.aggregate(first=Min("enqueued_at"))["first"]
    emails = dict(OutboundEmail.objects.values_list("status").annotate(n=Count("id")).order_by())
    return QueueStats(
        ready=counts.get(TaskResultStatus.READY, 0),
        due=due.count(),
        running=counts.get(TaskResultStatus.RUNNING, 0),
        failed=counts.get(TaskResultStatus.FAILED, 0),
        oldest_due_seconds=(now - oldest).total_seconds() if oldest else 0.0,
        emails_queued=emails.get(EmailStatus.QUEUED, 0),
        emails_failed=emails.get(EmailStatus.FAILED, 0),
    )
