"""POST /publics/customers/password-reset and .../password-reset/confirm: a one-time,
expiring link by e-mail; no account enumeration."""

import re
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.hashers import check_password
from django.core import mail
from rest_framework.throttling import SimpleRateThrottle

from storefront.models import Customer
from storefront.tokens import CustomerPasswordResetTokenGenerator, token_issue
from tests.helpers import assert_error, assert_error_envelope
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db

REQUEST_URL = "/publics/customers/password-reset"
CONFIRM_URL = "/publics/customers/password-reset/confirm"
NEW_PASSWORD = "a brand new long passphrase 7"


@pytest.fixture(autouse=True)
def _public_base_url(settings):
    settings.PUBLIC_BASE_URL = "https://loja.example.com.br/"


@pytest.fixture
def customer():
    return CustomerFactory(name="Joana Silva", email="joana@example.com")


def ask(api_client, email, capture, **extra):
    with capture(execute=True):
        return api_client.post(REQUEST_URL, {"email": email}, format="json", **extra)


def confirm(api_client, body):
    return api_client.post(CONFIRM_URL, body, format="json")


def link_of(message) -> dict:
    url = re.search(r"https://\S+", message.body).group(0)
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}/" == "https://loja.example.com.br/"
    query = parse_qs(parts.query)
    return {"uid": query["uid"][0], "token": query["token"][0]}


def test_a_known_email_gets_a_reset_link(api_client, customer, django_capture_on_commit_callbacks):
    response = ask(api_client, " Joana@EXAMPLE.com ", django_capture_on_commit_callbacks)

    assert response.status_code == 202
    assert response.json()["status"] is True
    assert "link" in response.json()["data"]["message"]
    assert response["Cache-Control"] == "no-store"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["joana@example.com"]
    assert message.subject == "Reset your password"
    assert "Hello Joana Silva," in message.body
    assert "expires in 1 hour" in message.body
    link = link_of(message)
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    assert link["token"] in html and "Choose a new password" in html


def test_an_unknown_email_gets_the_same_answer_and_no_mail(
    api_client, customer, django_capture_on_commit_callbacks
):
    known = ask(api_client, "joana@example.com", django_capture_on_commit_callbacks)
    mail.outbox.clear()

    unknown = ask(api_client, "nobody@example.com", django_capture_on_commit_callbacks)

    assert unknown.status_code == 202
    assert unknown.content == known.content
    assert mail.outbox == []


def test_an_inactive_account_gets_no_mail(api_client, django_capture_on_commit_callbacks):
    CustomerFactory(email="off@example.com", active=False)
    assert ask(api_client, "off@example.com", django_capture_on_commit_callbacks).status_code == 202
    assert mail.outbox == []


def test_the_link_sets_a_new_password_once_and_voids_sign_in_tokens(
    api_client, customer, django_capture_on_commit_callbacks
):
    old_session = token_issue(customer_id=customer.pk, password_hash=customer.password).token
    ask(api_client, customer.email, django_capture_on_commit_callbacks)
    link = link_of(mail.outbox[0])

    response = confirm(api_client, {**link, "password": NEW_PASSWORD})

    assert response.status_code == 200, response.content
    assert response.json()["data"]["message"].startswith("Your password was changed")
    customer.refresh_from_db()
    assert check_password(NEW_PASSWORD, customer.password)
    login = api_client.post(
        "/publics/customers/login",
        {"email": customer.email, "password": NEW_PASSWORD},
        format="json",
    )
    assert login.status_code == 200
    me = api_client.get("/publics/customers/me", HTTP_AUTHORIZATION=f"Bearer {old_session}")
    assert_error_envelope(me, 401, "UNAUTHENTICATED")
    # reused link
    again = confirm(api_client, {**link, "password": "yet another long passphrase 8"})
    assert "token" in assert_error(again, 422, "VALIDATION_ERROR")["message"]
    customer.refresh_from_db()
    assert check_password(NEW_PASSWORD, customer.password)


def test_every_earlier_link_is_void_after_a_reset(
    api_client, customer, django_capture_on_commit_callbacks
):
    ask(api_client, customer.email, django_capture_on_commit_callbacks)
    ask(api_client, customer.email, django_capture_on_commit_callbacks)
    first, second = (link_of(message) for message in mail.outbox)

    assert confirm(api_client, {**second, "password": NEW_PASSWORD}).status_code == 200
    stale = confirm(api_client, {**first, "password": "yet another long passphrase 8"})
    assert_error(stale, 422, "VALIDATION_ERROR")
    customer.refresh_from_db()
    assert check_password(NEW_PASSWORD, customer.password)


def test_an_expired_link_is_refused(
    api_client, customer, settings, monkeypatch, django_capture_on_commit_callbacks
):
    ask(api_client, customer.email, django_capture_on_commit_callbacks)
    link = link_of(mail.outbox[0])
    later = datetime.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 5)
    monkeypatch.setattr(CustomerPasswordResetTokenGenerator, "_now", lambda self: later)

    response = confirm(api_client, {**link, "password": NEW_PASSWORD})

    assert "expired" in assert_error(response, 422, "VALIDATION_ERROR")["message"]
    customer.refresh_from_db()
    assert not check_password(NEW_PASSWORD, customer.password)


@pytest.mark.parametrize(
    "password", ["short", "12345678901234", "password123", "joana@example.com"]
)
def test_a_weak_password_is_422_and_the_link_still_works(
    api_client, customer, password, django_capture_on_commit_callbacks
):
    ask(api_client, customer.email, django_capture_on_commit_callbacks)
    link = link_of(mail.outbox[0])

    weak = confirm(api_client, {**link, "password": password})

    assert "password" in assert_error(weak, 422, "VALIDATION_ERROR")["message"]
    before = Customer.objects.get(pk=customer.pk).password
    assert before == customer.password
    assert confirm(api_client, {**link, "password": NEW_PASSWORD}).status_code == 200


@pytest.mark.parametrize(
    "change",
    [
        {"uid": "!!!"},
        {"uid": "x" * 64},
        {"uid": "YWJj"},  # "abc"
        {"uid": "OTk5OTk5"},  # 999999: no such account
        {"uid": "OTk5OTk5OTk5OTk5OTk5OTk5OTk5OQ"},  # beyond any id
        {"token": "abc-def"},
        {"token": ""},
    ],
)
def test_a_wrong_uid_or_token_is_422(
    api_client, customer, change, django_capture_on_commit_callbacks
):
    ask(api_client, customer.email, django_capture_on_commit_callbacks)
    link = link_of(mail.outbox[0])
    response = confirm(api_client, {**link, "password": NEW_PASSWORD, **change})
    assert_error(response, 422, "VALIDATION_ERROR")
    customer.refresh_from_db()
    assert not check_password(NEW_PASSWORD, customer.password)


@pytest.mark.parametrize(
    ("url", "body"),
    [
        (REQUEST_URL, {}),
        (REQUEST_URL, {"email": 12}),
        (REQUEST_URL, {"email": "not an e-mail"}),
        (REQUEST_URL, {"email": ["a@example.com"]}),
        (REQUEST_URL, {"email": "a\x00@example.com"}),
        (CONFIRM_URL, {}),
        (CONFIRM_URL, {"uid": 1, "token": "x", "password": NEW_PASSWORD}),
        (CONFIRM_URL, {"uid": "MQ", "token": None, "password": NEW_PASSWORD}),
        (CONFIRM_URL, {"uid": "MQ", "token": "x", "password": "y" * 129}),
    ],
)
def test_hostile_bodies_are_422(api_client, url, body):
    assert_error(api_client.post(url, body, format="json"), 422, "VALIDATION_ERROR")
    assert mail.outbox == []


def test_reset_requests_are_throttled_per_email(
    api_client, customer, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"login": "100/min", "login_email": "2/min"}
    )
    for _ in range(2):
        assert (
            ask(api_client, customer.email, django_capture_on_commit_callbacks).status_code == 202
        )
    response = ask(
        api_client, customer.email, django_capture_on_commit_callbacks, REMOTE_ADDR="10.9.9.9"
    )
    assert_error_envelope(response, 429, "TOO_MANY_REQUESTS")
    assert len(mail.outbox) == 2


def test_reset_confirmations_are_throttled_per_ip(api_client, monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"login": "2/min"})
    body = {"uid": "MQ", "token": "guess", "password": NEW_PASSWORD}
    for _ in range(2):
        assert confirm(api_client, body).status_code == 422
    assert_error_envelope(confirm(api_client, body), 429, "TOO_MANY_REQUESTS")


def test_a_failed_send_is_still_202_and_the_mail_stays_queued_for_a_retry(
    api_client, customer, monkeypatch, django_capture_on_commit_callbacks
):
    from jobs.models import OutboundEmail

    def broken(self, fail_silently=False):
        raise OSError("SMTP down")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", broken)
    response = ask(api_client, customer.email, django_capture_on_commit_callbacks)
    assert response.status_code == 202
    (queued,) = OutboundEmail.objects.filter(to=customer.email)
    assert queued.status != "sent" and queued.sent_at is None
    assert "SMTP down" in queued.last_error


def test_a_retried_reset_request_sends_no_second_mail(
    api_client, customer, django_capture_on_commit_callbacks
):
    first = ask(
        api_client, customer.email, django_capture_on_commit_callbacks, HTTP_IDEMPOTENCY_KEY="r1"
    )
    again = ask(
        api_client, customer.email, django_capture_on_commit_callbacks, HTTP_IDEMPOTENCY_KEY="r1"
    )
    assert first.status_code == again.status_code == 202
    assert again["Idempotent-Replayed"] == "true"
    assert len(mail.outbox) == 1


def test_the_outbox_keeps_no_live_link_and_the_sent_email_has_a_working_one(
    api_client, customer, settings, django_capture_on_commit_callbacks
):
    """The stored e-mail (what staff read in the outbox) holds a marker where the link goes;
    a worker sends the real link, which works, and the row then keeps nothing of it."""
    from jobs.models import OutboundEmail
    from storefront.emails import RESET_LINK
    from tests.jobs.support import DATABASE_TASKS, run_jobs

    settings.TASKS = DATABASE_TASKS
    ask(api_client, customer.email, django_capture_on_commit_callbacks)
    queued = OutboundEmail.objects.get(to=customer.email)
    assert mail.outbox == []
    assert RESET_LINK in queued.body_text and RESET_LINK in queued.body_html
    assert "token=" not in queued.body_text + queued.body_html

    run_jobs()

    link = link_of(mail.outbox[0])
    assert link["token"] in mail.outbox[0].alternatives[0][0]
    queued.refresh_from_db()
    assert queued.status == "sent" and queued.hidden == {}
    assert link["token"] not in queued.body_text + queued.body_html
    assert confirm(api_client, {**link, "password": NEW_PASSWORD}).status_code == 200
