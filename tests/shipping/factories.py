"""factory_boy factories of the shipping app."""

from decimal import Decimal

import factory

from shipping.models import (
    Carrier,
    Pickup,
    PickupType,
    PostalCode,
    ShippingRow,
    ShippingTable,
    ShippingTableKind,
)


class PostalCodeFactory(factory.django.DjangoModelFactory):
    """Avenida Paulista, São Paulo (pass code/city/coordinates for others)."""

    class Meta:
        model = PostalCode
        django_get_or_create = ("country", "code")

    country = "BRA"
    code = "01310100"
    public_place = "Avenida Paulista"
    complement = "de 612 a 1510 - lado par"
    district = "Bela Vista"
    city = "São Paulo"
    state_code = "BR-SP"
    latitude = Decimal("-23.561684")
    longitude = Decimal("-46.655981")


class CarrierFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Carrier

    name = factory.Sequence(lambda n: f"Carrier {n}")
    tracking_url_template = "https://tracking.example.com/?code={code}"


class ShippingTableFactory(factory.django.DjangoModelFactory):
    """An active delivery table for Brazil, from every storage, for every cargo type."""

    class Meta:
        model = ShippingTable
        skip_postgeneration_save = True

    label = factory.Sequence(lambda n: f"Table {n}")
    carrier = factory.SubFactory(CarrierFactory)
    kind = ShippingTableKind.DELIVERY
    country = "BRA"
    integration_code = factory.Sequence(lambda n: f"INT-{n}")
    external_shipping_code = factory.Sequence(lambda n: f"EXT-{n}")

    @factory.post_generation
    def storages(self, create, extracted, **kwargs):
        if create and extracted:
            self.storages.set(extracted)

    @factory.post_generation
    def cargo_types(self, create, extracted, **kwargs):
        if create and extracted:
            self.cargo_types.set(extracted)


class ShippingRowFactory(factory.django.DjangoModelFactory):
    """Every Brazilian postal code, 0 to 30 kg, any order value."""

    class Meta:
        model = ShippingRow

    table = factory.SubFactory(ShippingTableFactory)
    initial_zipcode = "00000000"
    final_zipcode = "99999999"
    initial_weight = Decimal("0.000")
    final_weight = Decimal("30.000")
    initial_price = Decimal("0.00")
    final_price = Decimal("100000.00")
    shipping_value = Decimal("25.00")
    begin_shipping_time = 2
    end_shipping_time = 5


class PickupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pickup

    table = factory.SubFactory(ShippingTableFactory, kind=ShippingTableKind.PICKUP)
    type = PickupType.STORE
    name = factory.Sequence(lambda n: f"Pickup point {n}")
    address = "Rua Augusta"
    number = "1500"
    complement = "Loja 2"
    district = "Consolação"
    city = "São Paulo"
    state_code = "BR-SP"
    country_code = "BRA"
    zip_code = "01304001"
    latitude = Decimal("-23.557000")
    longitude = Decimal("-46.660000")
    opening_hours = "Mon-Fri 9:00-18:00; Sat 9:00-13:00"
