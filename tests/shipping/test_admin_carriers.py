"""Carrier integrations in the admin (issue 22 item 3): set one up on a live table, test
its connection against the fake carrier, read the call log (never edit it)."""

import pytest
from django.urls import reverse
from django.utils import translation

from bench.fake_carrier import FakeCarrier
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
    assert "Testar a conexão" in page and "disjuntor" in page.lower()
    assert "variável do token" in form.lower() and "dias extras de manuseio" in form.lower()


def test_a_live_table_links_to_its_integration_instead_of_rows(staff):
    table = ShippingTableFactory(kind=ShippingTableKind.LIVE)
    change = reverse("admin:shipping_shippingtable_change", args=[table.pk])
    assert f"{ADD}?table={table.pk}" in staff.get(change).content.decode()
    integration = CarrierIntegration.objects.create(table=table, token_variable="X")
    page = staff.get(change).content.decode()
    assert reverse("admin:shipping_carrierintegration_change", args=[integration.pk]) in page
