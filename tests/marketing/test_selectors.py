"""Reads of the marketing app: banner listing assembly and the upsell cart."""

import pickle
from datetime import UTC, datetime, timedelta

import pytest

from marketing.api.listing import BannerListing, banner_listing_get
from marketing.selectors import banner_groups_by_codes, cart_get
from storefront.models import SalesChannel
from tests.catalog.factories import CategoryFactory, ProductFactory, VariationFactory

from .factories import BannerFactory, BannerGroupFactory

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 3, 10, 15, tzinfo=UTC)


def test_groups_come_in_code_order_with_their_linked_ids():
    first, second = BannerGroupFactory(code="b"), BannerGroupFactory(code="a")
    product = ProductFactory()
    second.products.add(product)

    groups = banner_groups_by_codes(codes=["a", "b", "zzz"], channel=None)

    assert groups == [second, first]
    assert groups[0].product_ids == [product.pk]
    assert groups[1].product_ids == groups[1].brand_ids == groups[1].category_ids == []


def test_without_any_channel_only_groups_for_every_channel_are_found():
    channel = SalesChannel.objects.get(is_default=True)
    BannerGroupFactory(code="limited", sales_channel=channel)
    BannerGroupFactory(code="open")

    groups = banner_groups_by_codes(codes=["limited", "open"], channel=None)

    assert [group.code for group in groups] == ["open"]


@pytest.mark.cache
def test_cached_listing_entries_survive_pickling_for_a_shared_cache(monkeypatch):
    # given the cache stores through pickle (as Redis does)
    stored = {}

    def fake_cached(namespace, key, build):
        stored[key] = pickle.dumps(build())
        return pickle.loads(stored[key])  # noqa: S301 (bytes this test just wrote)

    monkeypatch.setattr("marketing.api.listing.cached", fake_cached)
    group = BannerGroupFactory(code="g")
    BannerFactory(group=group, name="scheduled", start_at=NOON, end_at=NOON + timedelta(hours=1))

    # when
    listing = banner_listing_get(
        codes=["g"], channel=None, moment=NOON, base_url="https://shop.example/"
    )

    # then
    assert [banner["name"] for banner in listing.groups[0]["banners"]] == ["scheduled"]
    assert listing.groups[0]["banners"][0]["desktopOriginalImage"].startswith(
        "https://shop.example/media/"
    )
    assert listing.valid_until == NOON + timedelta(hours=1)


@pytest.mark.parametrize(
    ("valid_until", "expected"),
    [
        (None, 300),
        (NOON + timedelta(seconds=59, microseconds=900), 59),
        (NOON + timedelta(hours=2), 300),
        (NOON + timedelta(microseconds=1), 0),
    ],
)
def test_max_age_never_reaches_past_the_next_boundary(settings, valid_until, expected):
    settings.PUBLIC_CACHE_SECONDS = 300

    assert BannerListing(groups=[], valid_until=valid_until).max_age(NOON) == expected


def test_the_cart_holds_its_products_variations_and_their_main_products():
    variation = VariationFactory()
    plain = ProductFactory()

    ids = cart_get({plain.pk: None, 999_999: variation.pk}).product_ids

    assert ids == {plain.pk, 999_999, variation.pk, variation.parent_id}
    assert cart_get({}).product_ids == frozenset()


def test_cart_categories_include_main_other_and_ancestor_categories():
    root = CategoryFactory()
    child = CategoryFactory(parent=root)
    other = CategoryFactory()
    product = ProductFactory(main_category=child, categories=[other])

    assert cart_get({product.pk: None}).category_ids >= {root.pk, child.pk, other.pk}
    assert cart_get({}).category_ids == frozenset()
