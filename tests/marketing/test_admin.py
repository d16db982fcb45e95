"""Admin of banner groups, banners and upsell offers (through Django's test client)."""

import json
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.urls import reverse

from marketing.models import Banner, BannerGroup, Upsell
from tests.catalog.factories import CategoryFactory, PriceRuleFactory, ProductFactory

from .factories import BannerFactory, BannerGroupFactory, UpsellFactory, image_file

pytestmark = pytest.mark.django_db

STORE_TZ = ZoneInfo("America/Sao_Paulo")


def at(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, 10, hour, minute, tzinfo=STORE_TZ)


@pytest.fixture
def staff(client):
    # No password: force_login needs none, and hashing one is the slowest part of a test.
    user = get_user_model().objects.create(
        username="boss", email="boss@store.example", is_staff=True, is_superuser=True
    )
    client.force_login(user)
    return client


def group_form_data(**overrides) -> dict:
    data = {
        "code": "home-main",
        "name": "Home carousel",
        "sales_channel": "",
        "location_id": "home-top",
        "title": "",
        "description": "",
        "desktop_width": "1200",
        "desktop_height": "400",
        "tablet_width": "800",
        "tablet_height": "300",
        "mobile_width": "400",
        "mobile_height": "400",
        "showcases": "",
        "pages": "",
        "additional_parameter": "{}",
        "banners-TOTAL_FORMS": "0",
        "banners-INITIAL_FORMS": "0",
        "banners-MIN_NUM_FORMS": "0",
        "banners-MAX_NUM_FORMS": "1000",
    }
    data.update(overrides)
    return data


def inline_banner(index: int = 0, **overrides) -> dict:
    prefix = f"banners-{index}-"
    values = {
        "name": "Summer",
        "alt": "Beach",
        "active": "on",
        "order": "1",
        "start_at_0": "",
        "start_at_1": "",
        "end_at_0": "",
        "end_at_1": "",
        "desktop_original_image": image_file("summer.jpg", width=2400, height=800),
        "desktop_url": "/summer",
        "tablet_url": "",
        "mobile_url": "",
        "additional_parameter": "{}",
    }
    values.update(overrides)
    return {prefix + key: value for key, value in values.items()}


# --- Smoke --------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["bannergroup", "banner", "upsell"])
def test_changelist_and_add_pages_render(staff, model):
    BannerFactory(group=BannerGroupFactory())
    UpsellFactory()

    assert staff.get(reverse(f"admin:marketing_{model}_changelist")).status_code == 200
    assert staff.get(reverse(f"admin:marketing_{model}_add")).status_code == 200


def test_change_pages_render(staff):
    banner = BannerFactory()
    offer = UpsellFactory(trigger_products=[ProductFactory()])

    group_page = staff.get(reverse("admin:marketing_bannergroup_change", args=[banner.group_id]))
    banner_page = staff.get(reverse("admin:marketing_banner_change", args=[banner.pk]))
    upsell_page = staff.get(reverse("admin:marketing_upsell_change", args=[offer.pk]))

    assert group_page.status_code == banner_page.status_code == upsell_page.status_code == 200
    assert b"Preview at" in group_page.content
    assert b'<datalist id="upsell-locations">' in upsell_page.content


def test_changelists_do_not_query_per_row(staff, django_assert_max_num_queries):
    for _ in range(30):
        BannerFactory()
        UpsellFactory()

    with django_assert_max_num_queries(12):
        assert staff.get(reverse("admin:marketing_banner_changelist")).status_code == 200
    with django_assert_max_num_queries(12):
        assert staff.get(reverse("admin:marketing_upsell_changelist")).status_code == 200
    with django_assert_max_num_queries(12):
        assert staff.get(reverse("admin:marketing_bannergroup_changelist")).status_code == 200


# --- Banner groups and their inline banners ---------------------------------------------------


def test_adding_a_group_with_an_inline_banner_generates_its_fitted_copies(staff):
    data = group_form_data(
        **{"banners-TOTAL_FORMS": "1"},
        **inline_banner(),
        showcases="summer\nwinter, summer",
        pages="home",
        additional_parameter='{"theme": "dark"}',
    )

    response = staff.post(reverse("admin:marketing_bannergroup_add"), data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    group = BannerGroup.objects.get(code="home-main")
    assert group.showcases == ["summer", "winter"]
    assert group.pages == ["home"]
    assert group.additional_parameter == {"theme": "dark"}
    banner = group.banners.get()
    assert banner.desktop_image.name.startswith(f"banners/fitted/{banner.pk}/desktop-1200x400")
    assert (banner.mobile_width, banner.mobile_height) == (400, 400)


def test_changing_the_group_size_regenerates_the_copies(staff):
    banner = BannerFactory(group=BannerGroupFactory(code="resize"))
    group = banner.group
    data = group_form_data(
        code="resize",
        desktop_width="900",
        desktop_height="300",
        **{
            "banners-TOTAL_FORMS": "1",
            "banners-INITIAL_FORMS": "1",
            "banners-0-id": str(banner.pk),
            "banners-0-group": str(group.pk),
        },
        **inline_banner(desktop_original_image=""),
    )

    response = staff.post(reverse("admin:marketing_bannergroup_change", args=[group.pk]), data)

    assert response.status_code == 302
    banner.refresh_from_db()
    assert (banner.desktop_width, banner.desktop_height) == (900, 300)


@pytest.mark.parametrize("value", ["[1, 2]", '"text"', "12", "not json"])
def test_additional_parameter_must_be_a_json_object(staff, value):
    response = staff.post(
        reverse("admin:marketing_bannergroup_add"), group_form_data(additional_parameter=value)
    )

    assert response.status_code == 200
    assert "additional_parameter" in response.context["adminform"].form.errors
    assert not BannerGroup.objects.exists()


def test_an_empty_additional_parameter_is_an_empty_object(staff, media_root):
    data = group_form_data(additional_parameter="", **inline_banner(additional_parameter=""))
    data |= {"banners-TOTAL_FORMS": "1"}

    response = staff.post(reverse("admin:marketing_bannergroup_add"), data)

    assert response.status_code == 302
    group = BannerGroup.objects.get()
    assert group.additional_parameter == {}
    assert group.banners.get().additional_parameter == {}


def test_group_code_and_sizes_are_validated(staff):
    response = staff.post(
        reverse("admin:marketing_bannergroup_add"),
        group_form_data(code="has spaces", desktop_width="0", mobile_height="99999"),
    )

    errors = response.context["adminform"].form.errors
    assert {"code", "desktop_width", "mobile_height"} <= set(errors)


def test_too_many_or_too_long_identifiers_are_refused(staff):
    response = staff.post(
        reverse("admin:marketing_bannergroup_add"),
        group_form_data(showcases="\n".join(f"s{i}" for i in range(101)), pages="p" * 101),
    )

    errors = response.context["adminform"].form.errors
    assert {"showcases", "pages"} <= set(errors)


def test_an_inline_banner_ending_before_it_starts_is_refused(staff):
    data = group_form_data(
        **{"banners-TOTAL_FORMS": "1"},
        **inline_banner(
            start_at_0="2026-03-10",
            start_at_1="10:00",
            end_at_0="2026-03-10",
            end_at_1="09:00",
        ),
    )

    response = staff.post(reverse("admin:marketing_bannergroup_add"), data)

    assert response.status_code == 200
    assert not BannerGroup.objects.exists()


def test_the_banner_status_column_shows_live_scheduled_expired_and_inactive(staff):
    group = BannerGroupFactory()
    BannerFactory(group=group, name="now")
    BannerFactory(group=group, name="soon", start_at=at(14))
    BannerFactory(group=group, name="gone", end_at=at(9))
    BannerFactory(group=group, name="off", active=False)

    with time_machine.travel(at(12), tick=False):
        page = staff.get(reverse("admin:marketing_banner_changelist")).content.decode()

    for status in ("live", "scheduled", "expired", "inactive"):
        assert f">{status}</span>" in page


@pytest.mark.parametrize(
    ("status", "expected"),
    [("live", "now"), ("scheduled", "soon"), ("expired", "gone"), ("inactive", "off")],
)
def test_banners_can_be_filtered_by_status(staff, status, expected):
    group = BannerGroupFactory()
    BannerFactory(group=group, name="now")
    BannerFactory(group=group, name="soon", start_at=at(14))
    BannerFactory(group=group, name="gone", end_at=at(9))
    BannerFactory(group=group, name="off", active=False)

    with time_machine.travel(at(12), tick=False):
        response = staff.get(reverse("admin:marketing_banner_changelist"), {"status": status})

    names = [banner.name for banner in response.context["cl"].result_list]
    assert names == [expected]


def test_saving_a_banner_generates_its_copies(staff):
    group = BannerGroupFactory()
    data = {
        "group": str(group.pk),
        "name": "Solo",
        "alt": "",
        "active": "on",
        "order": "0",
        "start_at_0": "",
        "start_at_1": "",
        "end_at_0": "",
        "end_at_1": "",
        "desktop_original_image": image_file(),
        "desktop_url": "/x",
        "tablet_url": "",
        "mobile_url": "",
        "additional_parameter": "{}",
    }

    response = staff.post(reverse("admin:marketing_banner_add"), data)

    assert response.status_code == 302
    assert Banner.objects.get(name="Solo").desktop_image


def half_of(upload) -> ContentFile:
    return ContentFile(upload.read()[: upload.size // 2], name=upload.name)


@pytest.mark.parametrize(
    "upload",
    [
        lambda: ContentFile(b"plain text", name="x.jpg"),
        lambda: half_of(image_file("cut.jpg", width=400, height=200)),  # its header reads fine
        lambda: half_of(image_file("cut.png", width=400, height=200, color=(1, 2, 3, 4))),
    ],
)
def test_a_non_image_or_truncated_upload_is_refused(staff, upload):
    group = BannerGroupFactory()
    data = {
        "group": str(group.pk),
        "name": "Broken",
        "active": "on",
        "order": "0",
        "desktop_original_image": upload(),
        "additional_parameter": "{}",
    }

    response = staff.post(reverse("admin:marketing_banner_add"), data)

    assert response.status_code == 200
    assert "desktop_original_image" in response.context["adminform"].form.errors


def test_banner_actions_activate_deactivate_and_regenerate(staff):
    banners = [BannerFactory(active=False), BannerFactory(active=False)]
    url = reverse("admin:marketing_banner_changelist")
    ids = [str(banner.pk) for banner in banners]

    staff.post(url, {"action": "activate", "_selected_action": ids})
    assert Banner.objects.filter(active=True).count() == 2

    staff.post(url, {"action": "deactivate", "_selected_action": ids[:1]})
    assert Banner.objects.filter(active=True).count() == 1

    staff.post(url, {"action": "regenerate_images", "_selected_action": ids})
    assert all(banner.desktop_image for banner in Banner.objects.all())


# --- Preview at ----------------------------------------------------------------------


def test_preview_shows_what_the_endpoint_returns_at_the_chosen_moment(staff):
    # given a group with a banner live now and one starting at 14:00
    group = BannerGroupFactory(code="home-main")
    BannerFactory(group=group, name="Always on")
    BannerFactory(group=group, name="Afternoon deal", start_at=at(14))
    url = reverse("admin:marketing_bannergroup_preview", args=[group.pk])

    # when previewed at 12:00 and at 15:00
    with time_machine.travel(at(12), tick=False):
        noon = staff.get(url)
        afternoon = staff.get(url, {"at": "2026-03-10T15:00"})

    # then the payload is the endpoint's answer at that moment
    assert noon.status_code == afternoon.status_code == 200
    noon_payload = json.loads(noon.context["payload_json"])
    later_payload = json.loads(afternoon.context["payload_json"])
    assert [b["name"] for b in noon_payload["data"][0]["banners"]] == ["Always on"]
    assert [b["name"] for b in later_payload["data"][0]["banners"]] == [
        "Always on",
        "Afternoon deal",
    ]
    assert noon.context["valid_until"] == at(14)
    assert "Afternoon deal" in afternoon.content.decode()


def test_preview_with_a_bad_date_falls_back_to_now(staff):
    group = BannerGroupFactory()

    response = staff.get(
        reverse("admin:marketing_bannergroup_preview", args=[group.pk]), {"at": "yesterday"}
    )

    assert response.status_code == 200
    assert response.context["form"].errors


def test_preview_needs_a_staff_login(client):
    group = BannerGroupFactory()

    response = client.get(reverse("admin:marketing_bannergroup_preview", args=[group.pk]))

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


@pytest.mark.parametrize("group_id", ["999999", "abc", "1.5"])
def test_preview_of_an_unknown_group_is_a_404(staff, group_id):
    response = staff.get(f"/admin/marketing/bannergroup/{group_id}/preview/")

    assert response.status_code == 404


# --- Upsell -------------------------------------------------------------------------------


def test_adding_an_upsell_with_triggers(staff):
    product, trigger, category = ProductFactory(), ProductFactory(), CategoryFactory()
    rule = PriceRuleFactory(trigger="upsell")
    data = {
        "display_title": "Add socks",
        "display_description": "",
        "display_button_text": "Add",
        "product": str(product.pk),
        "quantity": "1",
        "price_rule": str(rule.pk),
        "location": "checkout",
        "priority": "5",
        "active": "on",
        "start_at_0": "",
        "start_at_1": "",
        "end_at_0": "",
        "end_at_1": "",
        "trigger_products": [str(trigger.pk)],
        "trigger_categories": [str(category.pk)],
    }

    response = staff.post(reverse("admin:marketing_upsell_add"), data)

    assert response.status_code == 302
    offer = Upsell.objects.get()
    assert offer.location == "checkout"
    assert list(offer.trigger_products.all()) == [trigger]
    assert list(offer.trigger_categories.all()) == [category]


@pytest.mark.parametrize(
    ("field", "value"), [("location", "two words"), ("quantity", "0"), ("quantity", "1000")]
)
def test_upsell_fields_are_validated(staff, field, value):
    data = {
        "display_title": "Add",
        "display_button_text": "Add",
        "product": str(ProductFactory().pk),
        "quantity": "1",
        "price_rule": str(PriceRuleFactory().pk),
        "location": "cart",
        "priority": "0",
        field: value,
    }

    response = staff.post(reverse("admin:marketing_upsell_add"), data)

    assert field in response.context["adminform"].form.errors


def test_the_relations_are_autocompletes_that_django_checks_against_searchable_admins():
    upsell_admin = admin.site._registry[Upsell]
    relations = ["product", "price_rule", "trigger_products", "trigger_categories"]
    assert upsell_admin.get_autocomplete_fields(None) == relations
    # admin.E039/E040: each related model is registered with search_fields
    assert upsell_admin.check() == admin.site._registry[BannerGroup].check() == []
