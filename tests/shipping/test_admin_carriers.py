"""Carrier integrations in the admin (issue 22 item 3): set one up on a live table, test
its connection against the fake carrier, read the call log (never edit it)."""

import time

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import translation

from bench.fake_carrier import FakeCarrier
from shipping.carriers import SAMPLE_PARCEL, breaker_of, live_answers
from shipping.models import CallStatus, CarrierCall, CarrierIntegration, ShippingTableKind

from .factories import ShippingTableFactory
from .test_admin_imports import make_staff, messages_of

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:shipping_carrierintegration_changelist")
ADD = reverse("admin:shipping_carrierintegration_add")


@pytest.fixture
def staff(client, monkeypatch):
    monkeypatch.setenv("FAKE_CARRIER_TOKEN", "secret")
    make_staff(client)
    return client


def integration_form(table, url: str, **fields) -> dict:
    return {
        "table": table.pk,
        "base_url": url,
        "token_variable": "FAKE_CARRIER_TOKEN",
        "services": " 1, 2 ",
        "markup_percent": "10",
        "markup_fixed": "1.50",
        "extra_days": "1",
        "calls_per_minute": "250",
        **fields,
    }


def test_staff_set_up_an_integration_naming_the_token_variable(staff):
    table = ShippingTableFactory(kind=ShippingTableKind.LIVE)
    response = staff.post(ADD, integration_form(table, "https://sandbox.melhorenvio.com.br"))
    assert response.status_code == 302, response.content.decode()[-3000:]
    integration = CarrierIntegration.objects.get()
    assert integration.services == "1,2"
    assert integration.service_ids == {1, 2}
    # a token pasted where the variable's name goes is refused (never stored)
    other = ShippingTableFactory(kind=ShippingTableKind.LIVE)
    page = staff.post(ADD, integration_form(other, "https://x.example", token_variable="abc.def"))
    assert page.status_code == 200
    assert "not the token" in page.content.decode()
    # and a table that is not live cannot have one
    plain = ShippingTableFactory()
    page = staff.post(ADD, integration_form(plain, "https://x.example"))
    assert page.status_code == 200
    assert CarrierIntegration.objects.count() == 1


@pytest.mark.parametrize(("mode", "expected"), [("ok", "2 services in"), ("error", "HTTP 500")])
def test_the_test_connection_action_calls_the_carrier_and_logs_it(staff, mode, expected):
    with FakeCarrier(mode) as fake:
        table = ShippingTableFactory(kind=ShippingTableKind.LIVE, label="ME")
        integration = CarrierIntegration.objects.create(
            table=table, base_url=fake.url, token_variable="FAKE_CARRIER_TOKEN"
        )
        response = staff.post(
            CHANGELIST,
            {"action": "test_connection", "_selected_action": [integration.pk]},
            follow=True,
        )
    assert response.status_code == 200
    (message,) = messages_of(response)
    assert expected in message
    assert len(fake.calls) == 1
    call = CarrierCall.objects.get()
    assert call.status == (CallStatus.OK if mode == "ok" else CallStatus.ERROR)
    # the log lists it, read only
    log = staff.get(reverse("admin:shipping_carriercall_changelist"))
    assert log.status_code == 200
    assert staff.get(reverse("admin:shipping_carriercall_add")).status_code == 403
    change = staff.get(reverse("admin:shipping_carriercall_change", args=[call.pk]))
    assert change.status_code == 200
    assert 'name="latency_ms"' not in change.content.decode()


def test_the_integration_pages_speak_portuguese(staff, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    table = ShippingTableFactory(kind=ShippingTableKind.LIVE)
    CarrierIntegration.objects.create(table=table, token_variable="FAKE_CARRIER_TOKEN")
    with translation.override("pt-br"):
        page = staff.get(CHANGELIST).content.decode()
        form = staff.get(ADD).content.decode()
    assert "Testar a conexão" in page and "disjuntor" not in page.lower()
    assert '<td class="field-calls_state">Normais</td>' in page
    assert "variável do token" in form.lower() and "dias extras de manuseio" in form.lower()
    assert "Salvar e testar a conexão" in form and "Token da API" in form


def test_a_live_table_links_to_its_integration_instead_of_rows(staff):
    table = ShippingTableFactory(kind=ShippingTableKind.LIVE)
    change = reverse("admin:shipping_shippingtable_change", args=[table.pk])
    assert f"{ADD}?table={table.pk}" in staff.get(change).content.decode()
    integration = CarrierIntegration.objects.create(table=table, token_variable="X")
    page = staff.get(change).content.decode()
    assert reverse("admin:shipping_carrierintegration_change", args=[integration.pk]) in page


# --- Issue 35: the token typed in the admin, the test on the page, Portuguese verdicts ------


def test_a_token_typed_in_the_admin_is_stored_encrypted_shown_masked_and_used(staff, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    token = "typed-secret-token-1234"
    with FakeCarrier("ok") as fake:
        table = ShippingTableFactory(kind=ShippingTableKind.LIVE, label="ME")
        form = integration_form(
            table, fake.url, token_variable="", token=token, markup_fixed="1,50"
        )
        response = staff.post(ADD, {**form, "_test_connection": "1"}, follow=True)
    integration = CarrierIntegration.objects.get()
    change = reverse("admin:shipping_carrierintegration_change", args=[integration.pk])
    assert response.redirect_chain[-1][0] == change
    (message,) = messages_of(response)
    assert message.startswith("ME") and "Respondeu, 2 serviços em" in message
    assert fake.calls[0]["headers"]["Authorization"] == f"Bearer {token}"
    # encrypted at rest, never shown again: only its last four characters
    assert token not in integration.token_encrypted and integration.token() == token
    page = staff.get(change).content.decode()
    assert token not in page and "••••••••1234" in page
    # saved again without typing it: kept; the environment variable stays an option
    staff.post(change, integration_form(table, fake.url, token_variable="", markup_fixed="1,50"))
    assert CarrierIntegration.objects.get().token() == token
    staff.post(change, integration_form(table, fake.url, token_forget="on", markup_fixed="1,50"))
    assert CarrierIntegration.objects.get().token() == "secret"  # FAKE_CARRIER_TOKEN


def test_a_stored_token_needs_its_key(staff, settings):
    table = ShippingTableFactory(kind=ShippingTableKind.LIVE)
    integration = CarrierIntegration(table=table, token_variable="")
    integration.token_set("a-long-carrier-token")
    integration.save()
    settings.SECRETS_KEY = "another key, new"
    assert CarrierIntegration.objects.get().token() == ""
    page = staff.get(reverse("admin:shipping_carrierintegration_change", args=[integration.pk]))
    assert "type it again" in page.content.decode()
    settings.SECRETS_KEY = "another key, new," + settings.SECRET_KEY  # the old key still opens it
    assert CarrierIntegration.objects.get().token() == "a-long-carrier-token"


def test_an_integration_needs_a_token_or_a_variable(staff):
    table = ShippingTableFactory(kind=ShippingTableKind.LIVE)
    page = staff.post(ADD, integration_form(table, "https://x.example", token_variable=""))
    assert page.status_code == 200 and "Type the API token" in page.content.decode()
    assert not CarrierIntegration.objects.exists()


@pytest.mark.parametrize(
    ("mode", "verdict", "error"),
    [
        ("error", "Falhou", "o servidor da transportadora falhou (HTTP 500)"),
        ("garbage", "Falhou", "a resposta não é JSON (confira a URL base)"),
        ("slow", "Tempo esgotado", "sem resposta a tempo"),
    ],
)
def test_every_verdict_and_error_reads_in_portuguese(staff, settings, mode, verdict, error):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    settings.CARRIER_TIMEOUT_MS = 300
    with FakeCarrier(mode, slow_seconds=1) as fake:
        table = ShippingTableFactory(kind=ShippingTableKind.LIVE, label="ME")
        integration = CarrierIntegration.objects.create(
            table=table, base_url=fake.url, token_variable="FAKE_CARRIER_TOKEN"
        )
        change = reverse("admin:shipping_carrierintegration_change", args=[integration.pk])
        form = integration_form(table, fake.url, markup_fixed="1,50")
        response = staff.post(change, {**form, "_test_connection": "1"}, follow=True)
    (message,) = messages_of(response)
    assert f": {verdict} após " in message and message.endswith(f": {error}.")
    call = CarrierCall.objects.get()
    log = staff.get(reverse("admin:shipping_carriercall_changelist")).content.decode()
    assert f'<td class="field-outcome">{verdict}</td>' in log and error in log
    details = staff.get(reverse("admin:shipping_carriercall_change", args=[call.pk]))
    assert error in details.content.decode()


def test_a_fixed_integration_is_asked_again_at_once(staff, monkeypatch):
    monkeypatch.delenv("FAKE_CARRIER_TOKEN")
    with FakeCarrier("ok") as fake:
        table = ShippingTableFactory(kind=ShippingTableKind.LIVE)
        integration = CarrierIntegration.objects.create(
            table=table, base_url=fake.url, token_variable="FAKE_CARRIER_TOKEN"
        )
        (failed,) = live_answers([(integration, SAMPLE_PARCEL)], deadline=time.monotonic() + 2)
        assert failed.services is None and "FAKE_CARRIER_TOKEN" in failed.error
        # the cached failure answers until the integration is saved again, fixed
        (cached,) = live_answers([(integration, SAMPLE_PARCEL)], deadline=time.monotonic() + 2)
        assert cached.services is None and not fake.calls
        change = reverse("admin:shipping_carrierintegration_change", args=[integration.pk])
        staff.post(change, integration_form(table, fake.url, token="fixed-token"))
        fixed = CarrierIntegration.objects.get()
        (answer,) = live_answers([(fixed, SAMPLE_PARCEL)], deadline=time.monotonic() + 2)
    assert answer.services is not None and len(answer.services) == 2
    assert fake.calls[0]["headers"]["Authorization"] == "Bearer fixed-token"


def test_a_save_in_another_process_reopens_this_process_s_paused_breaker(monkeypatch):
    # given this process's breaker paused by failures of an integration
    monkeypatch.setenv("FAKE_CARRIER_TOKEN", "a-token")
    with FakeCarrier("ok") as fake:
        table = ShippingTableFactory(kind=ShippingTableKind.LIVE)
        integration = CarrierIntegration.objects.create(
            table=table, base_url=fake.url, token_variable="FAKE_CARRIER_TOKEN"
        )
        breaker = breaker_of(integration)
        for _ in range(10):
            breaker.record_failure(RuntimeError("carrier down"))
        assert not breaker.allow()
        # when it is saved fixed elsewhere (a new revision; no admin code of this process ran)
        CarrierIntegration.objects.filter(pk=integration.pk).update(revision=F("revision") + 1)
        fixed = CarrierIntegration.objects.get()
        # then the next quote asks the carrier at once
        (answer,) = live_answers([(fixed, SAMPLE_PARCEL)], deadline=time.monotonic() + 2)
    assert answer.services is not None and len(fake.calls) == 1


def test_every_known_carrier_error_reads_in_portuguese():
    from shipping.admin.carriers import ERROR_TEXTS, error_text

    samples = [
        "HTTP 401",
        "HTTP 403",
        "HTTP 404",
        "HTTP 429",
        "HTTP 502",
        "HTTP 418",
        "the environment variable  is empty",
        "the environment variable ME_TOKEN is empty",
        "the base URL must be an http(s) URL",
        "the answer is too long",
        "the answer is not JSON",
        "the answer is not a list of services",
        "a service has no id",
        "no answer by the deadline",
        "TimeoutError: timed out",
        "URLError: <urlopen error [Errno -2] Name or service not known>",
        "URLError: <urlopen error [Errno 111] Connection refused>",
        "URLError: <urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed>",
        "RemoteDisconnected: Remote end closed connection without response",
        "ValueError: unknown url type: 'ftp'",
    ]
    with translation.override("pt-br"):
        shown = [error_text(sample) for sample in samples]
    assert len(set(shown)) == len(ERROR_TEXTS) - 1  # two spellings of a timeout
    assert all(text != sample for text, sample in zip(shown, samples, strict=True))
    assert "variável de ambiente ME_TOKEN" in shown[7] and "HTTP 502" in shown[4]
