"""The business calendar (shipping.calendar): golden cases of issue 22 and its properties."""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shipping.calendar import (
    Calendar,
    HolidayRule,
    Origin,
    Place,
    city_key,
    dates_valid_until,
    days_after,
    estimate,
    package_holidays,
)

TZ = ZoneInfo("America/Sao_Paulo")
SAO_PAULO = Place("BRA", "BR-SP", city_key("São Paulo"))
RIO = Place("BRA", "BR-RJ", city_key("Rio de Janeiro"))
CURITIBA = Place("BRA", "BR-PR", city_key("Curitiba"))
# The store's own rule the demo seeds: the city of São Paulo's anniversary.
CALENDAR = Calendar([HolidayRule(date(2000, 1, 25), yearly=True, state="BR-SP", city="sao paulo")])
STORAGE = Origin(place=SAO_PAULO, cutoff=time(14))


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=TZ)


def dates(now: datetime, *, origin=STORAGE, to=RIO, begin=1, end=3, handling=0, saturdays=False):
    found = estimate(
        CALENDAR,
        now=now,
        origin=origin,
        destination=to,
        delivers_on_saturdays=saturdays,
        handling_days=handling,
        begin_days=begin,
        end_days=end,
    )
    return found.ships_on, found.min_date, found.max_date


def test_national_holidays_include_carnival_corpus_christi_and_black_awareness():
    found = package_holidays(2026, "")
    for day in (
        date(2026, 1, 1),
        date(2026, 2, 16),  # Carnival Monday
        date(2026, 2, 17),  # Carnival Tuesday
        date(2026, 4, 3),  # Good Friday
        date(2026, 4, 21),  # Tiradentes
        date(2026, 6, 4),  # Corpus Christi
        date(2026, 11, 20),  # since 2024
        date(2026, 12, 25),
    ):
        assert day in found, day
    assert date(2026, 2, 18) not in found  # Ash Wednesday: half a day, carriers work
    assert date(2026, 12, 24) not in found
    assert date(2023, 11, 20) not in package_holidays(2023, "")
    assert date(2026, 7, 9) in package_holidays(2026, "BR-SP")  # the state's, by the package
    assert date(2026, 7, 9) not in package_holidays(2026, "BR-RJ")


def test_friday_after_the_cutoff_ships_monday():
    assert dates(at(2026, 3, 6, 15, 0))[0] == date(2026, 3, 9)
    assert dates(at(2026, 3, 6, 13, 59))[0] == date(2026, 3, 6)  # before it: the same day


def test_christmas():
    # Thursday 24 December after the cut-off: 25 is a holiday, 26-27 a weekend
    assert dates(at(2026, 12, 24, 15, 0)) == (
        date(2026, 12, 28),
        date(2026, 12, 29),
        date(2026, 12, 31),
    )
    # shipped on the 24th: the 25th and the weekend do not count
    assert dates(at(2026, 12, 24, 9, 0)) == (
        date(2026, 12, 24),
        date(2026, 12, 28),
        date(2026, 12, 30),
    )


def test_carnival_monday_and_tuesday():
    # Friday 13 February 2026 after the cut-off: Monday 16 and Tuesday 17 are Carnival
    assert dates(at(2026, 2, 13, 15, 0)) == (
        date(2026, 2, 18),
        date(2026, 2, 19),
        date(2026, 2, 23),
    )


def test_tiradentes_on_a_tuesday():
    assert date(2026, 4, 21).weekday() == 1
    # shipped Monday 20 April to Curitiba: delivery days are the 22nd, 23rd and 24th
    assert dates(at(2026, 4, 20, 9, 0), to=CURITIBA) == (
        date(2026, 4, 20),
        date(2026, 4, 22),
        date(2026, 4, 24),
    )
    # Rio de Janeiro also closes on the 23rd (Saint George, the state's holiday)
    assert dates(at(2026, 4, 20, 9, 0))[2] == date(2026, 4, 27)


def test_a_sao_paulo_holiday_delays_sao_paulo_only():
    rio_storage = Origin(place=RIO, cutoff=time(14))
    # 9 July (state) and 25 January (city, the store's rule) are working days in Rio
    for shipped in (at(2026, 7, 8, 9, 0), at(2027, 1, 22, 9, 0)):
        to_sao_paulo = dates(shipped, origin=rio_storage, to=SAO_PAULO, begin=1, end=1)
        to_rio = dates(shipped, origin=rio_storage, to=RIO, begin=1, end=1)
        assert to_sao_paulo[1] == to_rio[1] + timedelta(days=1)
    # Campinas is in the state, not the city: 25 January is a working day there
    campinas = Place("BRA", "BR-SP", city_key("Campinas"))
    assert dates(at(2027, 1, 22, 9, 0), origin=rio_storage, to=campinas, begin=1, end=1)[1] == (
        date(2027, 1, 25)
    )


def test_a_storage_that_dispatches_on_saturdays():
    saturdays = Origin(place=SAO_PAULO, cutoff=time(14), saturdays=True)
    assert dates(at(2026, 3, 6, 15, 0), origin=saturdays)[0] == date(2026, 3, 7)
    assert dates(at(2026, 3, 7, 15, 0), origin=saturdays)[0] == date(2026, 3, 9)  # never Sundays
    # a carrier that delivers on Saturdays delivers the day after a Friday shipment
    assert dates(at(2026, 3, 6, 9, 0), saturdays=True)[1] == date(2026, 3, 7)
    assert dates(at(2026, 3, 6, 9, 0))[1] == date(2026, 3, 9)


def test_handling_days_count_in_dispatch_days():
    # Friday before the cut-off, 2 handling days: Monday then Tuesday (the weekend skipped)
    assert dates(at(2026, 3, 6, 9, 0), handling=2)[0] == date(2026, 3, 10)


def test_cutoff_at_and_validity():
    found = estimate(
        CALENDAR,
        now=at(2026, 3, 6, 15, 0),
        origin=STORAGE,
        destination=RIO,
        delivers_on_saturdays=False,
        handling_days=0,
        begin_days=1,
        end_days=2,
    )
    assert found.cutoff_at == at(2026, 3, 9, 14, 0)
    assert found.business_days == (1, 2)
    assert dates_valid_until(at(2026, 3, 6, 15, 0), [found.cutoff_at]) == at(2026, 3, 7, 0, 0)
    assert dates_valid_until(at(2026, 3, 9, 9, 0), [at(2026, 3, 9, 14, 0)]) == at(2026, 3, 9, 14)
    no_cutoff = Origin(place=SAO_PAULO, cutoff=None)
    assert dates(at(2026, 3, 6, 23, 59), origin=no_cutoff)[0] == date(2026, 3, 6)


def test_single_date_and_national_rules():
    calendar = Calendar(
        [HolidayRule(date(2026, 3, 10)), HolidayRule(date(2026, 3, 11), state="BR-RJ")]
    )
    assert calendar.is_holiday(date(2026, 3, 10), SAO_PAULO)
    assert not calendar.is_holiday(date(2027, 3, 10), SAO_PAULO)  # one date, not yearly
    assert calendar.is_holiday(date(2026, 3, 11), RIO)
    assert not calendar.is_holiday(date(2026, 3, 11), SAO_PAULO)


def test_counting_gives_up_on_a_calendar_with_no_open_day():
    with pytest.raises(ValueError):
        days_after(date(2026, 1, 1), 1, lambda day: False)


STATES = ["", "BR-SP", "BR-RJ", "BR-BA", "BR-MG", "BR-RS", "BR-PE", "BR-AM", "BR-DF", "BR-XX"]
moments = st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2031, 12, 31)).map(
    lambda moment: moment.replace(tzinfo=TZ)
)


@settings(max_examples=10_000, deadline=None)
@given(
    now=moments,
    handling=st.integers(0, 15),
    begin=st.integers(0, 20),
    span=st.integers(0, 20),
    state=st.sampled_from(STATES),
    city=st.sampled_from(["", "sao paulo", "campinas"]),
    origin_state=st.sampled_from(STATES),
    cutoff=st.one_of(st.none(), st.times()),
    dispatch_saturdays=st.booleans(),
    delivery_saturdays=st.booleans(),
)
def test_dates_fall_on_open_days_in_order(
    now, handling, begin, span, state, city, origin_state, cutoff, dispatch_saturdays,
    delivery_saturdays,
):  # fmt: skip
    origin = Origin(Place("BRA", origin_state), cutoff, dispatch_saturdays)
    destination = Place("BRA", state, city)
    found = estimate(
        CALENDAR,
        now=now,
        origin=origin,
        destination=destination,
        delivers_on_saturdays=delivery_saturdays,
        handling_days=handling,
        begin_days=begin,
        end_days=begin + span,
    )
    assert now.date() <= found.ships_on <= found.min_date <= found.max_date
    assert CALENDAR.is_open(found.ships_on, origin.place, saturdays=dispatch_saturdays)
    for day in (found.min_date, found.max_date):
        assert CALENDAR.is_open(day, destination, saturdays=delivery_saturdays)
        assert day.weekday() != 6
    assert found.cutoff_at > now
    assert found.business_days == (handling + begin, handling + begin + span)
