"""Back-in-stock waves (issue 34 item 4): waves sized units x factor, oldest first, the wait,
the stock re-read, flapping, opt-outs, expiry, the signed links and the staff pages."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.urls import reverse
from django.utils import timezone

from catalog.models import (
    BackInStockOptOut,
    BackInStockSettings,
    InterestStatus,
    ProductInterest,
    Restock,
    RestockNotice,
    Stock,
)
from catalog.restocks import back_in_stock_scan, back_in_stock_wave, unsubscribe_token
from jobs.models import OutboundEmail

from .factories import ProductFactory, ProductInterestFactory, StockFactory, VariationFactory

pytestmark = pytest.mark.django_db

VISIT_LINK = re.compile(r"https?://\S+/notices/back-in-stock/visit/\S+")
UNSUBSCRIBE_LINK = re.compile(r"https?://\S+/notices/back-in-stock/unsubscribe/\S+")


def waiting(product, count: int, *, start=None) -> list[ProductInterest]:
    """`count` notify-me interests, one a minute (the first the oldest)."""
    start = start or timezone.now() - timedelta(days=10)
    interests = []
    for number in range(count):
        interest = ProductInterestFactory(product=product, email=f"c{number:03}@example.com")
        at = start + timedelta(minutes=number)
        ProductInterest.objects.filter(pk=interest.pk).update(created_at=at, updated_at=at)
        interests.append(interest)
    return interests


def set_stock(product, units: int) -> None:
    # a bulk update, as an import does: no signal, the scan still sees it
    Stock.objects.filter(product=product).update(available=units)


def recipients() -> list[str]:
    return [message.to[0] for message in mail.outbox]


@pytest.fixture
def sold_out():
    product = ProductFactory(name="Blue shirt")
    StockFactory(product=product, available=0)
    return product


def test_first_wave_is_units_times_factor_oldest_first_then_the_rest_only_after_the_wait(
    sold_out,
):
    # given 100 waiting interests and a product sold out
    interests = waiting(sold_out, 100)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        assert back_in_stock_scan().opened == 0  # still sold out: nothing

        # when 10 units come back and the scan runs
        set_stock(sold_out, 10)
        summary = back_in_stock_scan()

        # then the first wave e-mails 30 (10 x 3), the oldest first, each once
        assert (summary.opened, summary.waves_queued) == (1, 1)
        assert recipients() == [i.email for i in interests[:30]]
        assert ProductInterest.objects.filter(status=InterestStatus.NOTIFIED).count() == 30

        # and nothing more before the wait (24 h), however often the scan runs
        for hours in (1, 12, 23.9):
            clock.move_to(start + timedelta(hours=hours))
            back_in_stock_scan()
        assert len(mail.outbox) == 30

        # after the wait, with stock left, the next 30
        clock.move_to(start + timedelta(hours=24, minutes=1))
        back_in_stock_scan()
        assert recipients()[30:] == [i.email for i in interests[30:60]]

        # when the stock is gone at the next wave's time, nothing is sent
        set_stock(sold_out, 0)
        clock.move_to(start + timedelta(hours=48, minutes=2))
        back_in_stock_scan()
    assert len(mail.outbox) == 60
    assert len(set(recipients())) == 60
    assert RestockNotice.objects.count() == 60
    assert list(
        RestockNotice.objects.values_list("wave", flat=True).distinct().order_by("wave")
    ) == [1, 2]


def test_the_stock_is_read_again_before_each_wave(sold_out):
    waiting(sold_out, 50)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        set_stock(sold_out, 10)
        back_in_stock_scan()
        set_stock(sold_out, 2)  # eight sold meanwhile
        clock.move_to(start + timedelta(hours=25))
        back_in_stock_scan()
    assert len(mail.outbox) == 30 + 6


def test_staff_settings_size_the_waves_and_the_wait(sold_out):
    BackInStockSettings.objects.create(wave_factor=2, wave_wait_hours=2)
    waiting(sold_out, 30)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        set_stock(sold_out, 5)
        back_in_stock_scan()
        assert len(mail.outbox) == 10
        clock.move_to(start + timedelta(hours=2, seconds=1))
        back_in_stock_scan()
    assert len(mail.outbox) == 20


def test_the_first_wave_is_queued_by_the_scan_that_sees_the_stock_back(sold_out, settings):
    # the worker runs the scan every BACK_IN_STOCK_SCAN_SECONDS: under 60 s from the restock
    assert settings.BACK_IN_STOCK_SCAN_SECONDS <= 30
    waiting(sold_out, 3)
    set_stock(sold_out, 1)
    back_in_stock_scan()
    restock = Restock.objects.get()
    email = OutboundEmail.objects.order_by("created_at").first()
    assert email is not None
    assert (email.created_at - restock.started_at) < timedelta(seconds=60)


def test_stock_flapping_ten_times_in_an_hour_notifies_each_interest_at_most_once(sold_out):
    interests = waiting(sold_out, 100)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        for flip in range(20):  # 0 -> 1 ten times in an hour, a scan after each change
            clock.move_to(start + timedelta(minutes=3 * flip))
            set_stock(sold_out, 1 if flip % 2 == 0 else 0)
            back_in_stock_scan()
    # one episode: its first wave (1 unit x 3), nothing more within the hour
    assert Restock.objects.count() == 1
    assert recipients() == [i.email for i in interests[:3]]
    notices = RestockNotice.objects.values_list("interest_id", flat=True)
    assert len(notices) == len(set(notices)) == 3


def test_an_episode_ends_after_the_cooldown_and_a_later_restock_is_a_new_one(sold_out, settings):
    settings.BACK_IN_STOCK_COOLDOWN_HOURS = 24
    interests = waiting(sold_out, 10)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        set_stock(sold_out, 1)
        back_in_stock_scan()
        set_stock(sold_out, 0)
        clock.move_to(start + timedelta(hours=1))
        back_in_stock_scan()  # notes the stock at 0
        clock.move_to(start + timedelta(hours=26))
        assert back_in_stock_scan().ended == 1
        set_stock(sold_out, 1)
        clock.move_to(start + timedelta(hours=27))
        assert back_in_stock_scan().opened == 1
    assert recipients() == [i.email for i in interests[:6]]  # never one twice
    assert Restock.objects.count() == 2


def test_a_repeated_wave_job_sends_nothing(sold_out):
    waiting(sold_out, 10)
    set_stock(sold_out, 1)
    back_in_stock_scan()
    restock = Restock.objects.get()
    assert back_in_stock_wave(restock.pk, 1) == 0
    assert len(mail.outbox) == 3


def test_unsubscribed_and_expired_interests_are_never_emailed(sold_out, settings, client):
    settings.INTEREST_EXPIRY_DAYS = 90
    interests = waiting(sold_out, 10, start=timezone.now() - timedelta(days=100))
    old = interests[0]  # registered 100 days ago: expired
    renewed = interests[1]
    ProductInterest.objects.filter(pk=renewed.pk).update(updated_at=timezone.now())
    for interest in interests[2:]:
        ProductInterest.objects.filter(pk=interest.pk).update(
            updated_at=timezone.now() - timedelta(days=5)
        )
    unsubscribed = interests[2]
    response = client.post(
        f"/notices/back-in-stock/unsubscribe/{unsubscribe_token(unsubscribed.email)}"
    )
    assert response.status_code == 200

    set_stock(sold_out, 10)
    back_in_stock_scan()

    sent = set(recipients())
    assert old.email not in sent
    assert unsubscribed.email not in sent
    assert sent == {i.email for i in interests[1:2] + interests[3:]}
    old.refresh_from_db()
    assert old.status == InterestStatus.PENDING


def test_a_registration_after_unsubscribing_is_notified(sold_out):
    BackInStockOptOut.objects.create(
        email="ana@example.com", created_at=timezone.now() - timedelta(days=1)
    )
    ProductInterestFactory(product=sold_out, email="Ana@Example.com")
    set_stock(sold_out, 1)
    back_in_stock_scan()
    assert recipients() == ["Ana@Example.com"]


def test_the_email_is_in_portuguese_with_signed_links_and_one_click_unsubscribe(sold_out, settings):
    settings.CUSTOMER_LANGUAGE_CODE = "pt-br"
    settings.PUBLIC_BASE_URL = "https://loja.example"
    (interest,) = waiting(sold_out, 1)
    set_stock(sold_out, 1)
    back_in_stock_scan()

    (message,) = mail.outbox
    assert "Blue shirt" in message.subject
    assert "Não quero mais e-mails de volta ao estoque" in message.body
    unsubscribe = UNSUBSCRIBE_LINK.search(message.body).group(0)
    assert message.extra_headers["List-Unsubscribe"] == f"<{unsubscribe}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["Message-ID"] == f"<back-in-stock.{interest.pk}@store.example>"
    assert VISIT_LINK.search(message.body)
    assert VISIT_LINK.search(message.alternatives[0][0])


def test_the_unsubscribe_link_works_without_signing_in_and_a_tampered_one_is_refused(
    client, settings
):
    settings.CUSTOMER_LANGUAGE_CODE = "pt-br"
    token = unsubscribe_token("Ana@Example.com")
    url = f"/notices/back-in-stock/unsubscribe/{token}"

    asked = client.get(url)  # a GET only asks (the write guard fails any write)
    assert asked.status_code == 200
    assert "Parar os e-mails de volta ao estoque para ana@example.com?" in asked.text
    assert 'method="post"' in asked.text
    assert not BackInStockOptOut.objects.exists()

    done = client.post(
        url, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert done.status_code == 200
    assert "Pronto" in done.text
    assert BackInStockOptOut.objects.get().email == "ana@example.com"
    assert client.post(url).status_code == 200  # again: still one row
    assert BackInStockOptOut.objects.count() == 1

    forged = signing.dumps("bia@example.com", salt="another-salt")
    for bad in (token[:-2] + "xx", forged, "nonsense", unsubscribe_token("x")):
        refused = client.post(f"/notices/back-in-stock/unsubscribe/{bad}")
        assert refused.status_code == 400, bad
        assert "Este link não é válido" in refused.text
        assert client.get(f"/notices/back-in-stock/unsubscribe/{bad}").status_code == 400
    assert BackInStockOptOut.objects.count() == 1
    assert client.put(url).status_code == 405


def test_the_product_link_counts_the_visit_after_the_answer_and_redirects(
    client, sold_out, settings
):
    settings.PUBLIC_BASE_URL = "https://loja.example"
    waiting(sold_out, 2)
    set_stock(sold_out, 1)
    back_in_stock_scan()
    link = VISIT_LINK.search(mail.outbox[0].body).group(0)
    path = link.removeprefix("https://loja.example")

    response = client.get(path)  # the guard: no write inside the GET; recorded, then flushed
    assert response.status_code == 302
    assert response["Location"] == f"https://loja.example{sold_out.url}"
    assert "Set-Cookie" not in response.headers
    client.get(path)

    notice = RestockNotice.objects.get(interest__email=mail.outbox[0].to[0])
    assert notice.visits == 2
    assert notice.first_visit_at is not None
    assert RestockNotice.objects.exclude(pk=notice.pk).get().visits == 0

    assert client.get(path[:-3] + "abc").status_code == 404
    assert client.get("/notices/back-in-stock/visit/nonsense").status_code == 404


@pytest.fixture
def staff_client(client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x-pass-123")
    client.force_login(user)
    return client


def test_staff_set_the_factor_and_the_wait_in_portuguese(staff_client):
    changelist = reverse("admin:catalog_backinstocksettings_changelist")
    assert "Relatório de demanda" in staff_client.get(changelist).text
    add = staff_client.get(reverse("admin:catalog_backinstocksettings_add"))
    assert add.status_code == 200
    assert "Fator da onda" in add.text
    assert "Horas entre ondas" in add.text

    saved = staff_client.post(
        reverse("admin:catalog_backinstocksettings_add"),
        {"wave_factor": "5", "wave_wait_hours": "12"},
    )
    assert saved.status_code == 302
    settings_row = BackInStockSettings.current()
    assert (settings_row.wave_factor, settings_row.wave_wait_hours) == (5, 12)
    assert staff_client.get(reverse("admin:catalog_backinstocksettings_add")).status_code == 403
    refused = staff_client.post(
        reverse("admin:catalog_backinstocksettings_change", args=[1]),
        {"wave_factor": "0", "wave_wait_hours": "12"},
    )
    assert refused.status_code == 200  # the form again, with the error
    assert BackInStockSettings.current().wave_factor == 5


def test_the_demand_report_lists_the_most_awaited_products_in_portuguese(staff_client, client):
    shirt = ProductFactory(name="Blue shirt")
    StockFactory(product=shirt, available=0)
    size = VariationFactory(parent=shirt, name="Blue shirt M")
    StockFactory(product=size, available=0)
    waiting(size, 4)
    mug = ProductFactory(name="Red mug")
    StockFactory(product=mug, available=0)
    for number in range(2):
        ProductInterestFactory(product=mug, email=f"m{number}@example.com")
    expired = ProductInterestFactory(product=mug)
    ProductInterest.objects.filter(pk=expired.pk).update(
        updated_at=timezone.now() - timedelta(days=91)
    )

    report = staff_client.get(reverse("admin:catalog_backinstocksettings_demand"))

    assert report.status_code == 200
    text = report.text
    assert "Produtos que os clientes estão esperando" in text
    assert "Avisos que levaram a uma visita" in text
    rows = re.findall(r"<tr>\s*<td>(.*?)</td>\s*<td>(\d+)</td>", text, re.S)
    assert [(name.split(" (")[0], int(count)) for name, count in rows] == [
        ("Blue shirt &rsaquo; Blue shirt M", 4),
        ("Red mug", 2),
    ]
