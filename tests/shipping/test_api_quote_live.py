"""Live carrier quotes (issue 22 items 3 and 4) through HTTP, against a fake freight
aggregator on a free local port (bench/fake_carrier.py): normal answers merged
with the table options by price, slow answers bounded by one deadline, 500s and garbage
left out, the answer cache, the outbound budget, explain=true's carrier_unavailable."""

import time
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.core.management import call_command

from bench.fake_carrier import FakeCarrier
from infra import circuit, deferred
from shipping.models import (
    CallStatus,
    CarrierCall,
    CarrierIntegration,
    ShippingRow,
    ShippingTableKind,
)
from tests.catalog.factories import StockFactory
from tests.jobs.support import DATABASE_TASKS

from .factories import PostalCodeFactory, ShippingRowFactory, ShippingTableFactory
from .test_api_quote import get_quote, priced_product, rio_storage, sao_paulo_storage

pytestmark = pytest.mark.django_db

TOKEN = "test-token-not-in-the-database"


def reset_breakers():
    for breaker in circuit._registry.values():
        breaker.reset()


@pytest.fixture(autouse=True)
def _fresh_breakers(monkeypatch):
    monkeypatch.setenv("FAKE_CARRIER_TOKEN", TOKEN)
    reset_breakers()
    yield
    reset_breakers()


def live_table(fake: FakeCarrier, **integration):
    table = ShippingTableFactory(label="Melhor Envio", kind=ShippingTableKind.LIVE)
    CarrierIntegration.objects.create(
        table=table, base_url=fake.url, token_variable="FAKE_CARRIER_TOKEN", **integration
    )
    return table


@pytest.fixture
def store():
    """A São Paulo storage with a 1 kg product in stock and a table at R$ 25.00 (2-5 days)."""
    PostalCodeFactory(code="20040002", city="Rio de Janeiro", state_code="BR-RJ")
    storage = sao_paulo_storage()
    product = priced_product(
        "80.00",
        weight=Decimal("1.000"),
        height=Decimal("10"),
        width=Decimal("15"),
        length=Decimal("20"),
    )
    StockFactory(product=product, storage=storage, available=50)
    table = ShippingTableFactory(label="Table")
    ShippingRowFactory(table=table)  # R$ 25.00, 2 to 5 days
    return product


def options_of(response) -> list[dict]:
    assert response.status_code == 200, response.content
    (group,) = response.json()["quoteGroups"]
    return group["shippingOptions"]


def labels_and_values(response) -> list[tuple[str, str]]:
    return [(option["label"], option["value"]) for option in options_of(response)]


def verdict_of(response, label: str) -> dict:
    (group,) = response.json()["quoteGroups"]
    return next(v for v in group["explanation"]["tables"] if v["label"] == label)


# --- Normal answers ----------------------------------------------------------------------------


def test_live_services_merge_with_the_table_options_by_price(api_client, store):
    # given the fake aggregator offering PAC 18.40 (5-6 days) and SEDEX 31.20 (1-2 days)
    with FakeCarrier() as fake:
        table = live_table(fake, markup_percent=Decimal("10"), markup_fixed=Decimal("1.00"))

        response = get_quote(api_client, [(store.pk, 2)])

    # then its services come with the table's option, cheapest first, marked up
    assert labels_and_values(response) == [
        ("PAC", 21.24),  # 18.40 * 1.10 + 1.00
        ("Table", 25.0),
        ("SEDEX", 35.32),
    ]
    pac = options_of(response)[0]
    assert pac["shippingTableId"] == table.pk
    assert pac["externalShippingCode"] == "1"
    assert pac["carrierName"] == "Correios"
    assert pac["row"] is None
    assert (pac["beginShippingTime"], pac["endShippingTime"]) == (5, 6)
    assert pac["pickups"] == [] and pac["error"] is None
    # and it was asked as Melhor Envio documents, with the token from the environment
    (call,) = fake.calls
    assert call["path"] == "/api/v2/me/shipment/calculate"
    assert call["headers"]["Authorization"] == f"Bearer {TOKEN}"
    assert call["body"]["from"] == {"postal_code": "01310100"}
    assert call["body"]["to"] == {"postal_code": "20040002"}
    assert call["body"]["products"] == [
        {
            "id": str(store.pk),
            "width": 15.0,
            "height": 10.0,
            "length": 20.0,
            "weight": 1.0,
            "insurance_value": 80.0,
            "quantity": 2,
        }
    ]
    # and the call is in the log
    (logged,) = CarrierCall.objects.all()
    assert (logged.status, logged.http_status, logged.options) == (CallStatus.OK, 200, 2)


def test_only_the_enabled_services_are_offered_with_extra_handling_days(api_client, store):
    with FakeCarrier() as fake:
        live_table(fake, services="2", extra_days=2)

        response = get_quote(api_client, [(store.pk, 1)])

    assert labels_and_values(response) == [("Table", 25.0), ("SEDEX", 31.2)]
    sedex = options_of(response)[1]
    assert (sedex["beginShippingTime"], sedex["endShippingTime"]) == (3, 4)
    assert fake.calls[0]["body"]["services"] == "2"


def test_live_options_carry_delivery_dates_from_the_same_calendar(api_client, store):
    # given a Monday 10:00 in São Paulo (no cut-off): ships today; 2 extra handling days
    with FakeCarrier() as fake:
        live_table(fake, services="2", extra_days=2)
        moment = datetime(2026, 3, 2, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
        with time_machine.travel(moment, tick=False):
            response = get_quote(api_client, [(store.pk, 1)], deliveryDates="true")

    sedex = next(o for o in options_of(response) if o["label"] == "SEDEX")
    estimate = sedex["deliveryEstimate"]
    # handling: Tue 3, Wed 4 -> ships Wed 4; SEDEX 1-2 delivery days: Thu 5, Fri 6
    assert estimate["shipsOn"] == date(2026, 3, 4).isoformat()
    assert (estimate["minDate"], estimate["maxDate"]) == ("2026-03-05", "2026-03-06")
    assert estimate["businessDays"] == {"min": 3, "max": 4}
    assert estimate["readyOn"] is None


def test_a_group_with_no_table_option_is_served_by_the_carrier(api_client, store):
    # given the table's only row is for another region
    ShippingRow.objects.update(initial_zipcode="01000000", final_zipcode="01999999")
    with FakeCarrier() as fake:
        live_table(fake)

        response = get_quote(api_client, [(store.pk, 1)])

    (group,) = response.json()["quoteGroups"]
    assert group["error"] is None
    assert [o["label"] for o in group["shippingOptions"]] == ["PAC", "SEDEX"]


# --- Failures never fail the quote --------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "why"),
    [("error", "HTTP 500"), ("garbage", "the answer is not JSON")],
)
def test_a_failing_carrier_leaves_the_table_options(api_client, store, mode, why):
    with FakeCarrier(mode) as fake:
        live_table(fake)

        response = get_quote(api_client, [(store.pk, 1)], explain="true")

    assert labels_and_values(response) == [("Table", 25.0)]
    verdict = verdict_of(response, "Melhor Envio")
    assert verdict["reasons"] == ["carrier_unavailable"]
    assert verdict["accepted"] is False
    assert verdict["detail"] == why
    assert "detail" not in verdict_of(response, "Table")
    (logged,) = CarrierCall.objects.all()
    assert logged.status == CallStatus.ERROR and logged.error == why
    assert logged.http_status == (500 if mode == "error" else 200)


def test_a_slow_carrier_is_cut_at_the_deadline_and_answers_fast_after(api_client, store):
    # given the fake sleeping 10 s and two storages, so two concurrent calls
    other = rio_storage()
    second = priced_product("30.00", weight=Decimal("1.000"))
    StockFactory(product=second, storage=other, available=50)
    get_quote(api_client, [(store.pk, 1), (second.pk, 1)])  # a served store: warm caches
    with FakeCarrier("slow", slow_seconds=10) as fake:
        live_table(fake)

        started = time.monotonic()
        response = get_quote(api_client, [(store.pk, 1), (second.pk, 1)], explain="true")
        first_seconds = time.monotonic() - started

        # then the quote answers at the deadline (1.5 s, both calls together; one after the
        # other they would take 3 s, the carrier 10 s); the margin is for a loaded machine
        assert first_seconds < 2.5
        assert response.status_code == 200
        groups = response.json()["quoteGroups"]
        assert len(groups) == 2
        for group in groups:
            assert [o["label"] for o in group["shippingOptions"]] == ["Table"]
            verdict = next(v for v in group["explanation"]["tables"] if v["label"] != "Table")
            assert verdict["reasons"] == ["carrier_unavailable"]
            assert verdict["detail"] == "no answer by the deadline"
        assert len(fake.calls) == 2
        assert {c.status for c in CarrierCall.objects.all()} == {CallStatus.TIMEOUT}

        # and 50 more distinct quotes (postal codes) each answer within 1.6 s: the
        # carrier's breaker is open, so none waits for it
        durations = []
        for number in range(50):
            started = time.monotonic()
            response = get_quote(api_client, [(store.pk, 1)], targetZipCode=f"2104{number:04d}")
            durations.append(time.monotonic() - started)
            assert labels_and_values(response) == [("Table", 25.0)]
        durations.sort()
        assert durations[int(len(durations) * 0.95) - 1] < 1.6
        assert len(fake.calls) == 2


def test_a_slow_carrier_waits_no_longer_than_the_deadline_setting(api_client, store, settings):
    settings.CARRIER_TIMEOUT_MS = 300
    with FakeCarrier("slow", slow_seconds=10) as fake:
        live_table(fake)

        started = time.monotonic()
        response = get_quote(api_client, [(store.pk, 1)])
        seconds = time.monotonic() - started

    assert seconds < 1.2  # 0.3 s and a loaded machine's margin; the default deadline is 1.5 s
    assert labels_and_values(response) == [("Table", 25.0)]


# --- The answer cache ----------------------------------------------------------------------


def test_the_same_quote_within_5_minutes_makes_no_outbound_call(api_client, store):
    with FakeCarrier() as fake:
        live_table(fake)
        start = datetime.now(tz=ZoneInfo("UTC"))
        with time_machine.travel(start, tick=False):
            first = labels_and_values(get_quote(api_client, [(store.pk, 1)]))
        assert len(fake.calls) == 1

        # the same quote (and the same parcel in another URL: explain) 4 minutes later
        with time_machine.travel(start + timedelta(minutes=4), tick=False):
            assert labels_and_values(get_quote(api_client, [(store.pk, 1)])) == first
            again = get_quote(api_client, [(store.pk, 1)], explain="true")
            assert labels_and_values(again) == first
        assert len(fake.calls) == 1

        # past 5 minutes the carrier is asked again
        with time_machine.travel(start + timedelta(minutes=6), tick=False):
            assert labels_and_values(get_quote(api_client, [(store.pk, 1)])) == first
        assert len(fake.calls) == 2


def test_a_failure_is_remembered_for_30_seconds(api_client, store):
    with FakeCarrier("error") as fake:
        live_table(fake)
        start = datetime.now(tz=ZoneInfo("UTC"))
        with time_machine.travel(start, tick=False):
            get_quote(api_client, [(store.pk, 1)])
        reset_breakers()  # (the breaker would skip it too)
        with time_machine.travel(start + timedelta(seconds=20), tick=False):
            get_quote(api_client, [(store.pk, 1)], explain="true")
        assert len(fake.calls) == 1
        fake.mode = "ok"
        with time_machine.travel(start + timedelta(seconds=40), tick=False):
            response = get_quote(api_client, [(store.pk, 1)], explain="true")
        assert len(fake.calls) == 2
        assert [label for label, _ in labels_and_values(response)] == ["PAC", "Table", "SEDEX"]


# --- The outbound budget -------------------------------------------------------------------


def test_a_burst_of_1000_distinct_quotes_never_exceeds_the_budget(api_client, store):
    # given a budget of 20 calls a minute, and a burst within one minute
    with FakeCarrier() as fake, time_machine.travel(datetime.now(tz=ZoneInfo("UTC")), tick=False):
        live_table(fake, calls_per_minute=20)

        for number in range(1000):
            response = get_quote(api_client, [(store.pk, 1)], targetZipCode=f"2{number:07d}")
            assert "Table" in [label for label, _ in labels_and_values(response)]

        # then the carrier was asked 20 times, and an over-budget quote says why
        assert len(fake.calls) == 20
        response = get_quote(api_client, [(store.pk, 1)], targetZipCode="29999999", explain="true")
        assert labels_and_values(response) == [("Table", 25.0)]
        verdict = verdict_of(response, "Melhor Envio")
        assert verdict["detail"] == "over its budget of 20 calls a minute"
    assert CarrierCall.objects.count() == 20


# --- What is and is not stored ----------------------------------------------------------------


def test_a_switched_off_live_table_leaves_the_answer_unchanged(api_client, store):
    def answer():
        body = get_quote(api_client, [(store.pk, 1)], deliveryDates="true").json()
        for group in body["quoteGroups"]:
            group.pop("quoteId")  # (fresh in every answer)
        return body

    before = answer()
    with FakeCarrier() as fake:
        table = live_table(fake)
        table.active = False
        table.save()
        assert answer() == before
    assert fake.calls == []


def test_the_token_is_never_stored():
    table = ShippingTableFactory(kind=ShippingTableKind.LIVE)
    integration = CarrierIntegration(table=table, token_variable="eyJ0eXAiOiJKV1Qi.abc")
    with pytest.raises(ValidationError) as raised:
        integration.full_clean()
    assert "token_variable" in raised.value.message_dict


# transaction=True: the worker closes connections between passes (as in production), which a
# test's transaction would not survive on PostgreSQL
@pytest.mark.django_db(transaction=True)
def test_the_call_log_keeps_the_days_the_setting_says(api_client, store, settings):
    # given a call logged 31 days ago and one 29 days ago, and a 30-day log
    settings.CARRIER_CALL_LOG_DAYS = 30
    with FakeCarrier() as fake:
        table = live_table(fake)
        integration = CarrierIntegration.objects.get(table=table)
        now = datetime.now(tz=ZoneInfo("UTC"))
        for days in (31, 29):
            CarrierCall.objects.create(
                integration=integration,
                created_at=now - timedelta(days=days),
                latency_ms=10,
                status=CallStatus.OK,
                options=1,
            )

        # when a quote asks the carrier (a read: it prunes nothing), then the jobs worker runs
        options_of(get_quote(api_client, [(store.pk, 1)]))
        assert CarrierCall.objects.count() == 3
        deferred._periodic["shipping.carrier-calls-prune"].last = float("-inf")  # (due)
        settings.TASKS = DATABASE_TASKS
        call_command("jobs_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)

    # then the old call is gone, the recent one and the new one stay
    ages = sorted(
        round((now - call.created_at) / timedelta(days=1)) for call in CarrierCall.objects.all()
    )
    assert ages == [0, 29]
    # and the next pass within the hour prunes nothing (its upkeep runs hourly)
    assert "shipping.carrier-calls-prune" not in deferred.run_due()


def test_a_quote_writes_its_call_log_after_the_answer(api_client, store, monkeypatch):
    # given the deferred writes not flushed after the request (as a server's thread does)
    flushed, flush = [], deferred.flush
    monkeypatch.setattr(deferred, "flush", lambda: flushed.append(1) or 0)
    with FakeCarrier() as fake:
        live_table(fake)

        options_of(get_quote(api_client, [(store.pk, 1)]))

    # then the answer came without the log row, which waits in the buffer
    assert fake.calls and flushed
    assert not CarrierCall.objects.exists()
    assert deferred.pending() == 1
    # and is written by the next flush
    assert flush() == 1
    (logged,) = CarrierCall.objects.all()
    assert (logged.status, logged.options) == (CallStatus.OK, 2)
