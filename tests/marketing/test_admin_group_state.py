"""A banner group's state where staff look (issue 20, item 5): the status column of the group
list, "Publish now" and "Unpublish" on the group's page (with a confirmation before a planned
start is dropped) and the banners inline before "History" (through HTTP)."""

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse

from marketing.models import BannerGroup

from .factories import BannerFactory, BannerGroupFactory
from .test_admin import group_form_data

pytestmark = pytest.mark.django_db

STORE_TZ = ZoneInfo("America/Sao_Paulo")
URL = "/api/v3/publics/template/banners"
NOW = datetime(2026, 11, 20, 10, 0, tzinfo=STORE_TZ)
GROUPS = reverse("admin:marketing_bannergroup_changelist")


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create(
        username="boss", email="boss@store.example", is_staff=True, is_superuser=True
    )
    client.force_login(user)
    return client


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


def served(api_client, code="home") -> list[str]:
    """The names of the banners the storefront endpoint serves for the group `code`."""
    response = api_client.get(URL, {"codes": code})
    if response.status_code == 404:
        return []
    return [banner["name"] for banner in response.json()["data"][0]["banners"]]


def change_url(group) -> str:
    return reverse("admin:marketing_bannergroup_change", args=[group.pk])


def page_form(group, **overrides) -> dict:
    """The group's change form as its page posts it (no inline banner changed); dates and
    times in the store's time zone."""
    data = group_form_data(code=group.code, name=group.name)
    for field in ("start_at", "end_at"):
        value = getattr(group, field)
        local = value.astimezone(STORE_TZ) if value else None
        data[f"{field}_0"] = local.strftime("%Y-%m-%d") if local else ""
        data[f"{field}_1"] = local.strftime("%H:%M:%S") if local else ""
    data.update(overrides)
    return data


def status_cell(page: str, code: str) -> str:
    """The status column's text in the row of the group `code`."""
    (row,) = [row for row in page.split("<tr")[1:] if f">{code}</a>" in row]
    return re.search(r'<td class="field-status">.*?>([^<>]+)</span>', row).group(1)


# --- The status column -------------------------------------------------------------------


def test_the_group_list_shows_each_groups_status(staff, frozen):
    BannerFactory(group=BannerGroupFactory(code="now"))
    BannerFactory(group=BannerGroupFactory(code="soon", start_at=NOW + timedelta(days=3)))
    BannerFactory(group=BannerGroupFactory(code="gone", end_at=NOW - timedelta(days=1)))
    BannerFactory(group=BannerGroupFactory(code="off"), active=False)
    BannerGroupFactory(code="empty")

    page = staff.get(GROUPS).content.decode()

    assert status_cell(page, "now") == "live"
    assert status_cell(page, "soon") == "scheduled"
    assert status_cell(page, "gone") == "expired"
    assert status_cell(page, "off") == "inactive"
    assert status_cell(page, "empty") == "inactive"


def test_a_group_shows_the_best_status_of_its_banners(staff, frozen):
    group = BannerGroupFactory(code="mixed")
    BannerFactory(group=group, end_at=NOW - timedelta(days=1))
    BannerFactory(group=group, start_at=NOW + timedelta(days=1))
    assert status_cell(staff.get(GROUPS).content.decode(), "mixed") == "scheduled"

    BannerFactory(group=group)
    assert status_cell(staff.get(GROUPS).content.decode(), "mixed") == "live"


def test_the_status_column_reads_the_banners_in_one_query(staff, django_assert_num_queries):
    for _ in range(5):
        BannerFactory()
    staff.get(GROUPS)  # the session and the content types are read once
    with django_assert_num_queries(7) as few:
        staff.get(GROUPS)
    for _ in range(20):
        BannerFactory()
    with django_assert_num_queries(len(few.captured_queries)):
        staff.get(GROUPS)


# --- "Publish now" and "Unpublish" on the group's page -----------------------------------


def test_the_change_page_has_the_buttons_and_the_add_page_has_not(staff):
    group = BannerGroupFactory()

    change = staff.get(change_url(group)).content.decode()
    add = staff.get(reverse("admin:marketing_bannergroup_add")).content.decode()

    for name in ("_publish_now", "_unpublish"):
        assert f'name="{name}"' in change
        assert f'name="{name}"' not in add
    assert change.index('name="_save"') < change.index('name="_publish_now"')  # Enter saves


def test_publish_now_on_the_page_serves_an_ended_group_at_once(staff, frozen, api_client):
    group = BannerGroupFactory(code="home", end_at=NOW - timedelta(days=1))
    BannerFactory(group=group, name="a")
    assert served(api_client) == []

    response = staff.post(change_url(group), page_form(group, _publish_now="1"), follow=True)

    assert response.redirect_chain == [(change_url(group), 302)]
    assert served(api_client) == ["a"]
    group.refresh_from_db()
    assert group.end_at is None
    messages = [str(message) for message in get_messages(response.wsgi_request)]
    assert any(message.startswith("1 group published: 1 banner live.") for message in messages)


def test_unpublish_on_the_page_stops_serving_the_group_at_once(staff, frozen, api_client):
    group = BannerGroupFactory(code="home")
    BannerFactory(group=group, name="a")
    assert served(api_client) == ["a"]

    response = staff.post(change_url(group), page_form(group, _unpublish="1"))

    assert response.status_code == 302
    assert served(api_client) == []
    group.refresh_from_db()
    assert group.end_at == NOW


def test_the_page_buttons_save_the_form_first(staff, frozen):
    group = BannerGroupFactory(code="home", name="Old name", end_at=NOW - timedelta(days=1))

    staff.post(change_url(group), page_form(group, name="New name", _publish_now="1"))

    group.refresh_from_db()
    assert group.name == "New name" and group.end_at is None


def test_publish_now_asks_before_replacing_a_planned_start(staff, frozen, api_client):
    planned = NOW + timedelta(days=7)
    group = BannerGroupFactory(code="home", start_at=planned)
    BannerFactory(group=group, name="a")

    asked = staff.post(change_url(group), page_form(group, _publish_now="1"))

    assert asked.status_code == 200  # the same page, not saved
    text = asked.content.decode()
    assert 'id="start-drop-confirmation"' in text
    assert 'name="confirm_start_dropped"' in text
    assert "planned to start 2026-11-27 10:00" in text
    group.refresh_from_db()
    assert group.start_at == planned
    assert served(api_client) == []

    confirmed = staff.post(
        change_url(group), page_form(group, _publish_now="1", confirm_start_dropped="1")
    )

    assert confirmed.status_code == 302
    group.refresh_from_db()
    assert group.start_at == NOW
    assert served(api_client) == ["a"]


def test_unpublish_asks_before_dropping_a_planned_start(staff, frozen):
    planned = NOW + timedelta(days=7)
    group = BannerGroupFactory(code="home", start_at=planned)

    asked = staff.post(change_url(group), page_form(group, _unpublish="1"))

    assert asked.status_code == 200
    assert 'id="start-drop-confirmation"' in asked.content.decode()
    group.refresh_from_db()
    assert group.start_at == planned and group.end_at is None


def test_saving_a_planned_start_asks_nothing(staff, frozen):
    group = BannerGroupFactory(code="home")
    planned = NOW + timedelta(days=7)

    response = staff.post(
        change_url(group), page_form(group, start_at_0="2026-11-27", start_at_1="10:00")
    )

    assert response.status_code == 302
    group.refresh_from_db()
    assert group.start_at == planned


def test_a_start_already_passed_needs_no_confirmation(staff, frozen):
    group = BannerGroupFactory(code="home", start_at=NOW - timedelta(days=1))

    response = staff.post(change_url(group), page_form(group, _publish_now="1"))

    assert response.status_code == 302
    assert BannerGroup.objects.get(pk=group.pk).start_at == NOW - timedelta(days=1)


# --- The page's layout -------------------------------------------------------------------


def test_the_banners_inline_comes_before_history(staff):
    group = BannerGroupFactory()
    BannerFactory(group=group, name="slide")

    text = staff.get(change_url(group)).content.decode()

    schedule = text.index('name="start_at_0"')
    inline = text.index('id="banners-group"')
    history = text.index(">History</h2>")
    assert schedule < inline < history
    assert text.count(">History</h2>") == 1
    assert text.index('name="_save"') > history  # the buttons still close the form
