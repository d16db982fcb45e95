"""GET /cart/upsell/{locationId}: the upsell product's staff-managed parts (contract 2.11;
issue 12 item 2): `indicatedProducts`, `relatedProducts`, `seals`, `filters` and
`bannerGroups`, filled from data, exact at every schedule boundary, fresh after every
staff change, and with a query count that does not grow with them."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import RelationKind
from marketing.models import Upsell
from tests.catalog.factories import (
    AttributeFactory,
    AttributeValueFactory,
    CategoryFactory,
    ProductFactory,
    VariationFactory,
)
from tests.catalog.merchandising_factories import ProductRelationFactory, SealFactory
from tests.helpers import cold_caches

from .factories import BannerFactory, BannerGroupFactory, UpsellFactory

pytestmark = pytest.mark.django_db

URL = "/cart/upsell/cart"
STORE_TZ = ZoneInfo("America/Sao_Paulo")
SUMMARY_KEYS = {
    "id",
    "brandId",
    "brandName",
    "mainCategoryId",
    "mainCategoryName",
    "type",
    "name",
    "sku",
    "url",
    "comparisonPrice",
    "stock",
    "medias",
    "combination",
    "currentAttributes",
    "active",
}


def at(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, 10, hour, minute, tzinfo=STORE_TZ)


def upsell_product(response) -> dict:
    assert response.status_code == 200, response.content[:500]
    return response.json()["upsellProduct"]


def ids(rows) -> list[int]:
    return [row["id"] for row in rows]


def names(rows) -> list[str]:
    return [row["name"] for row in rows]


def banner_ids(product: dict, code: str) -> list[int]:
    group = next(group for group in product["bannerGroups"] if group["code"] == code)
    return ids(group["banners"])


# --- Each field ---------------------------------------------------------------------------


def test_related_and_indicated_products_are_summaries_of_active_products_in_order(api_client):
    # given an offered product with two related products, an indicated one, and relations
    # to an inactive product and to a variation of an inactive product
    product = ProductFactory()
    UpsellFactory(product=product)
    first, second, indicated = ProductFactory.create_batch(3)
    inactive = ProductFactory(active=False)
    orphan = VariationFactory(parent=ProductFactory(active=False))
    ProductRelationFactory(product=product, target=second, position=2)
    ProductRelationFactory(product=product, target=first, position=1)
    ProductRelationFactory(product=product, target=inactive, position=0)
    ProductRelationFactory(product=product, target=orphan, position=0)
    ProductRelationFactory(product=product, target=indicated, kind=RelationKind.INDICATED)

    # when
    body = upsell_product(api_client.get(URL))

    # then each list holds the active products' summaries, in staff order
    assert ids(body["relatedProducts"]) == [first.pk, second.pk]
    assert ids(body["indicatedProducts"]) == [indicated.pk]
    summary = body["relatedProducts"][0]
    assert set(summary) == SUMMARY_KEYS
    assert summary["name"] == first.name
    assert summary["active"] is True


def test_a_variation_without_relations_shows_its_main_products(api_client):
    parent = ProductFactory()
    variation = VariationFactory(parent=parent)
    UpsellFactory(product=variation)
    related = ProductFactory()
    ProductRelationFactory(product=parent, target=related)

    body = upsell_product(api_client.get(URL))

    assert ids(body["relatedProducts"]) == [related.pk]


def test_seals_are_the_live_ones_of_the_product_and_its_categories(api_client, media_root):
    with time_machine.travel(at(12), tick=False):
        # given a product in a subcategory, and seals on it, on the parent category,
        # expired, scheduled, inactive, and on another product
        root = CategoryFactory(name="Moda")
        category = CategoryFactory(name="Camisetas", parent=root)
        product = ProductFactory(main_category=category)
        UpsellFactory(product=product)
        on_product = SealFactory(name="Free shipping", position=1, products=[product])
        on_root = SealFactory(name="New", position=0, categories=[root])
        SealFactory(name="Expired", end_at=at(11), products=[product])
        SealFactory(name="Scheduled", start_at=at(13), products=[product])
        SealFactory(name="Off", active=False, products=[product])
        SealFactory(name="Elsewhere", products=[ProductFactory()])
        ending = SealFactory(name="Ends", position=5, start_at=at(10), end_at=at(18),
                             categories=[category])  # fmt: skip

        # when
        seals = upsell_product(api_client.get(URL))["seals"]

    # then only the live seals show, in staff order, with absolute image URLs
    assert names(seals) == ["New", "Free shipping", "Ends"]
    assert ids(seals) == [on_root.pk, on_product.pk, ending.pk]
    assert set(seals[0]) == {"id", "name", "image", "width", "height", "scheduling"}
    assert seals[1]["image"].startswith("http://testserver/media/seals/")
    assert seals[1]["image"].endswith(".png")
    assert seals[1]["scheduling"] is None
    assert seals[2]["scheduling"] == {
        "startDate": "2026-03-10T10:00:00-03:00",
        "endDate": "2026-03-10T18:00:00-03:00",
    }


def test_filters_are_the_filterable_values_of_the_product_and_its_variations(api_client):
    # given colour and size on the variations, a material on the product itself, and a
    # supplier attribute staff do not let storefronts filter on
    color = AttributeFactory(name="Color", code="color", position=0)
    size = AttributeFactory(name="Size", code="size", position=1)
    material = AttributeFactory(name="Material", code="material", position=2)
    supplier = AttributeFactory(name="Supplier", code="supplier", position=3, filterable=False)
    blue = AttributeValueFactory(attribute=color, label="Blue", order=0)
    red = AttributeValueFactory(attribute=color, label="Red", order=1)
    green = AttributeValueFactory(attribute=color, label="Green", order=2)
    medium = AttributeValueFactory(attribute=size, label="M")
    cotton = AttributeValueFactory(attribute=material, label="Cotton")
    acme = AttributeValueFactory(attribute=supplier, label="Acme")
    product = ProductFactory()
    product.attribute_values.set([cotton, acme])
    VariationFactory(parent=product, values=[red, medium])
    VariationFactory(parent=product, values=[blue, medium])
    VariationFactory(parent=product, values=[green, medium], active=False)
    UpsellFactory(product=product)

    # when
    filters = upsell_product(api_client.get(URL))["filters"]

    # then one entry per filterable attribute, values in display order
    assert [(f["attributeId"], f["name"]) for f in filters] == [
        (color.pk, "Color"),
        (size.pk, "Size"),
        (material.pk, "Material"),
    ]
    assert [[v["label"] for v in f["values"]] for f in filters] == [
        ["Blue", "Red"],
        ["M"],
        ["Cotton"],
    ]
    assert set(filters[0]["values"][0]) == {"id", "label", "image", "originalImage", "color",
                                            "order"}  # fmt: skip
    assert filters[0]["values"][0]["id"] == blue.pk


def test_banner_groups_linked_to_the_product_or_its_categories_show_their_live_banners(
    api_client,
):
    with time_machine.travel(at(12), tick=False):
        # given groups linked to the product's parent category, to the product itself,
        # and to another product
        root = CategoryFactory()
        category = CategoryFactory(parent=root)
        product = ProductFactory(main_category=category)
        UpsellFactory(product=product)
        by_category = BannerGroupFactory(code="a-category")
        by_category.categories.add(root)
        by_product = BannerGroupFactory(code="b-product")
        by_product.products.add(product)
        BannerGroupFactory(code="c-elsewhere").products.add(ProductFactory())
        second = BannerFactory(group=by_category, order=2)
        first = BannerFactory(group=by_category, order=1)
        BannerFactory(group=by_category, end_at=at(11))
        BannerFactory(group=by_category, start_at=at(13))
        BannerFactory(group=by_category, active=False)
        # and groups whose own schedule is over or not yet begun: their banners inherit it
        ended = BannerGroupFactory(code="d-ended", end_at=at(11))
        upcoming = BannerGroupFactory(code="e-upcoming", start_at=at(13))
        for group in (ended, upcoming):
            group.products.add(product)
            BannerFactory(group=group)

        # when
        product_body = upsell_product(api_client.get(URL))
        listing = api_client.get(
            "/api/v3/publics/template/banners",
            {"codes": "a-category,b-product,d-ended,e-upcoming"},
        )

    # then the linked groups show, rendered as the banners endpoint renders them
    groups = product_body["bannerGroups"]
    assert [group["code"] for group in groups][:2] == ["a-category", "b-product"]
    assert banner_ids(product_body, "a-category") == [first.pk, second.pk]
    assert banner_ids(product_body, "b-product") == []
    for code in ("d-ended", "e-upcoming"):
        assert all(group["banners"] == [] for group in groups if group["code"] == code)
    assert groups == listing.json()["data"]


# --- Freshness ----------------------------------------------------------------------------


def test_a_seal_or_banner_boundary_ends_the_cached_answer(api_client, django_assert_num_queries):
    # (boundaries a minute apart: well inside the 300 s every cached answer may live)
    with time_machine.travel(at(12), tick=False):
        product = ProductFactory()
        UpsellFactory(product=product)
        SealFactory(name="Until 12:02", end_at=at(12, 2), products=[product])
        group = BannerGroupFactory(code="product-top")
        group.products.add(product)
        banner = BannerFactory(group=group, start_at=at(12, 1))
        before = upsell_product(api_client.get(URL))

    # the answer is cached between boundaries...
    moment = at(12) + timedelta(seconds=59)
    with time_machine.travel(moment, tick=False), django_assert_num_queries(0):
        cached = upsell_product(api_client.get(URL))
    # ...and each boundary ends it
    with time_machine.travel(at(12, 1), tick=False):
        banner_started = upsell_product(api_client.get(URL))
    with time_machine.travel(at(12, 2), tick=False):
        seal_ended = upsell_product(api_client.get(URL))

    assert names(before["seals"]) == names(cached["seals"]) == ["Until 12:02"]
    assert banner_ids(before, "product-top") == banner_ids(cached, "product-top") == []
    assert banner_ids(banner_started, "product-top") == [banner.pk]
    assert names(banner_started["seals"]) == ["Until 12:02"]
    assert seal_ended["seals"] == []
    assert banner_ids(seal_ended, "product-top") == [banner.pk]


def test_a_staff_change_shows_in_the_next_answer(api_client):
    # given an answered (cached) offer
    category = CategoryFactory()
    product = ProductFactory(main_category=category)
    UpsellFactory(product=product)
    target = ProductFactory()
    size = AttributeFactory(name="Size", code="size")
    VariationFactory(parent=product, values=[AttributeValueFactory(attribute=size)])
    assert api_client.get(URL).status_code == 200

    # when staff relate a product, then it shows at once
    ProductRelationFactory(product=product, target=target)
    assert ids(upsell_product(api_client.get(URL))["relatedProducts"]) == [target.pk]
    # a seal put on the product's category
    seal = SealFactory(name="Hot")
    seal.categories.add(category)
    assert names(upsell_product(api_client.get(URL))["seals"]) == ["Hot"]
    # a banner group linked to the product
    group = BannerGroupFactory(code="linked")
    group.products.add(product)
    assert [g["code"] for g in upsell_product(api_client.get(URL))["bannerGroups"]] == ["linked"]
    # the related product deactivated, the seal's category removed, the group unlinked
    target.active = False
    target.save()
    seal.categories.remove(category)
    group.products.remove(product)
    size.filterable = False
    size.save()
    body = upsell_product(api_client.get(URL))
    assert body["relatedProducts"] == []
    assert body["seals"] == []
    assert body["bannerGroups"] == []
    assert body["filters"] == []


# --- Performance ------------------------------------------------------------------------


def _offer_with(count: int) -> None:
    """An offer whose product has `count` of each: related and indicated products, seals
    on it and on its category, filterable attributes of its variations, linked groups."""
    category = CategoryFactory()
    product = ProductFactory(main_category=category)
    UpsellFactory(product=product)
    for n in range(count):
        ProductRelationFactory(product=product, position=n)
        ProductRelationFactory(product=product, position=n, kind=RelationKind.INDICATED)
        SealFactory(products=[product])
        SealFactory(categories=[category])
        VariationFactory(parent=product, values=[AttributeValueFactory()])
        group = BannerGroupFactory()
        group.products.add(product)
        BannerFactory(group=group)
        BannerFactory(group=group, order=1)


def test_query_count_does_not_grow_with_relations_seals_filters_or_banner_groups(
    api_client, media_root
):
    # given one of each, measured on a cold cache
    _offer_with(1)
    cold_caches()
    with CaptureQueriesContext(connection) as small:
        body = upsell_product(api_client.get(URL))
    assert len(body["relatedProducts"]) == len(body["bannerGroups"]) == 1
    Upsell.objects.all().delete()

    # when another offer's product has eight of each
    _offer_with(8)
    cold_caches()
    with CaptureQueriesContext(connection) as large:
        body = upsell_product(api_client.get(URL))

    # then
    assert len(body["relatedProducts"]) == len(body["indicatedProducts"]) == 8
    assert len(body["seals"]) == 16
    assert len(body["filters"]) == 8
    assert len(body["bannerGroups"]) == 8
    assert len(large) == len(small), [q["sql"][:120] for q in large.captured_queries]
