"""Admin pages of the store app: sales channels and payment options."""

from decimal import Decimal

import pytest
from django.urls import reverse

from storefront.models import PaymentOption, PaymentOptionKind, SalesChannel
from tests.storefront.factories import PaymentOptionFactory, SalesChannelFactory

pytestmark = pytest.mark.django_db


def channel_form(**overrides) -> dict:
    return {"name": "Outlet", "domain": "outlet.example.com", "active": "on", **overrides}


def option_form(**overrides) -> dict:
    data = {
        "kind": PaymentOptionKind.INSTALLMENTS,
        "name": "Store card",
        "active": "on",
        "discount_percentage": "0",
        "max_installments": "6",
        "interest_free_installments": "2",
        "monthly_interest_rate": "2.5",
        "min_installment_value": "10.00",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


# --- Sales channels ---------------------------------------------------------------------


def test_sales_channel_pages_open_for_staff(admin_client):
    channel = SalesChannelFactory()

    for url in (
        reverse("admin:storefront_saleschannel_changelist"),
        reverse("admin:storefront_saleschannel_add"),
        reverse("admin:storefront_saleschannel_change", args=[channel.pk]),
    ):
        assert admin_client.get(url).status_code == 200, url


def test_sales_channel_changelist_searches_and_filters(admin_client):
    SalesChannelFactory(name="Outlet", domain="outlet.example.com")
    SalesChannelFactory(name="Wholesale", domain="b2b.example.com", active=False)
    url = reverse("admin:storefront_saleschannel_changelist")

    found = admin_client.get(url, {"q": "outlet"})
    inactive = admin_client.get(url, {"active__exact": "0"})

    assert [c.name for c in found.context["cl"].result_list] == ["Outlet"]
    assert [c.name for c in inactive.context["cl"].result_list] == ["Wholesale"]


def test_staff_add_a_sales_channel(admin_client):
    response = admin_client.post(reverse("admin:storefront_saleschannel_add"), channel_form())

    assert response.status_code == 302
    assert SalesChannel.objects.filter(domain="outlet.example.com", is_default=False).exists()


def test_a_second_default_channel_is_refused_with_a_clear_message(admin_client):
    current = SalesChannel.objects.get(is_default=True)  # created by a migration

    response = admin_client.post(
        reverse("admin:storefront_saleschannel_add"), channel_form(is_default="on")
    )

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["is_default"]
    assert f"“{current}” is already the default channel" in errors[0]
    assert not SalesChannel.objects.filter(domain="outlet.example.com").exists()


def test_the_default_channel_can_be_edited_and_stay_default(admin_client):
    current = SalesChannel.objects.get(is_default=True)
    url = reverse("admin:storefront_saleschannel_change", args=[current.pk])

    response = admin_client.post(
        url, channel_form(name="Main", domain=current.domain, is_default="on")
    )

    assert response.status_code == 302
    current.refresh_from_db()
    assert current.name == "Main" and current.is_default


# --- Payment options --------------------------------------------------------------------


def test_payment_option_pages_open_for_staff(admin_client):
    cash = PaymentOptionFactory()
    card = PaymentOptionFactory(installments=True)

    for url in (
        reverse("admin:storefront_paymentoption_changelist"),
        reverse("admin:storefront_paymentoption_add"),
        reverse("admin:storefront_paymentoption_change", args=[cash.pk]),
        reverse("admin:storefront_paymentoption_change", args=[card.pk]),
    ):
        assert admin_client.get(url).status_code == 200, url


def test_payment_option_changelist_shows_the_key_terms(admin_client):
    PaymentOptionFactory(name="Pix", discount_percentage=Decimal("5.00"))
    PaymentOptionFactory(installments=True, name="Credit card")

    response = admin_client.get(reverse("admin:storefront_paymentoption_changelist"))

    content = response.content.decode()
    assert "5% off" in content
    assert "up to 12x, 3x interest-free, 1.99%/month, minimum installment R$ 5.00" in content


def test_payment_option_changelist_filters_by_kind_and_searches(admin_client):
    PaymentOptionFactory(name="Pix")
    PaymentOptionFactory(installments=True, name="Credit card")
    url = reverse("admin:storefront_paymentoption_changelist")

    by_kind = admin_client.get(url, {"kind__exact": PaymentOptionKind.INSTALLMENTS})
    by_name = admin_client.get(url, {"q": "pix"})

    assert [o.name for o in by_kind.context["cl"].result_list] == ["Credit card"]
    assert [o.name for o in by_name.context["cl"].result_list] == ["Pix"]


def test_the_change_page_shows_only_the_terms_of_the_option_kind(admin_client):
    cash = PaymentOptionFactory()
    card = PaymentOptionFactory(installments=True)

    cash_page = admin_client.get(reverse("admin:storefront_paymentoption_change", args=[cash.pk]))
    card_page = admin_client.get(reverse("admin:storefront_paymentoption_change", args=[card.pk]))

    assert "discount_percentage" in cash_page.context["adminform"].form.fields
    assert "max_installments" not in cash_page.context["adminform"].form.fields
    assert "max_installments" in card_page.context["adminform"].form.fields
    assert "discount_percentage" not in card_page.context["adminform"].form.fields


def test_the_installment_change_page_previews_the_plan(admin_client):
    card = PaymentOptionFactory(installments=True)

    response = admin_client.get(reverse("admin:storefront_paymentoption_change", args=[card.pk]))

    content = response.content.decode()
    assert "Preview for R$ 1,000.00" in content
    # 10x of 1000.00 at 1.99%/month: 111.27 each, 1112.70 in all.
    assert (
        "<td>10x</td><td>R$ 111.27</td><td>R$ 1,112.70</td><td>1.99%</td><td>R$ 112.70</td>"
        in content
    )
    assert "<td>3x</td><td>R$ 333.33</td><td>R$ 1,000.00</td><td>0%</td><td>R$ 0.00</td>" in content


def test_the_cash_discount_change_page_previews_the_discount(admin_client):
    cash = PaymentOptionFactory(discount_percentage=Decimal("7.50"))

    response = admin_client.get(reverse("admin:storefront_paymentoption_change", args=[cash.pk]))

    assert "7.5% off: discount R$ 75.00, pays R$ 925.00" in response.content.decode()


def test_staff_add_an_installment_option(admin_client):
    response = admin_client.post(reverse("admin:storefront_paymentoption_add"), option_form())

    assert response.status_code == 302
    option = PaymentOption.objects.get(name="Store card")
    assert option.kind == PaymentOptionKind.INSTALLMENTS
    assert option.monthly_interest_rate == Decimal("2.5")


def test_more_interest_free_installments_than_the_maximum_is_refused(admin_client):
    response = admin_client.post(
        reverse("admin:storefront_paymentoption_add"),
        option_form(max_installments="3", interest_free_installments="4"),
    )

    assert response.status_code == 200
    assert "interest_free_installments" in response.context["adminform"].form.errors
    assert not PaymentOption.objects.exists()


def test_a_second_default_of_the_same_kind_is_refused_with_a_clear_message(admin_client):
    PaymentOptionFactory(installments=True, name="Credit card", is_default=True)

    response = admin_client.post(
        reverse("admin:storefront_paymentoption_add"), option_form(is_default="on")
    )

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["is_default"]
    assert "“Credit card” is already the default installments option" in errors[0]


def test_a_default_of_each_kind_is_allowed(admin_client):
    PaymentOptionFactory(is_default=True)

    response = admin_client.post(
        reverse("admin:storefront_paymentoption_add"), option_form(is_default="on")
    )

    assert response.status_code == 302
    assert PaymentOption.objects.filter(is_default=True).count() == 2


def test_the_kind_cannot_change_after_creation(admin_client):
    cash = PaymentOptionFactory(name="Pix")
    url = reverse("admin:storefront_paymentoption_change", args=[cash.pk])

    response = admin_client.post(
        url,
        {
            "kind": PaymentOptionKind.INSTALLMENTS,
            "name": "Pix",
            "active": "on",
            "discount_percentage": "6",
        },
    )

    assert response.status_code == 302
    cash.refresh_from_db()
    assert cash.kind == PaymentOptionKind.CASH_DISCOUNT
    assert cash.discount_percentage == Decimal("6")


def test_the_changelist_query_count_does_not_grow_with_the_options(
    admin_client, django_assert_max_num_queries
):
    PaymentOptionFactory.create_batch(30)
    PaymentOptionFactory.create_batch(30, installments=True)

    with django_assert_max_num_queries(8):
        response = admin_client.get(reverse("admin:storefront_paymentoption_changelist"))

    assert response.status_code == 200


def test_a_channel_is_named_without_repeating_its_domain():
    assert str(SalesChannel(name="Demo store (127.0.0.1)", domain="127.0.0.1")) == (
        "Demo store (127.0.0.1)"
    )
    assert str(SalesChannel(name="Loja", domain="loja.example")) == "Loja (loja.example)"
