"""The back office's daily frictions of issue 35, in headless chromium at 1366x900 in pt-BR:
postal codes found by two words or part of a code, the price confirmation within the first
screen after its error, an integration set up with a typed token passing "Testar a conexão"
from its own page, holidays by day and month and the state's applied ones, a second import of
the sample CSV, a storage opened by its name."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from bench.fake_carrier import FakeCarrier
from catalog.models import Storage
from shipping.admin.holidays import SAMPLE
from shipping.models import CarrierIntegration, Holiday, ShippingTableKind
from tests.catalog.factories import ProductPriceFactory, StockFactory
from tests.shipping.factories import PostalCodeFactory, ShippingTableFactory

from .conftest import MISSING
from .test_admin_flows import signed_in, staff  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(MISSING is not None, reason=str(MISSING)),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def portuguese(settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"


def rows(browser) -> list[str]:
    return [cell.text for cell in browser.find_all("#result_list tbody th, #result_list td")]


def test_postal_codes_are_found_by_two_words_and_by_part_of_a_code(portuguese, signed_in):  # noqa: F811
    browser = signed_in
    PostalCodeFactory()
    PostalCodeFactory(code="20040002", city="Rio de Janeiro", public_place="Avenida Rio Branco")
    changelist = reverse("admin:shipping_postalcode_changelist")
    with browser.step("the box says what it searches"):
        browser.open(changelist)
        assert "CEP, logradouro, bairro ou cidade" in browser.find("#searchbar_helptext").text
    for term, found, left_out in (
        ("Rio de Janeiro", "20040-002", "01310-100"),
        ("São Paulo", "01310-100", "20040-002"),
        ("01310", "01310-100", "20040-002"),
        ("20040-0", "20040-002", "01310-100"),
    ):
        with browser.step(f"search {term}"):
            browser.fill("q", term)
            browser.click_and_wait('#changelist-search input[type="submit"]')
            shown = rows(browser)
            assert found in shown and left_out not in shown


def test_the_price_confirmation_is_in_the_first_screen_after_the_error(portuguese, signed_in):  # noqa: F811
    browser = signed_in
    price = ProductPriceFactory(sale_price=Decimal("99.90"))
    change = reverse("admin:catalog_product_change", args=[price.product.pk])
    browser.open(change)
    browser.fill("prices-0-sale_price", "999,00")
    browser.save()
    assert browser.path == change
    box = browser.find(".price-change-confirmation")
    # the price's own error (the list above its row): scrolled to the top of the screen
    top = browser.driver.execute_script(
        "var field = document.querySelector('[name=\"prices-0-sale_price\"]');"
        "var fieldTop = field.getBoundingClientRect().top;"
        "var above = Array.from(document.querySelectorAll('ul.errorlist')).filter("
        "  function (e) { return e.getBoundingClientRect().top <= fieldTop; });"
        "above[above.length - 1].scrollIntoView({block: 'start'});"
        "return arguments[0].getBoundingClientRect().bottom;",
        box,
    )
    height = browser.driver.execute_script("return window.innerHeight;")
    assert 0 < top <= height, (top, height)


def test_an_integration_with_a_typed_token_passes_the_test_from_its_page(
    portuguese,
    signed_in,  # noqa: F811
    monkeypatch,
):
    browser = signed_in
    monkeypatch.delenv("FAKE_CARRIER_TOKEN", raising=False)
    with FakeCarrier("ok") as fake:
        table = ShippingTableFactory(kind=ShippingTableKind.LIVE, label="Melhor Envio")
        integration = CarrierIntegration.objects.create(
            table=table, base_url=fake.url, token_variable="UNSET_VARIABLE"
        )
        browser.open(reverse("admin:shipping_carrierintegration_change", args=[integration.pk]))
        browser.fill("token", "typed-token-5678")
        browser.fill("token_variable", "")
        browser.click_and_wait('input[name="_test_connection"]')
        (message,) = browser.messages()
        assert "Respondeu, 2 serviços em" in message, message
        assert fake.calls[0]["headers"]["Authorization"] == "Bearer typed-token-5678"
    assert "••••••••5678" in browser.find(".field-token_stored").text
    assert "typed-token-5678" not in browser.driver.page_source


def test_holidays_by_day_and_month_applied_ones_and_a_second_import(
    portuguese,
    signed_in,  # noqa: F811
    tmp_path,
):
    browser = signed_in
    Holiday.objects.create(name="Padroeira", date="2000-01-20", scope="national")
    with browser.step("a yearly holiday shows without a year"):
        browser.open(reverse("admin:shipping_holiday_changelist"))
        assert "20 de Janeiro" in rows(browser) and "2000" not in " ".join(rows(browser))
    with browser.step("the state's applied holidays are listed, by source"):
        browser.find('a[href$="/applied/"]').click()
        browser.fill("year", "2027")
        browser.click_and_wait('#applied-holidays input[type="submit"]')
        table = browser.find("#applied-holidays-table").text
        assert "Revolução Constitucionalista Estadual (pacote holidays)" in table
        assert "Tiradentes Nacional (pacote holidays)" in table
        assert "Padroeira Loja: nacional" in table
    sample = tmp_path / "sample.csv"  # the file the import page's "sample" link serves
    sample.write_text("\n".join(SAMPLE) + "\n", encoding="utf-8")
    counts = []
    for attempt in range(2):
        with browser.step(f"import the sample, {attempt + 1}"):
            browser.open(reverse("admin:shipping_holiday_import"))
            browser.upload("file", sample)
            browser.check("dry_run", on=False)
            browser.click_and_wait('form input[type="submit"]')
            counts.append(Holiday.objects.count())
    assert counts[0] == counts[1] == 4


def test_a_storage_opens_by_its_name(portuguese, signed_in):  # noqa: F811
    browser = signed_in
    StockFactory()
    storage = Storage.objects.first()
    browser.open(reverse("admin:catalog_storage_changelist"))
    browser.click_and_wait(".field-short_trade_name a")
    assert browser.path == reverse("admin:catalog_storage_change", args=[storage.pk])


def test_the_reset_page_shows_its_errors_in_portuguese(
    browser, settings, django_capture_on_commit_callbacks
):
    """Issue 35, point 5: the demo's reset page, opened from the e-mailed link, shows the
    password's errors in Portuguese (the API's own messages stay as the contract has them)."""
    import re
    from urllib.parse import urlsplit

    from django.core import mail
    from django.test import Client
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.storefront.factories import CustomerFactory

    settings.CUSTOMER_LANGUAGE_CODE = "pt-br"
    settings.PASSWORD_RESET_DEMO_PAGE = True
    customer = CustomerFactory(email="joana@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(
            "/publics/customers/password-reset",
            {"email": customer.email},
            content_type="application/json",
        )
    (message,) = mail.outbox
    link = urlsplit(re.search(r"http://\S+", message.body).group(0))
    stored = customer.password
    driver = browser.driver
    driver.get(f"{browser.base_url}{link.path}?{link.query}")
    driver.find_element(By.ID, "password").send_keys("12345678")
    driver.find_element(By.CSS_SELECTOR, "#reset-form button[type=submit]").click()
    result = driver.find_element(By.ID, "result")
    WebDriverWait(driver, 10).until(lambda _: result.text.strip())
    text = result.text
    assert "senha" in text.lower(), text  # e.g. "Esta senha é muito comum."
    assert not re.search(r"\b(password|too common|entirely numeric)\b", text, re.I), text
    customer.refresh_from_db()
    assert customer.password == stored  # refused, nothing changed
