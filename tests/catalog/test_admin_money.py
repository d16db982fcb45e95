"""Prices in the product admin (issue 20, items 1 and 4): typed in the staff's language in a
text input, large changes confirmed, and the product list showing the price that sells."""

import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.models import ProductPrice, TradePolicy

from .factories import PriceRuleFactory, ProductFactory, ProductPriceFactory, StockFactory

pytestmark = pytest.mark.django_db

ARABIC_INDIC_123 = "\u0661\u0662\u0663"


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x-pass-123")
    client.force_login(user)
    return client


@pytest.fixture
def portuguese(settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"


def change_url(product) -> str:
    return reverse("admin:catalog_product_change", args=[product.pk])


def product_form(product, *, language: str = "pt-br", **extra) -> dict:
    """The product page as a browser posts it, numbers written in `language`, no price rows
    unless `extra` adds them."""
    comma = language == "pt-br"
    data = {
        "name": product.name,
        "sku": product.sku,
        "slug": product.slug,
        "type": product.type,
        "active": "on",
        "priority": 0,
        "base_price": "100,00" if comma else "100.00",
        "brand": product.brand_id,
        "main_category": product.main_category_id,
        "show_in_site": "on",
        "minimum_stock": 0,
        "additional_time": 0,
        "width": "10",
        "height": "10",
        "length": "10",
        "weight": "0,5" if comma else "0.5",
    }
    for prefix in ("prices", "stocks", "medias", "descriptions", "variations", "relations"):
        data.update({f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0})
    data.update(extra)
    return data


def new_price_row(sale_price: str, comparison_price: str = "0") -> dict:
    return {
        "prices-TOTAL_FORMS": 1,
        "prices-0-trade_policy": TradePolicy.objects.default().pk,
        "prices-0-sale_price": sale_price,
        "prices-0-comparison_price": comparison_price,
        "prices-0-markup": "0",
        "prices-0-available_for_sale": "on",
    }


def existing_price_row(price: ProductPrice, sale_price: str, **extra) -> dict:
    return {
        **new_price_row(sale_price, extra.pop("comparison_price", "0")),
        "prices-INITIAL_FORMS": 1,
        "prices-0-id": price.pk,
        "prices-0-product": price.product_id,
        **extra,
    }


@pytest.mark.parametrize(
    ("typed", "saved"),
    [("99,90", Decimal("99.90")), ("1.234,56", Decimal("1234.56")), ("R$ 18,90", Decimal("18.90"))],
)
def test_a_price_typed_in_portuguese_saves_that_amount(staff_client, portuguese, typed, saved):
    product = ProductFactory()

    response = staff_client.post(change_url(product), product_form(product, **new_price_row(typed)))

    assert response.status_code == 302, response.content.decode()[:3000]
    assert ProductPrice.objects.get(product=product).sale_price == saved


def test_an_english_speaking_staff_member_types_a_point(staff_client):
    product = ProductFactory()

    response = staff_client.post(
        change_url(product), product_form(product, language="en", **new_price_row("99.90"))
    )

    assert response.status_code == 302
    assert ProductPrice.objects.get(product=product).sale_price == Decimal("99.90")


def test_a_point_before_the_cents_in_portuguese_is_refused_with_what_to_type(
    staff_client, portuguese
):
    product = ProductFactory()

    response = staff_client.post(
        change_url(product), product_form(product, **new_price_row("99.9"))
    )

    assert response.status_code == 200
    assert "Use “,” antes dos centavos: 99,90" in response.content.decode()
    assert not ProductPrice.objects.exists()


@pytest.mark.parametrize(
    "typed", ["abc", "1,2,3", ARABIC_INDIC_123, "9" * 13, "9" * 400, "-5", "1e3", "NaN", "99,9999"]
)
@pytest.mark.parametrize("language", ["pt-br", "en"])
def test_garbage_is_a_form_error(staff_client, settings, typed, language):
    settings.ADMIN_LANGUAGE_CODE = language
    product = ProductFactory()

    response = staff_client.post(
        change_url(product), product_form(product, language=language, **new_price_row(typed))
    )

    assert response.status_code == 200
    assert response.context["inline_admin_formsets"][0].formset.errors[0]["sale_price"]
    assert not ProductPrice.objects.exists()


def test_the_price_input_is_text_in_the_staffs_language_with_r_dollar(staff_client, portuguese):
    price = ProductPriceFactory(sale_price=Decimal("1234.5"))

    page = staff_client.get(change_url(price.product)).content.decode()

    sale = re.search(
        r'(<span[^>]*>)?([^<]*)</span><input[^>]*name="prices-0-sale_price"[^>]*>', page
    )
    assert sale is not None
    assert sale[2] == "R$"
    assert 'type="text"' in sale[0] and 'inputmode="decimal"' in sale[0]
    assert 'value="1.234,50"' in sale[0]
    assert not re.search(r'type="number"[^>]*name="(prices-0-sale_price|base_price|weight)"', page)
    assert re.search(r'name="weight"[^>]*value="0,500"', page)
    assert f"{price.trade_policy.name}: R$ 1.234,50" in page  # the price row's caption


def test_a_price_ten_times_higher_asks_for_confirmation_then_saves(staff_client, portuguese):
    price = ProductPriceFactory(sale_price=Decimal("99.90"))
    product = price.product
    form = product_form(product, **existing_price_row(price, "999,00"))

    refused = staff_client.post(change_url(product), form)

    assert refused.status_code == 200
    page = refused.content.decode()
    assert 'name="confirm_price_change"' in page
    assert "Confirmar alteração de preço" in page
    # right under the price it guards: the box follows that input, within its cell
    guarded = re.search(
        r'name="prices-0-sale_price"[^>]*>\s*<div class="price-change-confirmation"[^>]*>'
        r'\s*<input type="checkbox" name="confirm_price_change"',
        page,
    )
    assert guarded is not None
    assert page.count('name="confirm_price_change"') == 1  # none at the bottom any more
    price.refresh_from_db()
    assert price.sale_price == Decimal("99.90")

    confirmed = staff_client.post(change_url(product), {**form, "confirm_price_change": "1"})

    assert confirmed.status_code == 302
    price.refresh_from_db()
    assert price.sale_price == Decimal("999.00")


@pytest.mark.parametrize("base_price", ["19,00", "600,00"])
def test_a_base_price_five_times_off_asks_for_confirmation(staff_client, portuguese, base_price):
    product = ProductFactory(base_price=Decimal("100.00"))

    response = staff_client.post(change_url(product), product_form(product, base_price=base_price))

    assert response.status_code == 200
    assert 'name="confirm_price_change"' in response.content.decode()
    product.refresh_from_db()
    assert product.base_price == Decimal("100.00")


def test_a_price_changed_within_five_times_needs_no_confirmation(staff_client, portuguese):
    price = ProductPriceFactory(sale_price=Decimal("99.90"))
    form = product_form(price.product, base_price="450,00", **existing_price_row(price, "21,00"))

    response = staff_client.post(change_url(price.product), form)

    assert response.status_code == 302
    assert (
        'name="confirm_price_change"'
        not in staff_client.get(change_url(price.product)).content.decode()
    )


def test_the_product_list_shows_the_selling_price_of_the_default_policy(staff_client, portuguese):
    product = ProductFactory(base_price=Decimal("102.90"))
    ProductPriceFactory(product=product, sale_price=Decimal("99.90"))
    same = ProductFactory(base_price=Decimal("1234.56"))  # no price row: the base price sells

    page = staff_client.get(reverse("admin:catalog_product_changelist")).content.decode()

    row = re.search(rf"{product.sku}.*?</tr>", page, re.S)[0]
    assert "R$ 99,90" in row
    assert "preço base R$ 102,90" in row
    same_row = re.search(rf"{same.sku}.*?</tr>", page, re.S)[0]
    assert "R$ 1.234,56" in same_row and "preço base" not in same_row


def test_the_product_list_shows_the_price_after_automatic_rules(staff_client):
    product = ProductFactory(base_price=Decimal("100.00"))
    ProductPriceFactory(product=product, sale_price=Decimal("100.00"))
    PriceRuleFactory(value=Decimal("10"))  # 10% off every product

    page = staff_client.get(reverse("admin:catalog_product_changelist")).content.decode()

    row = re.search(rf"{product.sku}.*?</tr>", page, re.S)[0]
    assert "R$ 90.00" in row and "base price R$ 100.00" in row


def test_the_product_list_price_costs_no_query_per_row(staff_client):
    def rows(count: int) -> None:
        for _ in range(count):
            product = ProductFactory(categories=[])
            ProductPriceFactory(product=product)
            StockFactory(product=product)

    url = reverse("admin:catalog_product_changelist")
    rows(2)
    staff_client.get(url)  # warm the kept rules, policies and category index
    with CaptureQueriesContext(connection) as few:
        staff_client.get(url)
    rows(20)
    staff_client.get(url)  # the new rows' categories bumped the kept category index
    with CaptureQueriesContext(connection) as many:
        response = staff_client.get(url)
    assert len(response.context["cl"].result_list) == 22
    assert [q["sql"][:60] for q in many] == [q["sql"][:60] for q in few]


def test_a_storage_opens_by_its_name(staff_client):
    from catalog.models import Storage

    storage = Storage.objects.first() or StockFactory().storage
    page = staff_client.get(reverse("admin:catalog_storage_changelist")).content.decode()
    change = reverse("admin:catalog_storage_change", args=[storage.pk])
    link = re.search(rf'<th class="field-short_trade_name"><a href="{change}">([^<]+)</a>', page)
    assert link is not None and link.group(1) == storage.trade_name[:32]
