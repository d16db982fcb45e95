"""Every product has a cargo type (issue 12): the store's default one (migration 0004)
when it names none, a variation its main product's; staff see and choose it in the admin."""

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from catalog.models import CargoType, Product
from catalog.models.inventory import DEFAULT_CARGO_TYPE_NAME
from tests.catalog.factories import CargoTypeFactory, ProductFactory, VariationFactory
from tests.catalog.test_admin import _product_form, admin_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x-pass-123")
    client.force_login(user)
    return client


def test_the_migration_created_one_default_cargo_type():
    (default,) = CargoType.objects.filter(is_default=True)
    assert default.name == DEFAULT_CARGO_TYPE_NAME


def test_a_new_product_gets_the_default_and_a_variation_its_parents():
    fragile = CargoTypeFactory(name="Fragile")
    plain = ProductFactory(cargo_type=None)
    main = ProductFactory(cargo_type=fragile)
    variation = VariationFactory(parent=main, cargo_type=None)
    own = VariationFactory(parent=main, cargo_type=CargoType.objects.get(is_default=True))

    assert plain.cargo_type == CargoType.objects.get(is_default=True)
    assert variation.cargo_type == fragile
    assert own.cargo_type.is_default


def test_a_second_default_cargo_type_is_refused_by_the_database():
    with pytest.raises(IntegrityError), transaction.atomic():
        CargoType.objects.create(name="Other", is_default=True)


def test_without_a_default_one_is_made_again_when_a_product_is_saved():
    CargoType.objects.update(is_default=False)

    product = ProductFactory(cargo_type=None)

    assert product.cargo_type.name == DEFAULT_CARGO_TYPE_NAME
    assert product.cargo_type.is_default
    assert CargoType.objects.filter(is_default=True).count() == 1


def test_a_product_saved_in_the_admin_without_a_cargo_type_gets_the_default(staff_client):
    product = ProductFactory(cargo_type=CargoTypeFactory(name="Bulky"))

    response = staff_client.post(
        admin_url(Product, "change", product.pk), _product_form(product, cargo_type="")
    )

    assert response.status_code == 302
    product.refresh_from_db()
    assert product.cargo_type.is_default


def test_the_admin_lists_and_filters_products_by_cargo_type(staff_client):
    fragile = CargoTypeFactory(name="Fragile")
    ProductFactory(name="Glass vase", cargo_type=fragile)
    ProductFactory(name="Wool socks")

    listing = staff_client.get(admin_url(Product, "changelist"))
    filtered = staff_client.get(
        admin_url(Product, "changelist"), {"cargo_type__id__exact": fragile.pk}
    )

    assert listing.status_code == 200
    assert (
        "Fragile" in listing.content.decode()
        and DEFAULT_CARGO_TYPE_NAME in listing.content.decode()
    )
    assert "Glass vase" in filtered.content.decode()
    assert "Wool socks" not in filtered.content.decode()


def test_marking_a_second_default_in_the_admin_is_a_form_error(staff_client):
    other = CargoTypeFactory(name="Fragile")

    response = staff_client.post(
        admin_url(CargoType, "change", other.pk), {"name": "Fragile", "is_default": "on"}
    )

    assert response.status_code == 200  # the form again, with its error
    other.refresh_from_db()
    assert not other.is_default
    assert CargoType.objects.filter(is_default=True).count() == 1
