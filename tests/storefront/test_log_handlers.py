"""Operator e-mails: never inside a request, one per distinct error per interval, switchable."""

import logging
import threading
from unittest import mock

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import connection

from infra.log_handlers import OperatorEmailHandler

from .test_database_unavailable import real_connection_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def handler(settings):
    settings.ADMINS = [("Ops", "ops@example.com")]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ERROR_EMAILS = True
    settings.ERROR_EMAIL_INTERVAL = 300
    handlers = [
        h
        for h in logging.getLogger("django.request").handlers
        if isinstance(h, OperatorEmailHandler)
    ]
    assert len(handlers) == 1, "django.request must e-mail through OperatorEmailHandler"
    found = handlers[0]
    assert found in logging.getLogger("storefront.database").handlers
    found.reset()
    yield found
    found.flush()
    found.reset()


def crash(api_client, error=None):
    with mock.patch(
        "feedback.api.views.product_reviews_public", side_effect=error or RuntimeError("boom")
    ):
        return api_client.get("/review/product")


def test_a_crash_e_mails_the_operators_from_another_thread_after_the_answer(api_client, handler):
    release = threading.Event()
    senders = []

    def slow_smtp(*args, **kwargs):
        senders.append(threading.current_thread().name)
        release.wait(5)

    with mock.patch("infra.log_handlers.mail_admins", side_effect=slow_smtp) as send:
        response = crash(api_client)
        # The answer is out while the (slow) SMTP hand-off has not finished.
        assert response.status_code == 500
        release.set()
        handler.flush()
    assert send.call_count == 1
    assert senders == ["operator-email"]
    subject, body = send.call_args.args
    assert "Internal error on GET /review/product" in subject
    assert "RuntimeError: boom" in body
    assert "Cookie" not in body and "HTTP_" not in body


def test_the_same_error_is_e_mailed_once_per_interval(api_client, handler):
    for _ in range(5):
        assert crash(api_client).status_code == 500
    handler.flush()
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ops@example.com"]


def test_another_error_gets_its_own_e_mail(api_client, handler):
    crash(api_client, RuntimeError("boom"))
    crash(api_client, KeyError("other"))
    handler.flush()
    assert len(mail.outbox) == 2


def test_after_the_interval_the_next_e_mail_counts_the_ones_left_out(api_client, handler, settings):
    for _ in range(3):
        crash(api_client)
    handler.flush()
    settings.ERROR_EMAIL_INTERVAL = 0
    mail.outbox.clear()
    cache.clear()  # the cross-process marker of the first e-mail
    crash(api_client)
    handler.flush()
    assert len(mail.outbox) == 1
    assert "(2 more of this error since the last e-mail.)" in mail.outbox[0].body


def test_another_process_already_e_mailed_it(api_client, handler):
    with mock.patch("infra.log_handlers.cache") as shared_cache:
        shared_cache.add.return_value = False
        crash(api_client)
        handler.flush()
    assert mail.outbox == []


def test_a_database_outage_is_one_e_mail_not_two_per_request(api_client, handler):
    with mock.patch.object(connection, "ensure_connection", side_effect=real_connection_error()):
        for _ in range(4):
            assert api_client.get("/review/product").status_code == 503
    handler.flush()
    assert len(mail.outbox) == 1
    assert "ERROR: Database unavailable on GET /review/product" in mail.outbox[0].subject


def test_error_e_mails_can_be_switched_off(api_client, handler, settings):
    settings.ERROR_EMAILS = False
    crash(api_client)
    handler.flush()
    assert mail.outbox == []


def test_no_admins_no_e_mail(api_client, handler, settings):
    settings.ADMINS = []
    crash(api_client)
    handler.flush()
    assert mail.outbox == []


def test_a_failing_smtp_server_never_reaches_the_client(api_client, handler):
    with mock.patch("infra.log_handlers.mail_admins", side_effect=OSError("smtp down")):
        assert crash(api_client).status_code == 500
        handler.flush()
    assert crash(api_client, KeyError("next")).status_code == 500
    handler.flush()
