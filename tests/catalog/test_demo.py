"""demo/catalog.py: the demo catalog is complete, idempotent and keeps staff changes."""

from io import StringIO

import pytest

from catalog.models import (
    Brand,
    Category,
    PriceRule,
    Product,
    ProductMedia,
    ProductPrice,
    Stock,
    Storage,
)
from catalog.selectors import category_tree_get
from demo import catalog as demo

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    demo.seed(stdout=out)
    return out.getvalue()


def test_demo_catalog_is_a_believable_store(media_root):
    seed()

    assert 55 <= Category.objects.count() <= 65
    depths = {c.url.count("/") for c in Category.objects.all()}
    assert depths == {1, 2, 3}
    assert Category.objects.filter(active=False, parent__isnull=True).exists()
    assert Brand.objects.count() == 12
    assert Product.objects.filter(parent__isnull=True).count() == 150
    assert Product.objects.filter(type="variation").exists()
    assert Storage.objects.count() == 3
    assert set(Storage.objects.values_list("zip_code", flat=True)) == {
        "01310-100",
        "20040-002",
        "80010-000",
    }
    assert Stock.objects.filter(available=0).exists() and Stock.objects.filter(available__gt=0)
    # a retail price each, and wholesale prices for the first products
    retail = ProductPrice.objects.filter(trade_policy__is_default=True)
    assert retail.count() == Product.objects.count()
    wholesale = ProductPrice.objects.filter(trade_policy__code=demo.WHOLESALE_CODE)
    assert wholesale.count() == demo.WHOLESALE_PRODUCTS
    assert all(p.sale_price < p.comparison_price for p in wholesale)
    # every product has a cargo type, most the store's default one
    assert Product.objects.filter(cargo_type__is_default=True).exists()
    assert Product.objects.exclude(cargo_type__is_default=True).exists()
    assert PriceRule.objects.count() == 2
    media = ProductMedia.objects.first()
    assert media.file.storage.exists(media.file.name)
    assert media.width == demo.IMAGE_SIZE
    # the inactive branch is hidden from the public tree
    assert "Outlet" not in [node["name"] for node in category_tree_get()]


def test_seeding_twice_creates_nothing_more_and_keeps_staff_changes(media_root):
    seed()
    product = Product.objects.get(sku="DEMO-0001")
    product.name = "Renamed by staff"
    product.save()
    counts = {
        model: model.objects.count()
        for model in (Category, Brand, Product, ProductMedia, ProductPrice, Stock, PriceRule)
    }

    output = seed()

    assert {model: model.objects.count() for model in counts} == counts
    assert Product.objects.get(sku="DEMO-0001").name == "Renamed by staff"
    assert "created" not in output


def test_demo_is_deterministic(media_root):
    seed()
    first = list(Product.objects.order_by("sku").values_list("sku", "name", "base_price"))
    Product.objects.all().delete()

    seed()

    again = list(Product.objects.order_by("sku").values_list("sku", "name", "base_price"))
    assert again == first
