"""The demo's password-reset page (PASSWORD_RESET_DEMO_PAGE): the e-mailed link opens a form
whose script posts uid, token and the new password to the API's confirmation."""

import re
from html import unescape
from urllib.parse import urlsplit

import pytest
from django.core import mail

from tests.helpers import assert_error_envelope
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a brand new long passphrase 7"


@pytest.fixture(autouse=True)
def _demo_page(settings):
    settings.PASSWORD_RESET_DEMO_PAGE = True


def hidden_inputs(html: str) -> dict:
    return {
        name: unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', html)
    }


def test_the_emailed_link_opens_a_page_that_completes_the_reset(
    client, api_client, django_capture_on_commit_callbacks
):
    customer = CustomerFactory(email="joana@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        api_client.post(
            "/publics/customers/password-reset", {"email": customer.email}, format="json"
        )
    link = urlsplit(re.search(r"http://\S+", mail.outbox[0].body).group(0))
    assert link.path == "/account/password-reset"

    page = client.get(f"{link.path}?{link.query}")

    assert page.status_code == 200
    assert page["Content-Type"].startswith("text/html")
    assert page["Cache-Control"] == "no-store" and page["Referrer-Policy"] == "no-referrer"
    html = page.content.decode()
    assert '<form id="reset-form"' in html and 'type="password"' in html
    assert 'data-confirm-path="/publics/customers/password-reset/confirm"' in html
    fields = hidden_inputs(html)
    assert set(fields) == {"uid", "token"}

    # what the page's script sends
    answer = api_client.post(
        "/publics/customers/password-reset/confirm",
        {**fields, "password": NEW_PASSWORD},
        format="json",
    )

    assert answer.status_code == 200 and answer.json()["status"] is True
    login = api_client.post(
        "/publics/customers/login",
        {"email": customer.email, "password": NEW_PASSWORD},
        format="json",
    )
    assert login.status_code == 200


@pytest.mark.parametrize(
    "query",
    [
        "",
        "uid=MQ",
        "token=abc",
        "uid=&token=abc",
        f"uid=MQ&token={'x' * 201}",
        "uid[]=MQ&token=abc",
    ],
)
def test_an_incomplete_link_shows_a_message_and_no_form(client, query):
    page = client.get(f"/account/password-reset?{query}")

    assert page.status_code == 200
    assert "This link is incomplete" in page.content.decode()
    assert "<form" not in page.content.decode()


def test_hostile_link_values_are_escaped(client):
    page = client.get(
        "/account/password-reset",
        {"uid": '"><script>alert(1)</script>', "token": "x'\"<b>"},
    )

    html = page.content.decode()
    assert page.status_code == 200
    assert "<script>alert(1)" not in html and "<b>" not in html
    assert hidden_inputs(html)["uid"] == '"><script>alert(1)</script>'


def test_the_page_only_reads(client):
    assert_error_envelope(client.post("/account/password-reset"), 405, "METHOD_NOT_ALLOWED")


def test_without_the_demo_page_the_path_is_a_json_404(client, settings):
    settings.PASSWORD_RESET_DEMO_PAGE = False
    assert_error_envelope(client.get("/account/password-reset?uid=MQ&token=x"), 404, "NOT_FOUND")


@pytest.mark.parametrize(
    ("password", "expected"),
    [
        ("password", {"Esta senha é muito comum."}),
        ("xk3", {"Esta senha é muito curta."}),
        ("12345678901", {"Esta senha é inteiramente numérica.", "Esta senha é muito comum."}),
    ],
)
def test_the_pages_errors_are_the_apis_in_portuguese(
    client, api_client, django_capture_on_commit_callbacks, settings, password, expected
):
    """The API keeps the contract's English; the page maps each message it can answer with to
    the shopper's language (issue 35), so no English reaches the shopper."""
    settings.CUSTOMER_LANGUAGE_CODE = "pt-br"
    customer = CustomerFactory(email="joana@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        api_client.post(
            "/publics/customers/password-reset", {"email": customer.email}, format="json"
        )
    link = urlsplit(re.search(r"http://\S+", mail.outbox[0].body).group(0))
    page = client.get(f"{link.path}?{link.query}")
    texts = page.context["error_texts"]
    fields = hidden_inputs(page.content.decode())
    answers = [
        api_client.post(
            "/publics/customers/password-reset/confirm",
            {**fields, "password": password},
            format="json",
        ),
        api_client.post(
            "/publics/customers/password-reset/confirm",
            {**fields, "token": "x" + fields["token"], "password": NEW_PASSWORD},
            format="json",
        ),
    ]
    errors = [
        message
        for answer in answers
        for messages in answer.json()["data"]["errors"].values()
        for message in messages
    ]
    assert errors and all(message in texts for message in errors)  # every one is known
    shown = {texts[message] for message in errors}
    assert {text.split(" Ela ")[0] for text in shown} >= expected
    assert "Este link de redefinição de senha é inválido, já foi usado ou expirou." in " ".join(
        shown
    )
    assert not any(text == message for text, message in zip(shown, errors, strict=False))
