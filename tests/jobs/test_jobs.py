"""The task engine as the store uses it: transactional enqueue, e-mails sent once with a
stable Message-ID, retries, a dead worker's job run again, the worker and status commands."""

from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from jobs.models import OutboundEmail
from jobs.services import (
    email_enqueue,
    email_retry_delay,
    hidden_marker,
    jobs_requeue_stale,
    queue_stats,
)

from .support import run_jobs

pytestmark = pytest.mark.django_db


class Boom(Exception):
    pass


def enqueue(key="k1", to="ana@example.com"):
    return email_enqueue(key=key, to=to, subject="Hi", text="Hello", html="<p>Hello</p>")


def test_an_email_is_queued_with_its_job_and_sent_once_by_a_worker(db_tasks):
    email = enqueue()

    assert mail.outbox == []
    assert DBTaskResult.objects.ready().count() == 1
    assert run_jobs() == 1

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ana@example.com"]
    assert message.extra_headers["Message-ID"] == "<k1@store.example>"
    assert message.alternatives[0][1] == "text/html"
    email.refresh_from_db()
    assert (email.status, email.attempts) == ("sent", 1)
    assert email.sent_at is not None


def test_the_same_key_queues_nothing_twice(db_tasks):
    assert enqueue() is not None
    assert enqueue() is None
    run_jobs()
    assert len(mail.outbox) == 1
    assert DBTaskResult.objects.count() == 1


def test_a_rolled_back_write_leaves_no_email_and_no_job(db_tasks):
    with pytest.raises(Boom), transaction.atomic():
        enqueue()
        raise Boom

    assert OutboundEmail.objects.count() == 0
    assert DBTaskResult.objects.count() == 0


def test_a_second_copy_of_a_sent_emails_job_sends_nothing(db_tasks):
    email = enqueue()
    run_jobs()
    from jobs.tasks import send_email

    send_email.enqueue(email.pk)  # e.g. a dead worker's job made ready again
    run_jobs()

    assert len(mail.outbox) == 1


def test_a_refused_email_is_retried_with_backoff_then_given_up(db_tasks, settings, monkeypatch):
    settings.EMAIL_MAX_ATTEMPTS = 3
    monkeypatch.setattr(
        "django.core.mail.EmailMultiAlternatives.send",
        lambda self, *a, **k: (_ for _ in ()).throw(OSError("refused")),
    )
    email = enqueue()
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        run_jobs()
        email.refresh_from_db()
        assert (email.status, email.attempts) == ("queued", 1)
        retry = DBTaskResult.objects.filter(status=TaskResultStatus.READY).get()
        assert retry.run_after == start + email_retry_delay(1) == start + timedelta(minutes=1)
        assert run_jobs() == 0  # not due yet

        clock.shift(timedelta(minutes=1))
        run_jobs()
        email.refresh_from_db()
        assert email.attempts == 2
        clock.shift(timedelta(minutes=2))
        run_jobs()

    email.refresh_from_db()
    assert (email.status, email.attempts) == ("failed", 3)
    assert "refused" in email.last_error
    assert DBTaskResult.objects.ready().count() == 0


LINK = hidden_marker("link")
SECRET_URL = "https://shop.example/reset?uid=MQ&token=secret-token"


def enqueue_with_link(key="k1"):
    return email_enqueue(
        key=key,
        to="ana@example.com",
        subject="Reset",
        text=f"Open {LINK}",
        html=f'<a href="{LINK}">open</a>',
        hidden={LINK: SECRET_URL},
    )


def test_a_hidden_value_is_only_in_the_sent_message_and_is_emptied_once_sent(db_tasks):
    email = enqueue_with_link()
    stored = OutboundEmail.objects.get(pk=email.pk)
    assert "secret-token" not in stored.body_text + stored.body_html
    assert LINK in stored.body_text

    run_jobs()

    (message,) = mail.outbox
    assert message.body == f"Open {SECRET_URL}"
    assert message.alternatives[0][0] == (
        '<a href="https://shop.example/reset?uid=MQ&amp;token=secret-token">open</a>'
    )
    stored.refresh_from_db()
    assert stored.status == "sent" and stored.hidden == {}
    assert "secret-token" not in stored.body_text + stored.body_html


def test_a_hidden_value_is_emptied_when_the_email_is_given_up(db_tasks, settings, monkeypatch):
    settings.EMAIL_MAX_ATTEMPTS = 1
    monkeypatch.setattr(
        "django.core.mail.EmailMultiAlternatives.send",
        lambda self, *a, **k: (_ for _ in ()).throw(OSError("refused")),
    )
    email = enqueue_with_link()
    run_jobs()
    email.refresh_from_db()
    assert (email.status, email.hidden) == ("failed", {})


def test_a_hidden_value_left_in_a_body_is_refused(db_tasks):
    with pytest.raises(ValueError, match="hidden value"):
        email_enqueue(
            key="k1", to="a@example.com", subject="s", text=SECRET_URL, hidden={LINK: SECRET_URL}
        )
    assert not OutboundEmail.objects.exists()


def test_a_job_left_running_by_a_dead_worker_runs_again_after_the_lease(db_tasks, settings):
    settings.JOBS_LEASE_SECONDS = 60
    email = enqueue()
    # a worker claims the job and dies before running it (kill -9: the row stays RUNNING)
    claimed = DBTaskResult.objects.get()
    claimed.claim("dead-worker")
    assert run_jobs() == 0
    assert jobs_requeue_stale() == 0  # within the lease: maybe still running

    with time_machine.travel(timezone.now() + timedelta(seconds=61)):
        assert jobs_requeue_stale() == 1
        assert run_jobs() == 1

    email.refresh_from_db()
    assert email.status == "sent"
    assert len(mail.outbox) == 1
    claimed.refresh_from_db()
    assert claimed.status == TaskResultStatus.SUCCESSFUL
    assert claimed.worker_ids == ["dead-worker", "test-worker"]


def test_queue_stats_and_the_status_command(db_tasks):
    enqueue("a")
    enqueue("b")

    stats = queue_stats()
    out = StringIO()
    call_command("jobs_status", "--json", stdout=out)

    assert (stats.ready, stats.due, stats.running, stats.emails_queued) == (2, 2, 0, 2)
    assert '"ready": 2' in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_the_worker_command_runs_the_queue_in_batch_mode(db_tasks):
    enqueue("a")
    enqueue("b")

    call_command("jobs_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)

    assert sorted(OutboundEmail.objects.values_list("status", flat=True)) == ["sent", "sent"]
    assert len(mail.outbox) == 2
