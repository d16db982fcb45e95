"""manage.py send_stock_notifications."""

from io import StringIO
from unittest import mock

import pytest
from django.core import mail
from django.core.management import call_command

from catalog.models import InterestStatus, ProductInterest
from jobs.models import OutboundEmail
from jobs.tasks import send_email

from .factories import ProductFactory, ProductInterestFactory, StockFactory, StorageFactory

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command("send_stock_notifications", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture
def back_in_stock():
    product = ProductFactory(name="Blue shirt")
    StockFactory(product=product, available=3)
    return product


def test_back_in_stock_interests_are_emailed_once_even_when_run_twice(back_in_stock):
    # given two customers waiting for a product that is now in stock
    first = ProductInterestFactory(product=back_in_stock, email="ana@example.com")
    second = ProductInterestFactory(product=back_in_stock, email="bia@example.com")

    # when the command runs twice
    output = run()
    run()

    # then each customer got exactly one e-mail, with text and HTML, and is marked notified
    assert sorted(m.to[0] for m in mail.outbox) == ["ana@example.com", "bia@example.com"]
    message = mail.outbox[0]
    assert "Blue shirt" in message.subject
    assert "/notices/back-in-stock/visit/" in message.body  # a signed link to the product
    assert "/notices/back-in-stock/unsubscribe/" in message.body
    assert message.alternatives[0][1] == "text/html"
    for interest in (first, second):
        interest.refresh_from_db()
        assert interest.status == InterestStatus.NOTIFIED
        assert interest.notified_at is not None
    assert "1 restock(s) opened, 1 wave(s) queued" in output


def test_out_of_stock_products_and_other_interests_are_left_alone():
    no_stock = ProductFactory()
    StockFactory(product=no_stock, available=0)
    inactive_storage = ProductFactory()
    StockFactory(product=inactive_storage, storage=StorageFactory(active=False), available=9)
    inactive_product = ProductFactory(active=False)
    StockFactory(product=inactive_product, available=9)
    waiting = [
        ProductInterestFactory(product=no_stock),
        ProductInterestFactory(product=inactive_storage),
        ProductInterestFactory(product=inactive_product),
    ]
    in_stock = ProductFactory()
    StockFactory(product=in_stock, available=1)
    on_request = ProductInterestFactory(product=in_stock, origin="on-request")

    output = run()

    assert mail.outbox == []
    assert "0 restock(s) opened, 0 wave(s) queued" in output
    for interest in [*waiting, on_request]:
        interest.refresh_from_db()
        assert interest.status == InterestStatus.PENDING


def test_dry_run_counts_without_sending(back_in_stock):
    ProductInterestFactory(product=back_in_stock)

    output = run("--dry-run")

    assert "1 interest(s) wait for products in stock" in output
    assert mail.outbox == []
    assert ProductInterest.objects.get().status == InterestStatus.PENDING


def test_a_refused_send_is_kept_queued_and_sent_by_a_later_attempt(back_in_stock):
    # given the e-mail server refuses the first attempt
    interest = ProductInterestFactory(product=back_in_stock)
    with mock.patch(
        "django.core.mail.EmailMultiAlternatives.send", side_effect=OSError("SMTP down")
    ):
        output = run()

    # then the interest is notified (its e-mail is recorded) and the e-mail stays queued
    assert "1 wave(s) queued" in output
    interest.refresh_from_db()
    assert interest.status == InterestStatus.NOTIFIED
    email = OutboundEmail.objects.get()
    assert (email.status, email.attempts) == ("queued", 1)
    assert "SMTP down" in email.last_error
    assert mail.outbox == []

    # when the job runs again, it is sent once; a later command run queues nothing more
    send_email.call(email.pk)
    run()
    email.refresh_from_db()
    assert email.status == "sent"
    assert len(mail.outbox) == 1
    message_id = mail.outbox[0].extra_headers["Message-ID"]
    assert message_id == f"<back-in-stock.{interest.pk}@store.example>"
