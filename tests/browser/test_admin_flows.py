"""Admin flows in a real browser (headless chromium, 1366x900): sign in, banners, comment
moderation and replies, shipping-row imports; each flow ends where a customer sees the result,
in the public API.

Steps find pages by URL, field names, action values and button names (see admin_pages.py), so
a new step is one more `with browser.step(...)` block; steps that depend on admin features
still landing (the "Publish now" action `publish_now`, the import's "confirm" button) use them
when the page offers them and the older way otherwise.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import urlopen

import pytest
from django.core.cache import cache
from django.utils import timezone
from PIL import Image

from feedback.models import Comment
from marketing.models import BannerGroup
from shipping.models import ShippingRow
from tests.feedback.factories import CommentFactory
from tests.marketing.factories import BannerFactory, BannerGroupFactory
from tests.shipping.factories import ShippingTableFactory

from .conftest import MISSING

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(MISSING is not None, reason=str(MISSING)),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "browser-suite-password-93"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser(
        username="manager", email="manager@store.example", password=PASSWORD
    )


@pytest.fixture
def signed_in(browser, staff):
    with browser.step("sign in"):
        browser.sign_in(staff.username, PASSWORD)
        assert browser.path == "/admin/", browser.field_errors()
        assert browser.has('#user-tools a[href="/"]')  # "View site" opens the home page
    return browser


def png(path: Path, size: tuple[int, int], color: tuple[int, int, int]) -> Path:
    Image.new("RGB", size, color).save(path, format="PNG")
    return path


def test_sign_in_with_a_wrong_password_stays_on_the_form(browser, staff):
    with browser.step("wrong password"):
        browser.sign_in(staff.username, "not-the-password")
        assert browser.path.startswith("/admin/login/")
        assert browser.has(".errornote")
    with browser.step("right password"):
        browser.sign_in(staff.username, PASSWORD)
        assert browser.path == "/admin/"


def test_a_banner_group_with_two_banners_is_published_and_served(signed_in, tmp_path):
    browser = signed_in
    images = [
        png(tmp_path / "summer.png", (1920, 600), (230, 120, 30)),
        png(tmp_path / "winter.png", (1600, 500), (30, 90, 200)),
    ]
    with browser.step("open the new banner group form"):
        browser.open("/admin/marketing/bannergroup/add/")
        browser.fill("code", "browser-sale")
        browser.fill("name", "Browser sale")
        browser.fill("location_id", "home-top")
    with browser.step("add two banners with images"):
        for index, (name, image) in enumerate(zip(("Summer", "Winter"), images, strict=True)):
            browser.click_add_inline("banners")
            browser.fill(f"banners-{index}-name", name)
            browser.fill(f"banners-{index}-alt", f"{name} sale")
            browser.fill(f"banners-{index}-order", str(index))
            browser.fill(f"banners-{index}-desktop_url", f"/sale/{name.lower()}")
            browser.upload(f"banners-{index}-desktop_original_image", image)
    with browser.step("save the group"):
        browser.save()
        assert "/add/" not in browser.path, browser.field_errors()
        group = BannerGroup.objects.get(code="browser-sale")
        assert group.banners.count() == 2
    with browser.step("the group is scheduled for next week: not served yet"):
        BannerGroup.objects.filter(pk=group.pk).update(start_at=timezone.now() + timedelta(days=7))
        cache.clear()  # the update above sends no signal; the admin's changes do
        status, body = browser.api("/publics/template/banners?codes=browser-sale")
        assert status == 200, body
        assert [g["banners"] for g in body["data"]] in ([], [[]]), body
    with browser.step("publish the group now"):
        browser.open("/admin/marketing/bannergroup/")
        browser.run_action("publish_now", [group.pk])
        assert any("live" in message for message in browser.messages()), browser.messages()
    with browser.step("see both banners in the public API"):
        status, body = browser.api("/publics/template/banners?codes=browser-sale")
        assert status == 200
        (served,) = body["data"]
        assert served["code"] == "browser-sale"
        assert [b["name"] for b in served["banners"]] == ["Summer", "Winter"]
        for banner in served["banners"]:
            assert banner["desktopOriginalImage"].endswith(".png"), banner
            with urlopen(banner["desktopImage"], timeout=10) as image:  # noqa: S310 - test URL
                assert image.status == 200
                assert image.headers["Content-Type"].startswith("image/")


def test_a_banner_group_is_published_from_its_edit_page(signed_in):
    browser = signed_in
    group = BannerGroupFactory(code="browser-week", start_at=timezone.now() + timedelta(days=7))
    BannerFactory(group=group, name="Week")
    with browser.step("the group is scheduled: its page says so and it is not served"):
        browser.open(f"/admin/marketing/bannergroup/{group.pk}/change/")
        assert browser.find(".field-schedule_status").text.endswith("scheduled")
        status, body = browser.api("/publics/template/banners?codes=browser-week")
        assert [g["banners"] for g in body["data"]] == [[]], body
    with browser.step("publish now asks before replacing the planned start"):
        browser.click_and_wait('input[name="_publish_now"]')
        assert browser.has("#start-drop-confirmation"), browser.field_errors()
        group.refresh_from_db()
        assert group.start_at > timezone.now()
    with browser.step("confirm and publish"):
        browser.check("confirm_start_dropped")
        browser.click_and_wait('input[name="_publish_now"]')
        assert browser.path.startswith(f"/admin/marketing/bannergroup/{group.pk}/change/")
        assert any("1 banner live" in m for m in browser.messages()), browser.messages()
        assert browser.find(".field-schedule_status").text.endswith("live")
    with browser.step("the storefront serves the group at once"):
        status, body = browser.api("/publics/template/banners?codes=browser-week")
        assert status == 200
        assert [b["name"] for b in body["data"][0]["banners"]] == ["Week"]


def test_a_comment_is_approved_and_answered_and_the_reply_is_public(signed_in):
    browser = signed_in
    question = CommentFactory(active=False, message="Does it come in blue?")
    with browser.step("find the pending comment in the list"):
        browser.open("/admin/feedback/comment/?active__exact=0")
        assert browser.has(f'input[name="_selected_action"][value="{question.pk}"]')
    with browser.step("approve it"):
        browser.run_action("approve", [question.pk])
        question.refresh_from_db()
        assert question.active
    with browser.step("open the reply form from the list"):
        browser.open("/admin/feedback/comment/")
        browser.click_and_wait(f'a[href$="/feedback/comment/{question.pk}/reply/"]')
    with browser.step("publish the reply"):
        browser.fill("message", "Yes, in navy blue.")
        browser.click_and_wait('#content-main form [type="submit"]')
        reply = Comment.objects.get(parent=question)
        assert reply.reply_by_user and reply.active
        assert browser.path == "/admin/feedback/comment/", browser.path  # back to the queue
    with browser.step("see the reply in the public comments API"):
        query = urlencode({"condition[parentCommentId]": question.pk})
        status, body = browser.api(f"/publics/products/comments?{query}")
        assert status == 200
        (served,) = body["registers"]
        assert served["message"] == "Yes, in navy blue."
        assert served["replyByUser"] is True


CSV = (
    "initial_zipcode,final_zipcode,initial_weight,final_weight,initial_price,final_price,"
    "shipping_value,begin_shipping_time,end_shipping_time\n"
    "01000-000,19999-999,0,1,0,,15.90,1,3\n"
    "20000-000,28999-999,0,1,0,,20.00,2,4\n"
)


def test_a_shipping_row_import_is_dry_run_then_confirmed(signed_in, tmp_path):
    browser = signed_in
    table = ShippingTableFactory()
    csv_file = tmp_path / "rows.csv"
    csv_file.write_text(CSV)
    with browser.step("open the import from the table"):
        browser.open(f"/admin/shipping/shippingtable/{table.pk}/change/")
        browser.click_and_wait(f'a[href$="/shippingtable/{table.pk}/import-rows/"]')
    with browser.step("dry run"):
        browser.upload("file", csv_file)
        browser.check("dry_run")
        browser.click_and_wait('#content-main form [type="submit"]')
        assert browser.has('button[name="confirm"]'), browser.field_errors()
        assert not ShippingRow.objects.filter(table=table).exists()
    with browser.step("confirm the import without choosing the file again"):
        browser.click_and_wait('button[name="confirm"]')
        assert browser.messages(), browser.field_errors()
        rows = ShippingRow.objects.filter(table=table).order_by("initial_zipcode")
        assert [row.shipping_value for row in rows] == [Decimal("15.90"), Decimal("20.00")]
