"""A holiday added in the admin moves the quote's delivery dates (issue 22), in headless
chromium at 1366x900; the holiday pages fit that width."""

from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import Decimal
from urllib.parse import urlencode

import pytest

from shipping.models import Holiday
from tests.catalog.factories import (
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
)
from tests.shipping.factories import PostalCodeFactory, ShippingRowFactory, ShippingTableFactory

from .conftest import MISSING
from .test_admin_flows import signed_in, staff  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(MISSING is not None, reason=str(MISSING)),
    pytest.mark.django_db(transaction=True),
]


def fits(browser) -> bool:
    """No horizontal scroll bar at the window's width."""
    return browser.driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth;"
    )


def first_min_date(browser, product_id: int) -> date:
    query = urlencode(
        {
            "targetCountryCode": "BRA",
            "targetZipCode": "20040-002",
            "items": json.dumps([{"productId": product_id, "quantity": 1}]),
            "deliveryDates": "true",
        }
    )
    status, body = browser.api(f"/publics/products/quote?{query}")
    assert status == 200, body
    (option,) = body["quoteGroups"][0]["shippingOptions"]
    return date.fromisoformat(option["deliveryEstimate"]["minDate"])


def test_staff_add_a_holiday_and_the_quote_dates_move(signed_in):  # noqa: F811
    browser = signed_in
    PostalCodeFactory(code="20040002", city="Rio de Janeiro", state_code="BR-RJ")
    storage = StorageFactory()
    product = ProductFactory(weight=Decimal("1.000"))
    ProductPriceFactory(product=product, sale_price=Decimal("50.00"))
    StockFactory(product=product, storage=storage, available=5)
    ShippingRowFactory(table=ShippingTableFactory(), begin_shipping_time=1, end_shipping_time=1)
    before = first_min_date(browser, product.pk)

    with browser.step("the holidays list fits and offers the import"):
        browser.open("/admin/shipping/holiday/")
        assert browser.has('a[href$="/admin/shipping/holiday/import/"]')
        assert fits(browser)
    with browser.step("add a one-day holiday in Rio de Janeiro on the quoted date"):
        browser.open("/admin/shipping/holiday/add/")
        assert fits(browser)
        browser.fill("name", "Feriado municipal")
        browser.fill("date", before.isoformat())
        browser.check("yearly", on=False)
        browser.find('select[name="scope"] option[value="city"]').click()
        browser.fill("state_code", "RJ")
        browser.fill("city", "Rio de Janeiro")
        browser.save()
        assert browser.path == "/admin/shipping/holiday/", browser.field_errors()
        holiday = Holiday.objects.get()
        assert (holiday.state_code, holiday.date, holiday.yearly) == ("BR-RJ", before, False)
    with browser.step("the quote's date moves past the holiday"):
        after = first_min_date(browser, product.pk)
        assert after > before
        assert after - before < timedelta(days=5)
    with browser.step("the import page and the storage's form fit"):
        browser.open("/admin/shipping/holiday/import/")
        assert browser.has('input[type="file"][name="file"]') and fits(browser)
        browser.open(f"/admin/catalog/storage/{storage.pk}/change/")
        assert browser.has('[name="cutoff_time"]') and fits(browser)
