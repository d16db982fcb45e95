"""GET /publics/products/quote?...&deliveryDates=true (issue 22): each shipping option's
dates by the business calendar, through HTTP at frozen moments (store time zone
America/Sao_Paulo, UTC-3). Without `deliveryDates` the answer is what it was."""

import json
from datetime import date, datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine

from shipping.models import Holiday, HolidayScope
from tests.catalog.factories import StockFactory

from .factories import PickupFactory, PostalCodeFactory, ShippingRowFactory, ShippingTableFactory
from .test_api_quote import get_quote, priced_product, rio_storage, sao_paulo_storage

pytestmark = pytest.mark.django_db

TZ = ZoneInfo("America/Sao_Paulo")
RIO_CODE, SAO_PAULO_CODE, CURITIBA_CODE = "20040-002", "01310-100", "80010-000"


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=TZ)


@pytest.fixture
def store():
    """A São Paulo storage (cut-off 14:00) and a Rio one, a product in stock in each, a
    delivery table (1 to 3 days) and a pickup table (2 to 4 days); the addresses of Rio,
    São Paulo and Curitiba."""
    PostalCodeFactory(code="20040002", city="Rio de Janeiro", state_code="BR-RJ")
    PostalCodeFactory(code="01310100", city="São Paulo", state_code="BR-SP")
    PostalCodeFactory(code="80010000", city="Curitiba", state_code="BR-PR")
    storages = {
        "sp": sao_paulo_storage(cutoff_time=time(14)),
        "rj": rio_storage(cutoff_time=time(14)),
    }
    products = {}
    for name, storage in storages.items():
        products[name] = priced_product("50.00", weight=Decimal("1.000"))
        StockFactory(product=products[name], storage=storage, available=5)
    delivery = ShippingTableFactory(label="Delivery")
    ShippingRowFactory(table=delivery, begin_shipping_time=1, end_shipping_time=3)
    pickup = ShippingTableFactory(label="Pickup", kind="pickup")
    ShippingRowFactory(table=pickup, begin_shipping_time=2, end_shipping_time=4)
    PickupFactory(table=pickup)
    return storages, products, delivery


def estimates(api_client, moment, product, zip_code=RIO_CODE, **params):
    """{table label: deliveryEstimate} of a quote of `product` at `moment`."""
    with time_machine.travel(moment, tick=False):
        response = get_quote(
            api_client, [(product.pk, 1)], targetZipCode=zip_code, deliveryDates="true", **params
        )
    assert response.status_code == 200, response.content
    (group,) = response.json()["quoteGroups"]
    return {option["label"]: option["deliveryEstimate"] for option in group["shippingOptions"]}


def delivery(api_client, moment, product, zip_code=RIO_CODE):
    found = estimates(api_client, moment, product, zip_code)["Delivery"]
    return found["shipsOn"], found["minDate"], found["maxDate"]


def test_an_option_carries_its_dates(api_client, store):
    _, products, _ = store
    found = estimates(api_client, at(2026, 3, 5, 9, 30), products["sp"])
    assert found == {
        "Delivery": {
            "shipsOn": "2026-03-05",
            "minDate": "2026-03-06",
            "maxDate": "2026-03-10",
            "cutoffAt": "2026-03-05T14:00:00-03:00",
            "businessDays": {"min": 1, "max": 3},
            "readyOn": None,
        },
        "Pickup": {
            "shipsOn": "2026-03-05",
            "minDate": "2026-03-09",
            "maxDate": "2026-03-11",
            "cutoffAt": "2026-03-05T14:00:00-03:00",
            "businessDays": {"min": 2, "max": 4},
            "readyOn": "2026-03-11",
        },
    }


def test_without_delivery_dates_the_answer_is_what_it_was(api_client, store):
    _, products, _ = store
    with time_machine.travel(at(2026, 3, 5, 9, 30), tick=False):
        plain = get_quote(api_client, [(products["sp"].pk, 1)])
        dated = get_quote(api_client, [(products["sp"].pk, 1)], deliveryDates="true")
        off = get_quote(api_client, [(products["sp"].pk, 1)], deliveryDates="false")
    assert b"deliveryEstimate" not in plain.content
    assert b"deliveryEstimate" in dated.content

    def without_ids(body: bytes, drop: bool = False):
        answer = json.loads(body)
        for group in answer["quoteGroups"]:
            group["quoteId"] = None
            for option in group["shippingOptions"]:
                if drop:
                    del option["deliveryEstimate"]
        return answer

    # the dated answer is the plain one plus `deliveryEstimate`, the plain one unchanged
    assert without_ids(dated.content, drop=True) == without_ids(plain.content)
    assert without_ids(off.content) == without_ids(plain.content)


def test_an_order_on_a_friday_after_the_cutoff_ships_on_monday(api_client, store):
    _, products, _ = store
    found = estimates(api_client, at(2026, 3, 6, 15, 0), products["sp"])["Delivery"]
    assert (found["shipsOn"], found["cutoffAt"]) == ("2026-03-09", "2026-03-09T14:00:00-03:00")
    assert (found["minDate"], found["maxDate"]) == ("2026-03-10", "2026-03-12")
    # before the cut-off it ships that Friday
    assert delivery(api_client, at(2026, 3, 13, 13, 59), products["sp"])[0] == "2026-03-13"


def test_christmas(api_client, store):
    _, products, _ = store
    # Thursday 24 December 2026 after the cut-off: 25 is Christmas, 26-27 a weekend
    assert delivery(api_client, at(2026, 12, 24, 15, 0), products["sp"]) == (
        "2026-12-28",
        "2026-12-29",
        "2026-12-31",
    )


def test_carnival_monday_and_tuesday(api_client, store):
    _, products, _ = store
    # Friday 13 February 2026 after the cut-off; Carnival on 16 and 17 February
    assert delivery(api_client, at(2026, 2, 13, 15, 0), products["sp"]) == (
        "2026-02-18",
        "2026-02-19",
        "2026-02-23",
    )


def test_tiradentes_on_a_tuesday(api_client, store):
    _, products, _ = store
    assert date(2026, 4, 21).weekday() == 1
    # shipped Monday 20 April to Curitiba: 21 April does not count
    assert delivery(api_client, at(2026, 4, 20, 9, 0), products["sp"], CURITIBA_CODE) == (
        "2026-04-20",
        "2026-04-22",
        "2026-04-24",
    )


def test_a_sao_paulo_holiday_delays_a_delivery_to_sao_paulo_not_to_rio(api_client, store):
    _, products, delivery_table = store
    delivery_table.rows.update(begin_shipping_time=1, end_shipping_time=1)
    Holiday.objects.create(
        name="Aniversário de São Paulo",
        scope=HolidayScope.CITY,
        state_code="BR-SP",
        city="Sao Paulo",
        date=date(2020, 1, 25),
    )
    # from Rio: 9 July is São Paulo state's holiday (by the holidays package), 25 January
    # the city of São Paulo's (the store's data)
    for moment, to_rio, to_sao_paulo in (
        (at(2026, 7, 8, 9, 0), "2026-07-09", "2026-07-10"),
        (at(2027, 1, 22, 9, 0), "2027-01-25", "2027-01-26"),
    ):
        assert delivery(api_client, moment, products["rj"])[1:] == (to_rio, to_rio)
        assert delivery(api_client, moment, products["rj"], SAO_PAULO_CODE)[1:] == (
            to_sao_paulo,
            to_sao_paulo,
        )


def test_a_storage_that_dispatches_on_saturdays(api_client, store):
    storages, products, delivery_table = store
    storages["sp"].dispatches_on_saturdays = True
    storages["sp"].save()
    # Friday after the cut-off: it ships on Saturday, and the carrier delivers from Monday
    assert delivery(api_client, at(2026, 3, 6, 15, 0), products["sp"]) == (
        "2026-03-07",
        "2026-03-09",
        "2026-03-11",
    )
    # a carrier that delivers on Saturdays too: shipped on a Friday, delivered on Saturday
    delivery_table.delivers_on_saturdays = True
    delivery_table.save()
    assert delivery(api_client, at(2026, 3, 13, 9, 0), products["sp"]) == (
        "2026-03-13",
        "2026-03-14",
        "2026-03-17",
    )


def test_handling_days_are_the_additional_times(api_client, store):
    storages, products, _ = store
    storages["sp"].additional_time = 1
    storages["sp"].save()
    products["sp"].additional_time = 1
    products["sp"].save()
    found = estimates(api_client, at(2026, 3, 6, 9, 0), products["sp"])["Delivery"]
    # Friday before the cut-off, two handling days: Monday, Tuesday
    assert found["shipsOn"] == "2026-03-10"
    assert found["businessDays"] == {"min": 3, "max": 5}


def test_a_stored_answer_expires_at_the_cutoff(api_client, store):
    _, products, _ = store
    with time_machine.travel(at(2026, 3, 5, 13, 58), tick=False) as clock:
        first = get_quote(api_client, [(products["sp"].pk, 1)], deliveryDates="true")
        again = get_quote(api_client, [(products["sp"].pk, 1)], deliveryDates="true")
        clock.move_to(at(2026, 3, 5, 14, 0, 1))
        after = get_quote(api_client, [(products["sp"].pk, 1)], deliveryDates="true")
    assert (first["X-Cache"], again["X-Cache"], after["X-Cache"]) == ("miss", "hit", "miss")
    ships = [r.json()["quoteGroups"][0]["shippingOptions"][0] for r in (again, after)]
    assert [option["deliveryEstimate"]["shipsOn"] for option in ships] == [
        "2026-03-05",
        "2026-03-06",
    ]


def test_a_stored_answer_expires_at_midnight(api_client, store):
    _, products, _ = store
    with time_machine.travel(at(2026, 3, 5, 23, 59), tick=False) as clock:
        first = get_quote(api_client, [(products["sp"].pk, 1)], deliveryDates="true")
        clock.move_to(at(2026, 3, 6, 0, 0, 1))
        after = get_quote(api_client, [(products["sp"].pk, 1)], deliveryDates="true")
    assert (first["X-Cache"], after["X-Cache"]) == ("miss", "miss")


def test_a_new_holiday_moves_the_dates_of_a_stored_answer(api_client, store):
    _, products, _ = store
    moment = at(2026, 3, 5, 9, 0)
    assert delivery(api_client, moment, products["sp"]) == (
        "2026-03-05",
        "2026-03-06",
        "2026-03-10",
    )
    Holiday.objects.create(
        name="Feriado municipal",
        scope=HolidayScope.CITY,
        state_code="BR-RJ",
        city="Rio de Janeiro",
        date=date(2026, 3, 6),
        yearly=False,
    )
    assert delivery(api_client, moment, products["sp"]) == (
        "2026-03-05",
        "2026-03-09",
        "2026-03-11",
    )
