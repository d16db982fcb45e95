"""The demo store (catalog then marketing demo) fills the upsell product's staff-managed
fields: related and indicated products, seals with images, filters from variation
attributes, and a banner group linked to a category (issue 12 item 5)."""

import io

import pytest

from catalog.models import Product, ProductRelation, Seal
from demo import catalog as catalog_demo
from demo import marketing as marketing_demo
from marketing.models import Upsell

pytestmark = pytest.mark.django_db


def seed_store() -> None:
    catalog_demo.seed(stdout=io.StringIO())
    marketing_demo.seed(stdout=io.StringIO())


def test_the_demo_upsell_product_shows_relations_seals_filters_and_banner_groups(api_client):
    seed_store()

    response = api_client.get("/cart/upsell/checkout")

    assert response.status_code == 200
    product = response.json()["upsellProduct"]
    assert product["relatedProducts"] and product["indicatedProducts"]
    assert all(summary["active"] for summary in product["relatedProducts"])
    assert [seal["name"] for seal in product["seals"]]
    assert all(
        seal["image"].startswith("http://testserver/media/seals/") for seal in product["seals"]
    )
    assert "category-top" in [group["code"] for group in product["bannerGroups"]]


def test_demo_filters_come_from_variation_attributes(api_client):
    # given the demo store, its checkout offer moved to a product with variations
    seed_store()
    with_variations = Product.objects.filter(variations__isnull=False).order_by("sku").first()
    offer = Upsell.objects.get(location="checkout")
    offer.product = with_variations
    offer.save()

    response = api_client.get("/cart/upsell/checkout")

    filters = response.json()["upsellProduct"]["filters"]
    assert {entry["name"] for entry in filters} >= {"Cor", "Tamanho"}
    assert all(entry["values"] for entry in filters)


def test_seeding_twice_adds_no_relations_or_seals(media_root):
    seed_store()
    counts = (ProductRelation.objects.count(), Seal.objects.count())
    seed_store()
    assert (ProductRelation.objects.count(), Seal.objects.count()) == counts
    assert counts[0] > 0 and counts[1] == len(catalog_demo.DATA["seals"])
