"""Writes of the jobs app: outbound e-mails and the queue's upkeep.

`email_enqueue` is what other apps call to send an e-mail from a job: inside the caller's
transaction it records the message and enqueues the job that sends it, so the e-mail exists
only if the caller's write commits, and a `key` already used sends nothing twice.

Secrets an e-mail carries (a one-time password-reset link) are passed as `hidden` values:
the stored bodies, which staff read in the outbox, hold a marker (`hidden_marker`) in their
place; only the message handed to the mail server has them, and they are emptied from the
row once the e-mail is sent or given up.
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
    """The stable Message-ID of the e-mail of `key` (same on every attempt and resend)."""
    domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip(" >") or "store.invalid"
    safe = "".join(c if c.isalnum() or c in "-._" else "." for c in key)
    return f"<{safe}@{domain}>"


def hidden_marker(name: str) -> str:
    """What a stored body shows in place of the hidden value `name` (no HTML-special
    characters, so a template renders it unchanged in text, HTML and attributes)."""
    return f"[{name}: hidden, sent only to the recipient]"


def email_enqueue(
    *,
    key: str,
    to: str,
    subject: str,
    text: str,
    html: str = "",
    hidden: dict[str, str] | None = None,
) -> OutboundEmail | None:
    """Record the e-mail of `key` and enqueue its sending job, in the caller's transaction.

    `hidden` maps markers found in `text`/`html` (see `hidden_marker`) to the secret values
    the sent message carries in their place; the values themselves must not be in the bodies.
    Returns None (and enqueues nothing) when an e-mail with this key already exists.
    """
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
                )
        except IntegrityError:
            return None
        send_email.enqueue(email.pk)
    return email


def email_retry_delay(attempts: int) -> timedelta:
    """Wait before the next attempt after `attempts` failed ones: 1, 2, 4... minutes."""
    return timedelta(minutes=2 ** max(attempts - 1, 0))


def email_send(email_id: int) -> str:
    """Send the queued e-mail `email_id` once; the job's body.

    The row is claimed (locked), the message handed to the e-mail backend with its stable
    Message-ID and the row marked sent in one transaction: a second copy of the job finds it
    sent and does nothing. Only a worker dying after the backend accepted the message and
    before the commit sends it twice (with the same Message-ID). A refused message is tried
    again later (EMAIL_MAX_ATTEMPTS in all), then marked failed.
    """
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
            headers={"Message-ID": email.message_id},
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
    """Make jobs claimed by a worker that died (running past the lease) ready again.

    django-tasks' database worker marks a job running when it claims it and leaves it so if
    the process is killed; this gives such a job to the next worker. Jobs are written to be
    run again safely (an e-mail checks its row, a webhook delivery its attempt).
    """
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
    """What an operator watches: jobs waiting, running and failed, and the oldest wait."""
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
