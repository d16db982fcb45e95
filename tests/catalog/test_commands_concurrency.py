"""The back-in-stock scan run twice at once on PostgreSQL: one e-mail per interest."""

import threading

import pytest
from django.core import mail
from django.db import connection, connections

from catalog.models import InterestStatus, ProductInterest
from catalog.restocks import back_in_stock_scan

from .factories import ProductFactory, ProductInterestFactory, StockFactory

needs_row_locks = pytest.mark.skipif(
    not connection.features.has_select_for_update_skip_locked,
    reason="needs a database with SELECT ... FOR UPDATE SKIP LOCKED (PostgreSQL); CI runs it",
)


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_two_copies_running_at_once_email_each_interest_exactly_once(settings):
    # given 30 pending notify-me interests on products back in stock
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []
    for _ in range(10):
        product = ProductFactory()
        StockFactory(product=product, available=5)
        ProductInterestFactory.create_batch(3, product=product)
    start = threading.Barrier(2)
    summaries, errors = [], []

    def worker():
        try:
            start.wait()
            summaries.append(back_in_stock_scan())
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    # when two copies run at the same moment
    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    # then every interest got exactly one e-mail, and all are marked notified
    assert errors == []
    recipients = [message.to[0] for message in mail.outbox]
    assert len(recipients) == 30
    assert len(set(recipients)) == 30
    assert sum(summary.opened for summary in summaries) == 10
    assert ProductInterest.objects.filter(status=InterestStatus.NOTIFIED).count() == 30
