"""GET /api/v3/publics/template/banners (contract 2.6, 2.7, 4.5, section 7)."""

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.dateparse import parse_datetime
from PIL import Image

from marketing.models import Banner, BannerGroup
from marketing.services import banner_images_refresh
from storefront.models import SalesChannel
from tests.catalog.factories import BrandFactory, CategoryFactory, ProductFactory
from tests.helpers import cold_caches

from .factories import BannerFactory, BannerGroupFactory, image_file

pytestmark = pytest.mark.django_db

URL = "/api/v3/publics/template/banners"
STORE_TZ = ZoneInfo("America/Sao_Paulo")

GROUP_KEYS = [
    "id",
    "salesChannelId",
    "code",
    "locationId",
    "name",
    "title",
    "description",
    "desktopWidth",
    "desktopHeight",
    "tabletWidth",
    "tabletHeight",
    "mobileWidth",
    "mobileHeight",
    "createdAt",
    "updatedAt",
    "additionalParameter",
    "banners",
    "products",
    "brands",
    "categories",
    "showcases",
    "pages",
]
BANNER_KEYS = [
    "id",
    "templateBannerGroupId",
    "name",
    "alt",
    "desktopImage",
    "desktopOriginalImage",
    "tabletImage",
    "tabletOriginalImage",
    "mobileImage",
    "mobileOriginalImage",
    "desktopUrl",
    "tabletUrl",
    "mobileUrl",
    "desktopWidth",
    "desktopHeight",
    "tabletWidth",
    "tabletHeight",
    "mobileWidth",
    "mobileHeight",
    "active",
    "order",
    "scheduling",
    "createdAt",
    "additionalParameter",
]


def get_json_body(client, body, url=URL, **extra):
    """A GET carrying a JSON body, as the contract's documented request does."""
    return client.generic("GET", url, json.dumps(body), content_type="application/json", **extra)


def at(hour: int, minute: int = 0, second: int = 0) -> datetime:
    return datetime(2026, 3, 10, hour, minute, second, tzinfo=STORE_TZ)


def codes_of(response) -> list[str]:
    return [group["code"] for group in response.json()["data"]]


def banner_names(response, group_index: int = 0) -> list[str]:
    return [banner["name"] for banner in response.json()["data"][group_index]["banners"]]


# --- Shape ---------------------------------------------------------------------------


def test_group_has_every_contract_field_with_its_json_type(api_client):
    # given a group with links, identifiers and a banner
    group = BannerGroupFactory(
        code="home-main",
        additional_parameter={"theme": "dark"},
        showcases=["summer"],
        pages=["home", "landing/summer"],
    )
    product, brand, category = ProductFactory(), BrandFactory(), CategoryFactory()
    group.products.add(product)
    group.brands.add(brand)
    group.categories.add(category)
    BannerFactory(group=group)

    # when
    response = api_client.get(URL, {"codes": "home-main"})

    # then
    assert response.status_code == 200
    body = response.json()
    assert body["status"] is True
    (data,) = body["data"]
    assert list(data) == GROUP_KEYS
    assert data["id"] == group.pk
    assert data["salesChannelId"] == SalesChannel.objects.get(is_default=True).pk
    assert data["code"] == "home-main"
    assert data["locationId"] == "home-top"
    assert data["name"] == group.name
    assert data["title"] == "Summer sale"
    assert data["description"] == "Everything for the summer."
    assert [data[f"{d}{s}"] for d in ("desktop", "tablet", "mobile") for s in ("Width", "Height")]
    assert (data["desktopWidth"], data["desktopHeight"]) == ("1200", "400")
    assert (data["tabletWidth"], data["tabletHeight"]) == ("800", "300")
    assert (data["mobileWidth"], data["mobileHeight"]) == ("400", "400")
    assert parse_datetime(data["createdAt"]).utcoffset() is not None
    assert parse_datetime(data["updatedAt"]).utcoffset() is not None
    assert data["additionalParameter"] == {"theme": "dark"}
    assert data["products"] == [product.pk]
    assert data["brands"] == [brand.pk]
    assert data["categories"] == [category.pk]
    assert data["showcases"] == ["summer"]
    assert data["pages"] == ["home", "landing/summer"]
    assert len(data["banners"]) == 1


def test_empty_optional_texts_of_a_group_are_null(api_client):
    BannerGroupFactory(code="plain", title="", description="", location_id="")

    data = api_client.get(URL, {"codes": "plain"}).json()["data"][0]

    assert data["title"] is None
    assert data["description"] is None
    assert data["locationId"] is None
    assert data["additionalParameter"] == {}
    assert data["products"] == data["brands"] == data["categories"] == []
    assert data["showcases"] == data["pages"] == []


def test_banner_has_every_contract_field_with_its_json_type(api_client):
    # given a banner whose fitted copies were generated
    group = BannerGroupFactory(code="home-main")
    banner = BannerFactory(
        group=group,
        name="Summer",
        alt="Beach at sunset",
        desktop_url="/summer",
        tablet_url="/summer?tablet",
        mobile_url="",
        order=3,
        additional_parameter={"cta": "Shop now"},
    )
    banner_images_refresh(banner=banner)
    banner.refresh_from_db()

    # when
    data = api_client.get(URL, {"codes": "home-main"}).json()["data"][0]["banners"][0]

    # then
    assert list(data) == BANNER_KEYS
    assert data["id"] == banner.pk
    assert data["templateBannerGroupId"] == group.pk
    assert data["name"] == "Summer"
    assert data["alt"] == "Beach at sunset"
    for device in ("desktop", "tablet", "mobile"):
        assert data[f"{device}Image"].startswith("http://testserver/media/banners/fitted/")
        assert data[f"{device}OriginalImage"] == (
            "http://testserver" + banner.desktop_original_image.url
        )
    assert data["desktopUrl"] == "/summer"
    assert data["tabletUrl"] == "/summer?tablet"
    assert data["mobileUrl"] == "/summer"  # an empty device link falls back to desktop
    assert (data["desktopWidth"], data["desktopHeight"]) == ("1200", "400")
    assert (data["tabletWidth"], data["tabletHeight"]) == ("800", "300")
    assert (data["mobileWidth"], data["mobileHeight"]) == ("400", "400")
    assert data["active"] is True
    assert data["order"] == 3
    assert data["scheduling"] is None
    assert parse_datetime(data["createdAt"]).utcoffset() is not None
    assert data["additionalParameter"] == {"cta": "Shop now"}


def test_image_urls_point_at_files_of_the_device_size(api_client, media_root):
    # given a banner with a large upload whose copies were generated
    banner = BannerFactory(
        group=BannerGroupFactory(code="served"),
        desktop_original_image=image_file("big.jpg", width=3000, height=2000),
    )
    banner_images_refresh(banner=banner)

    # when
    data = api_client.get(URL, {"codes": "served"}).json()["data"][0]["banners"][0]

    # then each URL names a file under MEDIA_ROOT of the size the group gives that device
    def size_at(url: str) -> tuple[int, int]:
        relative = url.removeprefix("http://testserver" + settings.MEDIA_URL)
        with Image.open(media_root / relative) as image:
            return image.size

    assert size_at(data["desktopImage"]) == (1200, 400)
    assert size_at(data["tabletImage"]) == (800, 300)
    assert size_at(data["mobileImage"]) == (400, 400)
    assert size_at(data["desktopOriginalImage"]) == (3000, 2000)


def test_banner_without_generated_copies_reports_its_upload_and_group_size(api_client):
    banner = BannerFactory(group=BannerGroupFactory(code="fresh"))

    data = api_client.get(URL, {"codes": "fresh"}).json()["data"][0]["banners"][0]

    assert data["desktopImage"] == "http://testserver" + banner.desktop_original_image.url
    assert (data["mobileWidth"], data["mobileHeight"]) == ("400", "400")


def test_scheduling_is_an_object_of_iso_datetimes_with_open_ends_as_null(api_client):
    group = BannerGroupFactory(code="sched")
    BannerFactory(group=group, name="both", start_at=at(8), end_at=at(20), order=1)
    BannerFactory(group=group, name="open-end", start_at=at(8), order=2)
    BannerFactory(group=group, name="open-start", end_at=at(20), order=3)

    with time_machine.travel(at(12), tick=False):
        banners = api_client.get(URL, {"codes": "sched"}).json()["data"][0]["banners"]

    both, open_end, open_start = (banner["scheduling"] for banner in banners)
    assert parse_datetime(both["startDate"]) == at(8)
    assert parse_datetime(both["endDate"]) == at(20)
    assert both["startDate"].endswith("-03:00")  # store time zone
    assert open_end == {"startDate": both["startDate"], "endDate": None}
    assert open_start == {"startDate": None, "endDate": both["endDate"]}


# --- Codes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "codes[]=home-main&codes[]=category-top",
        "codes=home-main&codes=category-top",
        "codes=home-main,category-top",
        "codes=home-main, category-top",
        'codes=["home-main","category-top"]',
        "codes[0]=home-main&codes[1]=category-top",
    ],
)
def test_codes_are_read_from_every_query_string_encoding(api_client, query):
    BannerGroupFactory(code="home-main")
    BannerGroupFactory(code="category-top")

    response = api_client.get(f"{URL}?{query}")

    assert response.status_code == 200
    assert codes_of(response) == ["home-main", "category-top"]


def test_codes_are_read_from_a_json_body_on_the_get(api_client):
    BannerGroupFactory(code="home-main")
    BannerGroupFactory(code="category-top")

    response = get_json_body(
        api_client,
        {"codes": ["category-top", "home-main"]},
        HTTP_SERVICE_COOKIE_NAME="session-token",
    )

    assert response.status_code == 200
    assert codes_of(response) == ["category-top", "home-main"]


def test_a_json_body_without_codes_falls_back_to_the_query_string(api_client):
    BannerGroupFactory(code="home-main")

    response = get_json_body(api_client, {}, url=f"{URL}?codes=home-main")

    assert codes_of(response) == ["home-main"]


def test_a_get_without_json_content_type_is_accepted(api_client):
    BannerGroupFactory(code="home-main")

    response = api_client.get(f"{URL}?codes=home-main", HTTP_CONTENT_TYPE="text/plain")

    assert response.status_code == 200


def test_a_json_body_sent_without_its_content_type_is_still_read(api_client):
    BannerGroupFactory(code="home-main")

    response = api_client.generic(
        "GET", URL, json.dumps({"codes": ["home-main"]}), content_type="text/plain"
    )
    garbage = api_client.generic("GET", URL, b"\xff\xfe{", content_type="text/plain")

    assert codes_of(response) == ["home-main"]
    assert_codes_required(garbage)


def test_the_service_cookie_name_header_is_never_required(api_client):
    BannerGroupFactory(code="home-main")

    without = api_client.get(URL, {"codes": "home-main"})
    with_header = api_client.get(URL, {"codes": "home-main"}, HTTP_SERVICE_COOKIE_NAME="anything")

    assert without.status_code == with_header.status_code == 200


def test_groups_come_in_the_order_the_codes_were_given_and_only_once(api_client):
    for code in ("a", "b", "c"):
        BannerGroupFactory(code=code)

    response = api_client.get(URL, {"codes": "c,a,c,b,a"})

    assert codes_of(response) == ["c", "a", "b"]


def test_unknown_codes_are_left_out_when_others_are_found(api_client):
    BannerGroupFactory(code="home-main")

    response = api_client.get(URL, {"codes": "nope,home-main,missing"})

    assert response.status_code == 200
    assert codes_of(response) == ["home-main"]


@pytest.mark.parametrize("path", [URL, URL + "/", "/publics/template/banners"])
def test_the_listing_answers_with_and_without_prefix_and_trailing_slash(api_client, path):
    BannerGroupFactory(code="home-main")

    response = api_client.get(path, {"codes": "home-main"})

    assert response.status_code == 200
    assert codes_of(response) == ["home-main"]


# --- Errors --------------------------------------------------------------------------


def assert_codes_required(response):
    assert response.status_code == 422
    assert response.json() == {
        "status": False,
        "data": {
            "code": 422,
            "errorCode": "VALIDATION_ERROR",
            "message": "The codes field is required.",
            "errors": {"codes": ["The codes field is required."]},
        },
    }


@pytest.mark.parametrize("query", ["", "?codes=", "?codes[]=", "?codes=,,", "?other=1"])
def test_missing_or_empty_codes_in_the_query_is_a_422(api_client, query):
    BannerGroupFactory(code="home-main")

    assert_codes_required(api_client.get(URL + query))


@pytest.mark.parametrize("body", [{}, {"codes": []}, {"codes": None}, {"codes": ["", None]}])
def test_missing_or_empty_codes_in_the_body_is_a_422(api_client, body):
    assert_codes_required(get_json_body(api_client, body))


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"codes": "home-main"}, "codes"),
        ({"codes": {"a": 1}}, "codes"),
        ({"codes": [1]}, "codes.0"),
        ({"codes": ["ok", True]}, "codes.1"),
        ({"codes": [["nested"]]}, "codes.0"),
        ({"codes": ["x" * 10_000]}, "codes.0"),
        ({"codes": ["c"] * 101}, "codes"),
    ],
)
def test_codes_of_the_wrong_type_or_size_are_a_422_naming_the_field(api_client, body, field):
    response = get_json_body(api_client, body)

    assert response.status_code == 422
    data = response.json()["data"]
    assert data["errorCode"] == "VALIDATION_ERROR"
    assert field in data["errors"]
    assert field in data["errors"][field][0]


def test_a_json_body_that_is_not_an_object_is_a_422(api_client):
    response = get_json_body(api_client, ["home-main"])

    assert response.status_code == 422
    assert response.json()["data"]["errors"] == {"body": ["The body field must be a JSON object."]}


def test_a_malformed_json_body_is_a_422(api_client):
    response = api_client.generic("GET", URL, "{codes: [", content_type="application/json")

    assert response.status_code == 422
    assert response.json()["data"]["errorCode"] == "VALIDATION_ERROR"


@pytest.mark.parametrize("content_type", ["application/json", "text/plain"])
def test_a_json_body_nested_too_deeply_is_a_422_or_ignored_never_a_500(api_client, content_type):
    deep = "[" * 5000 + "]" * 5000
    response = api_client.generic("GET", URL, deep, content_type=content_type)

    assert response.status_code == 422
    assert response.json()["data"]["errorCode"] == "VALIDATION_ERROR"


def test_too_many_codes_in_the_query_is_a_422(api_client):
    response = api_client.get(URL, {"codes": ",".join(f"c{i}" for i in range(101))})

    assert response.status_code == 422
    assert "codes" in response.json()["data"]["errors"]


def test_no_group_for_any_code_is_a_404(api_client):
    BannerGroupFactory(code="home-main")

    response = api_client.get(URL, {"codes": "nope,missing"})

    assert response.status_code == 404
    assert response.json() == {
        "status": False,
        "data": {
            "code": 404,
            "errorCode": "SERVICE_STORE_BANNER_GROUP_NOT_FOUND",
            "message": "No banner group was found for the given codes.",
        },
    }


def test_a_write_method_is_a_405_envelope(api_client):
    response = api_client.post(URL, {"codes": ["home-main"]}, format="json")

    assert response.status_code == 405
    assert response.json()["data"]["errorCode"] == "METHOD_NOT_ALLOWED"


# --- Sales channels ---------------------------------------------------------------------


@pytest.fixture
def outlet(settings):
    settings.ALLOWED_HOSTS = ["testserver", "outlet.example.com"]
    return SalesChannel.objects.create(name="Outlet", domain="outlet.example.com")


def test_a_group_limited_to_another_channel_is_not_returned(api_client, outlet):
    BannerGroupFactory(code="outlet-only", sales_channel=outlet)
    BannerGroupFactory(code="everywhere")

    on_default = api_client.get(URL, {"codes": "outlet-only,everywhere"})
    only_other = api_client.get(URL, {"codes": "outlet-only"})

    assert codes_of(on_default) == ["everywhere"]
    assert only_other.status_code == 404


def test_a_group_limited_to_a_channel_is_returned_on_that_channel(api_client, outlet):
    BannerGroupFactory(code="outlet-only", sales_channel=outlet)
    BannerGroupFactory(code="everywhere")

    response = api_client.get(
        URL, {"codes": "outlet-only,everywhere"}, HTTP_HOST="outlet.example.com"
    )

    assert codes_of(response) == ["outlet-only", "everywhere"]
    assert [group["salesChannelId"] for group in response.json()["data"]] == [outlet.pk] * 2
    image = response.json()["data"][0]
    assert image["id"]  # URLs of this channel's answer are built on its own host
    cached_elsewhere = api_client.get(URL, {"codes": "everywhere"}).json()["data"][0]
    assert cached_elsewhere["salesChannelId"] != outlet.pk


# --- Banner rules (4.5) ------------------------------------------------------------------


def test_only_active_banners_are_listed(api_client):
    group = BannerGroupFactory(code="g")
    BannerFactory(group=group, name="on")
    BannerFactory(group=group, name="off", active=False)

    assert banner_names(api_client.get(URL, {"codes": "g"})) == ["on"]


def test_banners_are_ordered_by_order_then_id(api_client):
    group = BannerGroupFactory(code="g")
    BannerFactory(group=group, name="third", order=5)
    BannerFactory(group=group, name="first", order=-1)
    BannerFactory(group=group, name="second-a", order=2)
    BannerFactory(group=group, name="second-b", order=2)

    assert banner_names(api_client.get(URL, {"codes": "g"})) == [
        "first",
        "second-a",
        "second-b",
        "third",
    ]


def test_banner_outside_its_schedule_is_not_listed(api_client):
    group = BannerGroupFactory(code="g")
    BannerFactory(group=group, name="future", start_at=at(14), order=1)
    BannerFactory(group=group, name="past", start_at=at(6), end_at=at(9), order=2)
    BannerFactory(group=group, name="now", start_at=at(9), end_at=at(14), order=3)
    BannerFactory(group=group, name="always", order=4)

    with time_machine.travel(at(12), tick=False):
        response = api_client.get(URL, {"codes": "g"})

    assert banner_names(response) == ["now", "always"]


def test_a_group_with_no_live_banner_is_still_returned_with_an_empty_list(api_client):
    group = BannerGroupFactory(code="g")
    BannerFactory(group=group, active=False)

    response = api_client.get(URL, {"codes": "g"})

    assert response.status_code == 200
    assert response.json()["data"][0]["banners"] == []


# --- Caching -------------------------------------------------------------------------


@pytest.mark.cache
def test_a_banner_starting_at_ten_appears_at_ten_even_when_cached_at_nine_fifty_nine(
    api_client, django_assert_num_queries
):
    # given a banner scheduled from 10:00 and the listing cached at 09:59
    group = BannerGroupFactory(code="g")
    BannerFactory(group=group, name="always", order=1)
    BannerFactory(group=group, name="from-ten", start_at=at(10), order=2)
    with time_machine.travel(at(9, 59), tick=False):
        assert banner_names(api_client.get(URL, {"codes": "g"})) == ["always"]

    # when asked a second before and exactly at 10:00 (served from the cache: no query)
    with time_machine.travel(at(9, 59, 59), tick=False), django_assert_num_queries(0):
        before = api_client.get(URL, {"codes": "g"})
    with time_machine.travel(at(10), tick=False), django_assert_num_queries(0):
        at_ten = api_client.get(URL, {"codes": "g"})

    # then
    assert banner_names(before) == ["always"]
    assert banner_names(at_ten) == ["always", "from-ten"]


@pytest.mark.cache
def test_a_banner_ending_at_ten_disappears_at_ten_even_when_cached(api_client):
    group = BannerGroupFactory(code="g")
    BannerFactory(group=group, name="until-ten", end_at=at(10))
    with time_machine.travel(at(9, 30), tick=False):
        assert banner_names(api_client.get(URL, {"codes": "g"})) == ["until-ten"]

    with time_machine.travel(at(10), tick=False):
        assert banner_names(api_client.get(URL, {"codes": "g"})) == []


@pytest.mark.cache
def test_cache_control_never_reaches_past_the_next_scheduling_boundary(api_client, settings):
    settings.PUBLIC_CACHE_SECONDS = 300
    group = BannerGroupFactory(code="g")
    BannerFactory(group=group, start_at=at(10))

    with time_machine.travel(at(9, 59), tick=False):
        near = api_client.get(URL, {"codes": "g"})
    with time_machine.travel(at(11), tick=False):
        far = api_client.get(URL, {"codes": "g"})

    assert near["Cache-Control"] == "public, max-age=60"
    assert far["Cache-Control"] == "public, max-age=300"
    assert near["ETag"] != far["ETag"]


def test_a_matching_etag_is_a_304(api_client):
    BannerFactory(group=BannerGroupFactory(code="g"))
    first = api_client.get(URL, {"codes": "g"})

    again = api_client.get(URL, {"codes": "g"}, HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 304


def test_staff_edits_show_at_once(api_client):
    # given a cached listing
    group = BannerGroupFactory(code="g", name="Before")
    banner = BannerFactory(group=group, name="old name")
    assert banner_names(api_client.get(URL, {"codes": "g"})) == ["old name"]

    # when staff rename the banner, add one, and rename the group
    banner.name = "new name"
    banner.save()
    BannerFactory(group=group, name="added", order=9)
    group.name = "After"
    group.save()

    # then
    response = api_client.get(URL, {"codes": "g"})
    assert banner_names(response) == ["new name", "added"]
    assert response.json()["data"][0]["name"] == "After"


def test_staff_changes_to_group_links_show_at_once(api_client):
    group = BannerGroupFactory(code="g")
    assert api_client.get(URL, {"codes": "g"}).json()["data"][0]["products"] == []

    product = ProductFactory()
    group.products.add(product)

    assert api_client.get(URL, {"codes": "g"}).json()["data"][0]["products"] == [product.pk]


def test_deleting_a_banner_or_a_new_group_shows_at_once(api_client):
    banner = BannerFactory(group=BannerGroupFactory(code="g"))
    assert api_client.get(URL, {"codes": "g,later"}).status_code == 200

    banner.delete()
    BannerGroupFactory(code="later")

    response = api_client.get(URL, {"codes": "g,later"})
    assert codes_of(response) == ["g", "later"]
    assert response.json()["data"][0]["banners"] == []


# --- Performance ------------------------------------------------------------------------


def make_groups(count: int, banners_per_group: int) -> list[str]:
    """Groups with banners sharing one uploaded image (bulk, fast)."""
    image = BannerFactory(group=BannerGroupFactory(code="seed")).desktop_original_image.name
    groups = [BannerGroupFactory(code=f"bulk-{i}") for i in range(count)]
    Banner.objects.bulk_create(
        Banner(
            group=group,
            name=f"{group.code}-{n}",
            desktop_original_image=image,
            order=n,
            start_at=at(0) - timedelta(days=n % 3),
            end_at=at(23) + timedelta(days=n % 2),
        )
        for group in groups
        for n in range(banners_per_group)
    )
    return [group.code for group in groups]


def test_query_count_does_not_grow_with_groups_and_banners(api_client):
    # given one small group, measured on a cold cache
    BannerFactory(group=BannerGroupFactory(code="small"))
    with time_machine.travel(at(12), tick=False), CaptureQueriesContext(connection) as small:
        assert api_client.get(URL, {"codes": "small"}).status_code == 200
    cold_caches()

    # and 50 groups of 20 banners, some linked to products
    codes = make_groups(50, 20)
    product = ProductFactory()
    for group in BannerGroup.objects.filter(code__in=codes[:10]):
        group.products.add(product)

    # when all are asked for at once, on a cold cache
    with time_machine.travel(at(12), tick=False), CaptureQueriesContext(connection) as large:
        response = get_json_body(api_client, {"codes": codes})

    # then the same queries run: channel (2), groups, banners, products, brands, categories
    assert response.status_code == 200
    assert len(response.json()["data"]) == 50
    assert all(len(group["banners"]) == 20 for group in response.json()["data"])
    assert len(large) == len(small) <= 7
