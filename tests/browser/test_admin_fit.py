"""The back office at 1366 x 900 with the navigation sidebar open, in Portuguese (issue 20):
every change list and change form fits (no horizontal overflow, no inner scrollbar), and
prices typed the Brazilian way save what was typed.

The store is the demo store (`seed_demo`) plus one row in each list the demo leaves empty
(webhook deliveries, e-mails, postal imports, sign-in records, task results, groups), with
the long values real ones have (user agents, e-mail addresses, URLs).
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation

from catalog.models import BackInStockSettings, ProductInterest, SearchCount
from catalog.selectors import selling_prices_get
from feedback.models import PurchaseOrder
from infra.numbers import money_text
from tests.catalog.factories import PriceRuleFactory, ProductFactory, ProductPriceFactory

from .conftest import MISSING
from .test_admin_flows import PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(MISSING is not None, reason=str(MISSING)),
    # serialized_rollback: the rows migrations create (default trade policy, sales channel)
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86"
)

# Horizontal overflow of the page or of any element that scrolls sideways (the change
# list's results area, a form's inline table...): [what, scrollWidth, clientWidth] each.
OVERFLOWS_JS = """
const out = [];
const root = document.documentElement;
if (root.scrollWidth > root.clientWidth + 1) out.push(['page', root.scrollWidth, root.clientWidth]);
for (const e of document.querySelectorAll('#content-main, #content-main *')) {
  if (['SELECT', 'TEXTAREA', 'INPUT'].includes(e.tagName)) continue;  // clip, never scroll
  const style = getComputedStyle(e).overflowX;
  const scrolls = style === 'auto' || style === 'scroll' || e.id === 'content-main';
  if (scrolls && e.scrollWidth > e.clientWidth + 1) {
    const classes = typeof e.className === 'string' ? e.className.trim() : '';
    const name = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
      (classes ? '.' + classes.split(/\\s+/).join('.') : '');
    out.push([name, e.scrollWidth, e.clientWidth]);
  }
}
return out;
"""


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser(
        username="gerente", email="gerente@loja.example", password=PASSWORD
    )


@pytest.fixture
def signed_in(browser, staff, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    with browser.step("sign in"):
        browser.sign_in(staff.username, PASSWORD)
        assert browser.path == "/admin/", browser.field_errors()
    return browser


@pytest.fixture
def full_store(staff, settings):
    """The demo store with a row in every change list, jobs queued in the database as in
    production (the task results list cannot show jobs of the tests' immediate backend)."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    from django_tasks_db.models import DBTaskResult

    from jobs.models import OutboundEmail
    from shipping.models import (
        Carrier,
        CarrierCall,
        CarrierIntegration,
        PostalImportJob,
        ShippingTable,
    )
    from webhooks.models import Delivery, Endpoint

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    call_command("seed_demo", stdout=StringIO())
    BackInStockSettings.objects.create()
    monday = timezone.localdate() - timedelta(days=timezone.localdate().weekday())
    SearchCount.objects.create(week=monday, query="camiseta algodão", searches=12, results=3)
    PurchaseOrder.objects.create(
        order_id="PED-2026-000123", event="order.paid", email="cliente@loja.example"
    )
    now = timezone.now()
    Group.objects.create(name="Atendimento ao cliente")
    visit = {
        "user_agent": USER_AGENT,
        "ip_address": "2804:14d:5c5a:8f10:1c3e:9a2b:47d1:aa02",
        "username": "atendimento.sao.paulo@loja.example",
        "http_accept": "text/html",
        "path_info": "/admin/login/",
    }
    AccessAttempt.objects.create(**visit, get_data="", post_data="", failures_since_start=2)
    AccessFailureLog.objects.create(**visit, locked_out=False)
    AccessLog.objects.create(**visit, logout_time=now)
    endpoint = Endpoint.objects.create(  # the demo's own receiver is registered by `make run`
        url="https://integracoes.parceiro-logistica.example/webhooks/loja/recebimento",
        description="ERP do parceiro de logística (pedidos e estoque)",
        events=["comment.created", "comment.replied", "review.created", "review.approved"],
    )
    Delivery.objects.create(
        endpoint=endpoint,
        event_type="comment.replied",
        payload={"type": "comment.replied", "data": {}},
        status="failed",
        attempts=8,
        last_attempt_at=now,
        next_attempt_at=now + timedelta(hours=6),
        last_status_code=503,
        last_error="Connection refused",
    )
    OutboundEmail.objects.create(
        key="order-confirmation-1",
        message_id="<1@loja.example>",
        to="maria.aparecida.dos.santos.oliveira@cliente-empresa.example",
        subject="Seu pedido foi confirmado: Bicicleta Aurora Essencial e mais 3 itens",
        body_text="Olá!",
        sent_at=now,
    )
    PostalImportJob.objects.create(
        file_name="ceps-brasil-completo-2026-11.csv",
        file_format="csv",
        country="BRA",
        status="done",
        created_by=staff,
        rows_read=1_234_567,
        rows_created=1_200_000,
        finished_at=now,
    )
    live = ShippingTable.objects.create(
        label="Cotação Melhor Envio (Correios, Jadlog, Loggi)",
        carrier=Carrier.objects.create(name="Melhor Envio Agregador de Fretes"),
        kind="live",
    )
    integration = CarrierIntegration.objects.create(
        table=live,
        base_url="https://sandbox.melhorenvio.com.br",
        token_variable="MELHOR_ENVIO_SANDBOX_TOKEN_LOJA_PRINCIPAL",
        services="1,2,3,4,17,27,28,31,32",
    )
    CarrierCall.objects.create(
        integration=integration,
        latency_ms=1500,
        status="timeout",
        error="URLError: <urlopen error [Errno 111] Connection refused> após 1500 ms de espera",
    )
    DBTaskResult.objects.create(
        task_path="webhooks.tasks.deliver_webhook",
        args_kwargs={"args": [1], "kwargs": {}},
        backend_name="default",
        run_after=now,
        status="SUCCESSFUL",
        finished_at=now,
    )


def change_list_urls() -> list[str]:
    return sorted(
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in admin.site._registry
    )


def overflows(browser) -> list[list]:
    return browser.driver.execute_script(OVERFLOWS_JS)


def test_every_change_list_and_change_form_fits_with_the_sidebar_open(signed_in, full_store):
    """Each change list, its add form (when it has one) and the change form of its first
    row: nothing wider than the page or than a scrolling box (the results area's inner
    scrollbar hid columns at 1366 px, and the product form was 2,099 px wide)."""
    browser = signed_in
    width = browser.driver.execute_script("return window.innerWidth")
    assert width == 1366, width
    found: dict[str, list] = {}
    for list_url in change_list_urls():
        browser.open(list_url)
        assert browser.has("#nav-sidebar") and browser.has("#main.shifted"), "sidebar closed"
        found[list_url] = overflows(browser)
        forms = [
            link.get_attribute("href")
            for link in browser.find_all(".object-tools a.addlink")[:1]
            + [
                link
                for link in browser.find_all('#result_list tbody a[href$="/change/"]')
                if link.get_attribute("href").startswith(browser.base_url + list_url)
            ][:1]
        ]
        assert len(forms) >= 1 + browser.has(".object-tools a.addlink"), (
            f"{list_url} has no row to open: add one to full_store"
        )
        for form_url in forms:
            browser.open(form_url.removeprefix(browser.base_url))
            assert browser.has("#content-main"), form_url
            found[browser.path] = overflows(browser)
    for path, boxes in found.items():
        if boxes:
            browser.open(path)
            browser.save_artifacts(path.strip("/").replace("/", "-") + "-OVERFLOW")

    overflowing = [f"{path}: {boxes}" for path, boxes in found.items() if boxes]
    assert not overflowing, "\n".join(overflowing)
    assert len(found) >= 2 * len(change_list_urls())


def test_the_demand_report_fits_and_speaks_portuguese(signed_in, full_store):
    """The back-in-stock demand report at 1366 px: the most awaited products first."""
    product = ProductFactory(name="Camiseta azul com um nome bem comprido de propósito, tamanho GG")
    ProductInterest.objects.bulk_create(
        ProductInterest(product=product, origin="notify-me", name="C", email=f"c{n}@loja.example")
        for n in range(40)
    )
    browser = signed_in
    browser.open(reverse("admin:catalog_backinstocksettings_demand"))
    assert browser.has("#demand-report")
    first_row = browser.find("#demand-report tbody tr td").text
    assert first_row.startswith("Camiseta azul"), first_row
    assert "Produtos que os clientes estão esperando" in browser.driver.page_source
    assert overflows(browser) == []


def price_input(browser):
    return browser.find('input[name="prices-0-sale_price"]')


def test_a_price_typed_the_brazilian_way_saves_that_amount_and_a_tenfold_one_is_confirmed(
    signed_in,
):
    browser = signed_in
    price = ProductPriceFactory(sale_price=Decimal("102.90"))
    product = price.product
    change = reverse("admin:catalog_product_change", args=[product.pk])
    with browser.step("the price is a text input written in Portuguese"):
        browser.open(change)
        field = price_input(browser)
        assert field.get_attribute("type") == "text"
        assert field.get_attribute("value") == "102,90"
    with browser.step("type 99,90 and save"):
        browser.fill("prices-0-sale_price", "99,90")
        browser.save()
        assert browser.path.startswith(reverse("admin:catalog_product_changelist")), (
            browser.field_errors()
        )
        price.refresh_from_db()
        assert price.sale_price == Decimal("99.90")
    with browser.step("type ten times the price: the same form asks to confirm"):
        browser.open(change)
        browser.fill("prices-0-sale_price", "999,00")
        browser.save()
        assert browser.path == change
        assert browser.has(".price-change-confirmation")
        assert price_input(browser).get_attribute("value") == "999,00"
        price.refresh_from_db()
        assert price.sale_price == Decimal("99.90")
    with browser.step("confirm"):
        browser.check("confirm_price_change")
        browser.save()
        assert browser.path != change, browser.field_errors()
        price.refresh_from_db()
        assert price.sale_price == Decimal("999.00")


def test_the_product_list_price_is_the_default_policys_selling_price(signed_in):
    browser = signed_in
    on_sale = ProductPriceFactory(sale_price=Decimal("99.90")).product
    only_base = ProductFactory(base_price=Decimal("1234.56"))
    PriceRuleFactory(value=Decimal("10"))  # 10% off: the stored sale price does not sell
    with browser.step("open the product list"):
        browser.open(reverse("admin:catalog_product_changelist"))
    prices = selling_prices_get([on_sale, only_base])
    for product in (on_sale, only_base):
        with browser.step(f"the price column of {product.sku}"):
            cell = browser.find(
                f'input[name="_selected_action"][value="{product.pk}"]'
            ).find_element("xpath", "ancestor::tr/td[contains(@class, 'field-price')]")
            with translation.override("pt-br"):
                expected = money_text(prices[product.pk].sale_price)
            assert cell.text.splitlines()[0] == expected, cell.text
    assert prices[on_sale.pk].sale_price == Decimal("89.91")  # not the stored 99.90
