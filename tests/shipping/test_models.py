"""Model rules: database constraints first, clean() for single-record rules."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from shipping.models import Carrier, PostalCode, ShippingRow

from .factories import (
    CarrierFactory,
    PickupFactory,
    PostalCodeFactory,
    ShippingRowFactory,
    ShippingTableFactory,
)

pytestmark = pytest.mark.django_db


def test_a_postal_code_is_unique_per_country():
    PostalCodeFactory(country="BRA", code="01310100")
    PostalCodeFactory(country="PRT", code="01310100")  # same digits, another country
    with pytest.raises(IntegrityError), transaction.atomic():
        PostalCode.objects.create(country="BRA", code="01310100")


def test_postal_code_clean_normalizes_the_code_and_the_state():
    record = PostalCode(country="BRA", code="01310-100", state_code="sp")
    record.full_clean(validate_unique=False)
    assert (record.country, record.code, record.state_code) == ("BRA", "01310100", "BR-SP")
    assert record.display_code == "01310-100"


@pytest.mark.parametrize(
    ("fields", "error_field"),
    [
        ({"country": "XYZ", "code": "12345678"}, "country"),
        ({"country": "BRA", "code": "123"}, "code"),
        ({"country": "BRA", "code": "01310100", "state_code": "ZZ"}, "state_code"),
        ({"country": "BRA", "code": "01310100", "latitude": Decimal("91")}, "latitude"),
    ],
)
def test_postal_code_clean_refuses_invalid_values(fields, error_field):
    with pytest.raises(ValidationError) as error:
        PostalCode(**fields).full_clean(validate_unique=False)
    assert error_field in error.value.message_dict


def test_the_database_refuses_coordinates_out_of_range():
    with pytest.raises(IntegrityError), transaction.atomic():
        PostalCodeFactory(latitude=Decimal("95"))


@pytest.mark.parametrize(
    "fields",
    [
        {"initial_zipcode": "20000000", "final_zipcode": "10000000"},
        {"initial_weight": Decimal("5"), "final_weight": Decimal("1")},
        {"initial_price": Decimal("50"), "final_price": Decimal("10")},
        {"begin_shipping_time": 9, "end_shipping_time": 2},
        {"shipping_value": Decimal("-1")},
        {"order_value_percentage": Decimal("101")},
        {"fixed_fee": Decimal("-0.01")},
    ],
)
def test_the_database_refuses_inconsistent_rows(fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        ShippingRowFactory(**fields)


def test_the_same_ranges_twice_in_a_table_are_refused():
    row = ShippingRowFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        ShippingRowFactory(table=row.table)


def test_rows_covering_a_postal_code_hold_it_in_their_range():
    table = ShippingTableFactory()
    inside = ShippingRowFactory(table=table, initial_zipcode="20000000", final_zipcode="28999999")
    ShippingRowFactory(table=table, initial_zipcode="01000000", final_zipcode="19999999")
    assert list(ShippingRow.objects.covering("20040002")) == [inside]
    assert not ShippingRow.objects.covering("29000000").exists()


def test_carrier_tracking_template_must_be_a_web_address():
    carrier = Carrier(name="X", tracking_url_template="javascript:alert(1)")
    with pytest.raises(ValidationError) as error:
        carrier.full_clean()
    assert "tracking_url_template" in error.value.message_dict
    CarrierFactory.build(tracking_url_template="https://t.example/{code}").full_clean()


def test_a_table_needs_a_known_country():
    table = ShippingTableFactory.build(country="ZZZ", carrier=CarrierFactory())
    with pytest.raises(ValidationError) as error:
        table.full_clean()
    assert "country" in error.value.message_dict


def test_pickup_clean_normalizes_its_address_and_needs_a_pickup_table():
    pickup = PickupFactory.build(
        table=ShippingTableFactory(kind="pickup"), zip_code="01304-001", state_code="sp"
    )
    pickup.full_clean()
    assert (pickup.zip_code, pickup.state_code) == ("01304001", "BR-SP")

    wrong = PickupFactory.build(table=ShippingTableFactory(kind="delivery"))
    with pytest.raises(ValidationError) as error:
        wrong.full_clean()
    assert "table" in error.value.message_dict
