"""Publishing banners in one step: group schedules, "Publish now", "Unpublish", the
truthful "Activate" message, the public cache note and "Purge CDN" (through HTTP)."""

import json
import threading
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse

from infra.scheduling import Status, Window
from marketing.models import Banner, BannerGroup

from .factories import BannerFactory, BannerGroupFactory

pytestmark = pytest.mark.django_db

STORE_TZ = ZoneInfo("America/Sao_Paulo")
URL = "/api/v3/publics/template/banners"
NOW = datetime(2026, 11, 20, 10, 0, tzinfo=STORE_TZ)
BANNERS = reverse("admin:marketing_banner_changelist")
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


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def act(client, url, action, records):
    response = client.post(
        url,
        {"action": action, "_selected_action": [str(record.pk) for record in records]},
        follow=True,
    )
    assert response.status_code == 200
    return messages_of(response)


def names(api_client, code="home") -> list[str]:
    response = api_client.get(URL, {"codes": code})
    if response.status_code == 404:
        return []
    return [banner["name"] for banner in response.json()["data"][0]["banners"]]


# --- The pure rule -------------------------------------------------------------------


def test_a_window_within_its_group_takes_the_latest_start_and_the_earliest_end():
    group = Window(start=NOW, end=NOW + timedelta(days=10))
    assert Window().within(group) == group
    own = Window(start=NOW + timedelta(days=1), end=NOW + timedelta(days=20))
    assert own.within(group) == Window(start=NOW + timedelta(days=1), end=NOW + timedelta(days=10))
    apart = Window(start=NOW + timedelta(days=11)).within(group)
    assert apart.empty and not apart.contains(NOW + timedelta(days=12))


# --- Group schedule through the public endpoint --------------------------------------


def test_banners_inherit_their_group_schedule_in_the_public_listing(api_client, frozen):
    group = BannerGroupFactory(code="home", start_at=NOW + timedelta(days=1))
    BannerFactory(group=group, name="inherits")
    BannerFactory(group=group, name="later", start_at=NOW + timedelta(days=2))

    response = api_client.get(URL, {"codes": "home"})
    assert response.json()["data"][0]["banners"] == []
    # valid_until: the group's start is the next boundary, so max-age stops there (< 300 s
    # only when the start is near; here a day away, the setting's ceiling applies)
    assert response["Cache-Control"] == "public, max-age=300"

    frozen.move_to(NOW + timedelta(days=1, seconds=1))
    body = api_client.get(URL, {"codes": "home"}).json()["data"][0]
    assert [banner["name"] for banner in body["banners"]] == ["inherits"]
    assert body["banners"][0]["scheduling"]["startDate"].startswith("2026-11-21")

    frozen.move_to(NOW + timedelta(days=2, seconds=1))
    assert names(api_client) == ["inherits", "later"]


def test_a_group_end_bounds_its_banners_and_the_max_age_stops_there(api_client, frozen):
    group = BannerGroupFactory(code="home", end_at=NOW + timedelta(seconds=40))
    BannerFactory(group=group, name="own-end-later", end_at=NOW + timedelta(days=5))

    response = api_client.get(URL, {"codes": "home"})
    assert [b["name"] for b in response.json()["data"][0]["banners"]] == ["own-end-later"]
    assert response["Cache-Control"] == "public, max-age=40"
    scheduling = response.json()["data"][0]["banners"][0]["scheduling"]
    assert scheduling["startDate"] is None
    assert scheduling["endDate"].startswith("2026-11-20")

    frozen.move_to(NOW + timedelta(seconds=41))
    assert names(api_client) == []


def test_a_group_ending_before_it_starts_is_refused_in_the_admin(staff):
    group = BannerGroupFactory(code="home")
    response = staff.post(
        reverse("admin:marketing_bannergroup_change", args=[group.pk]),
        {
            **{
                key: getattr(group, key)
                for key in ("code", "name", "location_id", "title", "description")
            },
            **{
                f"{d}_{s}": 100
                for d in ("desktop", "tablet", "mobile")
                for s in ("width", "height")
            },
            "start_at_0": "2026-12-02",
            "start_at_1": "10:00",
            "end_at_0": "2026-12-01",
            "end_at_1": "10:00",
            "additional_parameter": "{}",
            "banners-TOTAL_FORMS": "0",
            "banners-INITIAL_FORMS": "0",
            "banners-MIN_NUM_FORMS": "0",
            "banners-MAX_NUM_FORMS": "1000",
        },
    )
    assert response.status_code == 200
    assert "The end must be after the start." in response.content.decode()
    group.refresh_from_db()
    assert group.start_at is None


# --- Banner actions ------------------------------------------------------------------


def test_publish_now_starts_banners_now_and_reports_the_group_that_holds_one_back(
    staff, api_client, frozen
):
    home = BannerGroupFactory(code="home")
    later = BannerGroupFactory(code="later", start_at=datetime(2026, 12, 1, tzinfo=STORE_TZ))
    first = BannerFactory(group=home, name="a", start_at=NOW + timedelta(days=3))
    second = BannerFactory(group=home, name="b", active=False, end_at=NOW - timedelta(days=1))
    held = BannerFactory(group=later, name="c", start_at=NOW + timedelta(days=3))

    [message] = act(staff, BANNERS, "publish_now", [first, second, held])

    assert message.startswith(
        "3 banners published: 2 banners live, "
        "1 still scheduled (its group starts 2026-12-01 00:00)."
    )
    assert "up to 300 seconds" in message and "max-age" in message
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.start_at == NOW and first.status_at(NOW) == Status.LIVE
    assert second.active and second.end_at is None and second.status_at(NOW) == Status.LIVE
    assert names(api_client) == ["a", "b"]


def test_unpublish_ends_banners_now_even_scheduled_ones(staff, api_client, frozen):
    home = BannerGroupFactory(code="home")
    live = BannerFactory(group=home, name="live", end_at=NOW + timedelta(days=3))
    scheduled = BannerFactory(group=home, name="soon", start_at=NOW + timedelta(days=1))
    assert names(api_client) == ["live"]

    [message] = act(staff, BANNERS, "unpublish", [live, scheduled])

    assert message.startswith("2 banners unpublished: 0 banners live, 2 expired.")
    live.refresh_from_db()
    scheduled.refresh_from_db()
    assert live.end_at == NOW and scheduled.end_at == NOW and scheduled.start_at is None
    assert names(api_client) == []


def test_activate_tells_which_banners_stay_scheduled(staff, frozen):
    banner = BannerFactory(active=False, start_at=datetime(2026, 12, 5, 8, 0, tzinfo=STORE_TZ))
    other = BannerFactory(active=False)

    [message] = act(staff, BANNERS, "activate", [banner, other])

    assert message.startswith(
        "2 banners activated: 1 banner live, 1 still scheduled (starts 2026-12-05 08:00)."
    )
    assert Banner.objects.filter(active=True).count() == 2

    [message] = act(staff, BANNERS, "deactivate", [banner])
    assert message.startswith("1 banner deactivated: 0 banners live, 1 inactive.")


# --- Group actions -------------------------------------------------------------------


def test_publish_and_unpublish_a_group(staff, api_client, frozen):
    group = BannerGroupFactory(code="home", start_at=datetime(2026, 12, 1, tzinfo=STORE_TZ))
    BannerFactory(group=group, name="a")
    BannerFactory(group=group, name="b", start_at=datetime(2026, 12, 3, tzinfo=STORE_TZ))
    assert names(api_client) == []

    [message] = act(staff, GROUPS, "publish_now", [group])
    assert message.startswith(
        "1 group published: 1 banner live, 1 still scheduled (starts 2026-12-03 00:00)."
    )
    group.refresh_from_db()
    assert group.start_at == NOW
    assert names(api_client) == ["a"]

    [message] = act(staff, GROUPS, "unpublish", [group])
    assert message.startswith("1 group unpublished: 0 banners live, 2 expired.")
    group.refresh_from_db()
    assert group.end_at == NOW
    assert names(api_client) == []


def test_a_revalidating_client_sees_a_publish_at_once(staff, api_client, frozen):
    """The listing is cached (rendered answers and groups); a publish bumps the namespace,
    so a client revalidating with its ETag gets the new listing, not a 304."""
    group = BannerGroupFactory(code="home", start_at=datetime(2026, 12, 1, tzinfo=STORE_TZ))
    BannerFactory(group=group, name="a")
    first = api_client.get(URL, {"codes": "home"})
    assert first.json()["data"][0]["banners"] == []
    cached = api_client.get(URL, {"codes": "home"}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert cached.status_code == 304

    act(staff, GROUPS, "publish_now", [group])

    again = api_client.get(URL, {"codes": "home"}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert [banner["name"] for banner in again.json()["data"][0]["banners"]] == ["a"]


def test_the_group_form_shows_the_schedule_status_and_the_max_age(staff, frozen):
    group = BannerGroupFactory(code="home", start_at=datetime(2026, 12, 1, tzinfo=STORE_TZ))
    BannerFactory(group=group)  # a group without an active banner is "inactive"
    page = staff.get(reverse("admin:marketing_bannergroup_change", args=[group.pk]))
    text = page.content.decode()
    assert "scheduled" in text
    assert "up to 300 seconds" in text
    assert "Purge CDN" not in text


# --- CDN purge -----------------------------------------------------------------------


class PurgeReceiver(BaseHTTPRequestHandler):
    received: list = []
    status = 200

    def do_POST(self):
        length = int(self.headers["Content-Length"])
        type(self).received.append(json.loads(self.rfile.read(length)))
        self.send_response(type(self).status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def purge_server(settings):
    PurgeReceiver.received = []
    PurgeReceiver.status = 200
    server = HTTPServer(("127.0.0.1", 0), PurgeReceiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.CDN_PURGE_URL = f"http://127.0.0.1:{server.server_port}/purge"
    settings.PUBLIC_BASE_URL = "https://shop.example"
    yield PurgeReceiver
    server.shutdown()
    server.server_close()


def test_purge_cdn_is_offered_only_when_configured(staff, settings):
    group = BannerGroupFactory()
    page = staff.get(GROUPS)
    assert 'value="purge_cdn"' not in page.content.decode()
    settings.CDN_PURGE_URL = "http://127.0.0.1:9/purge"
    page = staff.get(GROUPS)
    assert 'value="purge_cdn"' in page.content.decode()
    assert 'value="publish_now"' in page.content.decode()
    assert 'value="unpublish"' in page.content.decode()
    form = staff.get(reverse("admin:marketing_bannergroup_change", args=[group.pk]))
    assert "Purge CDN" in form.content.decode()


def test_purge_cdn_posts_the_banners_url_to_the_configured_endpoint(staff, purge_server):
    banner = BannerFactory()
    [message] = act(staff, BANNERS, "purge_cdn", [banner])
    assert purge_server.received == [
        {"urls": ["https://shop.example/api/v3/publics/template/banners"]}
    ]
    assert (
        message == "CDN purge requested for https://shop.example/api/v3/publics/template/banners."
    )


def test_a_failing_cdn_purge_is_reported_never_a_500(staff, purge_server, settings):
    purge_server.status = 503
    group = BannerGroupFactory()
    [message] = act(staff, GROUPS, "purge_cdn", [group])
    assert "failed: the CDN answered 503" in message

    settings.CDN_PURGE_URL = "http://127.0.0.1:1/unreachable"
    [message] = act(staff, GROUPS, "purge_cdn", [group])
    assert "failed: the CDN could not be reached" in message
    assert BannerGroup.objects.count() == 1


@pytest.mark.parametrize(
    ("status", "expected"),
    [("live", ["own"]), ("scheduled", ["held"]), ("expired", ["gone"]), ("inactive", ["off"])],
)
def test_the_status_filter_counts_the_group_schedule(staff, frozen, status, expected):
    later = BannerGroupFactory(start_at=NOW + timedelta(days=1))
    ended = BannerGroupFactory(end_at=NOW - timedelta(days=1))
    BannerFactory(name="own")
    BannerFactory(group=later, name="held")
    BannerFactory(group=ended, name="gone", start_at=NOW - timedelta(days=5))
    BannerFactory(name="off", active=False)

    response = staff.get(BANNERS, {"status": status})

    assert [banner.name for banner in response.context["cl"].result_list] == expected
