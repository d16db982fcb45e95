"""Demo shipping data: idempotent, and a demo quote answers with both carriers."""

from decimal import Decimal
from io import StringIO

import pytest

from catalog.models import Product
from demo import catalog as catalog_demo
from demo import shipping as demo
from shipping.models import Carrier, Holiday, Pickup, PostalCode, ShippingRow, ShippingTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def shipping_demo():
    demo.seed(stdout=StringIO())


@pytest.fixture
def demo_store(media_root):
    catalog_demo.seed(stdout=StringIO())
    demo.seed(stdout=StringIO())


def test_seeding_twice_creates_nothing_more_and_keeps_staff_changes(shipping_demo):
    models = (PostalCode, Holiday, Carrier, ShippingTable, ShippingRow, Pickup)
    counts = [m.objects.count() for m in models]
    assert counts[1] == len(demo.DATA["holidays"])
    ShippingRow.objects.filter(table__label="PAC").update(shipping_value=1)
    Holiday.objects.filter(city="São Paulo").update(name="Aniversário da cidade")
    output = StringIO()

    demo.seed(stdout=output)

    assert [m.objects.count() for m in models] == counts
    assert Holiday.objects.filter(name="Aniversário da cidade").count() == 1
    assert "created" not in output.getvalue()
    assert set(
        ShippingRow.objects.filter(table__label="PAC").values_list("shipping_value", flat=True)
    ) == {1}


def test_demo_postal_codes_cover_the_storages_and_a_few_hundred_more(shipping_demo):
    assert PostalCode.objects.count() >= 300
    for code in ("01310100", "20040002", "80010000"):
        record = PostalCode.objects.get(country="BRA", code=code)
        assert record.latitude is not None and record.state_code.startswith("BR-")


def test_delivery_tables_cover_every_brazilian_postal_code_and_weight(shipping_demo):
    for table in ShippingTable.objects.filter(kind="delivery"):
        for code in ("00000000", "09999999", "45678901", "99999999"):
            for weight in ("0", "0.5", "1", "29.999", "30", "250"):
                matching = table.rows.covering(code).filter(
                    initial_weight__lte=Decimal(weight),
                    final_weight__gte=Decimal(weight),
                    initial_price__lte=Decimal("150.00"),
                    final_price__gte=Decimal("150.00"),
                )
                assert matching.exists(), (table, code, weight)


def test_a_demo_quote_to_sao_paulo_has_options_from_both_carriers(demo_store, api_client):
    product = (
        Product.objects.filter(active=True, stocks__available__gt=5, cargo_type__name="Regular")
        .order_by("id")
        .first()
    )
    response = api_client.get(
        "/publics/products/quote",
        {
            "targetCountryCode": "BRA",
            "targetZipCode": "01310-100",
            "items[0][productId]": product.pk,
            "items[0][quantity]": 1,
        },
    )

    assert response.status_code == 200
    (group,) = response.json()["quoteGroups"]
    carriers = {option["carrierName"] for option in group["shippingOptions"]}
    assert carriers == {"Correios", "Jadlog"}
    pickup = next(o for o in group["shippingOptions"] if o["label"] == "Jadlog Pickup")
    assert len(pickup["pickups"]) == 2
