"""demo/marketing.py: the demo banner groups and upsell offers (idempotent)."""

import io
from pathlib import Path

import pytest
from django.utils import timezone

from demo.marketing import seed
from infra.scheduling import Status
from marketing.models import Banner, BannerGroup, Upsell
from tests.catalog.factories import ProductFactory

pytestmark = pytest.mark.django_db


def run_seed() -> str:
    out = io.StringIO()
    seed(stdout=out)
    return out.getvalue()


def test_seed_creates_the_three_groups_with_generated_images(media_root):
    output = run_seed()

    assert set(BannerGroup.objects.values_list("code", flat=True)) == {
        "home-main",
        "home-secondary",
        "category-top",
    }
    assert "created banner group home-main" in output
    for banner in Banner.objects.all():
        for field in (banner.desktop_original_image, banner.desktop_image, banner.mobile_image):
            assert Path(field.path).is_file()
            assert Path(field.path).is_relative_to(media_root)


def test_seed_includes_a_scheduled_an_expired_and_an_inactive_banner():
    run_seed()

    now = timezone.now()
    statuses = {banner.status_at(now) for banner in Banner.objects.all()}
    assert statuses == {Status.LIVE, Status.SCHEDULED, Status.EXPIRED, Status.INACTIVE}


def test_seed_twice_creates_nothing_more_and_keeps_staff_changes():
    run_seed()
    group = BannerGroup.objects.get(code="home-main")
    group.name = "Renamed by staff"
    group.save()
    Banner.objects.filter(group=group, order=1).delete()
    counts = (BannerGroup.objects.count(), Banner.objects.count(), Upsell.objects.count())

    run_seed()

    assert (BannerGroup.objects.count(), Banner.objects.count(), Upsell.objects.count()) == counts
    assert BannerGroup.objects.get(code="home-main").name == "Renamed by staff"


def test_upsell_offers_are_skipped_without_catalog_products():
    output = run_seed()

    assert "catalog demo products not found: upsell offers skipped" in output
    assert not Upsell.objects.exists()


def test_two_upsell_offers_are_created_on_the_catalog_demo_products(api_client):
    for sku in ("DEMO-0001", "DEMO-0002", "DEMO-0003"):
        ProductFactory(sku=sku)

    run_seed()
    run_seed()

    assert sorted(Upsell.objects.values_list("location", flat=True)) == ["cart", "checkout"]
    assert api_client.get("/cart/upsell/checkout").status_code == 200
    cart_offer = Upsell.objects.get(location="cart")
    trigger = cart_offer.trigger_products.get()
    assert (cart_offer.product.sku, trigger.sku) == ("DEMO-0002", "DEMO-0001")
    assert api_client.get(f"/cart/upsell/cart?variationMap[{trigger.pk}]=0").status_code == 200


def test_the_demo_banners_are_served_by_the_endpoint(api_client):
    run_seed()

    response = api_client.get(
        "/api/v3/publics/template/banners", {"codes": "home-main,home-secondary,category-top"}
    )

    assert response.status_code == 200
    data = response.json()["data"]
    assert [group["code"] for group in data] == ["home-main", "home-secondary", "category-top"]
    assert [banner["name"] for banner in data[0]["banners"]] == [
        "Liquidação de verão",
        "Nova coleção",
    ]
