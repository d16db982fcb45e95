"""The business calendar of the delivery promise (issue 22), pure: no database, no clock.

A place's holidays: Brazil's national and state ones from the `holidays` package (plus
Carnival and Corpus Christi, on which carriers and warehouses close) and the store's own
(`HolidayRule`s). Storages dispatch and carriers deliver on open days; `estimate` gives a
shipping option's dates.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

import holidays

ONE_DAY = timedelta(days=1)
# The package's optional holidays that close carriers and warehouses (by their pt-BR name);
# Ash Wednesday (half a day), Public Servant's Day and the 24th and 31st of December do not.
CLOSING_OPTIONAL_HOLIDAYS = frozenset({"Carnaval", "Corpus Christi"})
# No run of closed days is this long: past it, counting gives up (bad data, not a hang).
MAX_CLOSED_RUN = 366


def city_key(name: str) -> str:
    """A city name as rules and places compare it: no accents, case or extra spaces."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return " ".join(plain.casefold().split())


@dataclass(frozen=True)
class Place:
    """Where a storage is or a delivery goes."""

    country: str = "BRA"  # ISO 3166-1 alpha-3
    state: str = ""  # ISO 3166-2 ("BR-SP"); "" unknown
    city: str = ""  # city_key(name); "" unknown


@dataclass(frozen=True)
class HolidayRule:
    """One of the store's own holidays."""

    day: date  # with `yearly`, only its month and day count
    yearly: bool = False
    state: str = ""  # "": national (everywhere); else ISO 3166-2 ("BR-SP")
    city: str = ""  # city_key(name) within `state`; "": the whole state


@functools.lru_cache(maxsize=1024)
def package_holidays(year: int, state: str) -> frozenset[date]:
    """Brazil's national holidays of `year`, and those of a state ("BR-SP") if known."""
    subdiv = state.upper().removeprefix("BR-")
    public = holidays.Brazil(
        years=year, subdiv=subdiv if subdiv in holidays.Brazil.subdivisions else None
    )
    optional = holidays.Brazil(years=year, categories=(holidays.OPTIONAL,), language="pt_BR")
    return frozenset(public) | frozenset(
        day for day in optional if CLOSING_OPTIONAL_HOLIDAYS.intersection(optional.get_list(day))
    )


# The year a yearly holiday is stored with (a leap year: 29 February fits); only its day and
# month count.
YEARLY_YEAR = 2000


@dataclass(frozen=True)
class AppliedHoliday:
    """A holiday the quotes skip, for staff to see (HolidayAdmin's "applied" page)."""

    day: date
    name: str
    source: (
        str  # "package-national", "package-state", "store-national", "store-state", "store-city"
    )
    city: str = ""


def package_holidays_named(year: int, state: str) -> list[AppliedHoliday]:
    """The holidays of `package_holidays`, named (in Portuguese) and marked national or state."""
    subdiv = state.upper().removeprefix("BR-")
    known = subdiv if subdiv in holidays.Brazil.subdivisions else None
    national = holidays.Brazil(years=year, language="pt_BR")
    with_state = holidays.Brazil(years=year, subdiv=known, language="pt_BR")
    optional = holidays.Brazil(years=year, categories=(holidays.OPTIONAL,), language="pt_BR")
    found = []
    for day in sorted(package_holidays(year, state)):
        if day in national or day not in with_state:
            source = "package-national"
            name = "; ".join(national.get_list(day) or optional.get_list(day))
        else:
            source = "package-state"
            name = "; ".join(with_state.get_list(day))
        found.append(AppliedHoliday(day, name, source))
    return found


class Calendar:
    """Holidays by place (read-only once built: one instance serves a whole process)."""

    def __init__(self, rules: Iterable[HolidayRule] = ()) -> None:
        self._yearly: dict[tuple[str, str], set[tuple[int, int]]] = {}
        self._single: dict[tuple[str, str], set[date]] = {}
        for rule in rules:
            where = (rule.state, rule.city if rule.state else "")
            if rule.yearly:
                self._yearly.setdefault(where, set()).add((rule.day.month, rule.day.day))
            else:
                self._single.setdefault(where, set()).add(rule.day)

    def is_holiday(self, day: date, place: Place) -> bool:
        if place.country == "BRA" and day in package_holidays(day.year, place.state):
            return True
        month_day = (day.month, day.day)
        for where in {("", ""), (place.state, ""), (place.state, place.city)}:
            if month_day in self._yearly.get(where, ()) or day in self._single.get(where, ()):
                return True
        return False

    def is_open(self, day: date, place: Place, *, saturdays: bool) -> bool:
        """A weekday (or a Saturday with `saturdays`) that is not a holiday at `place`."""
        weekday = day.weekday()
        return (weekday < 5 or (weekday == 5 and saturdays)) and not self.is_holiday(day, place)


def days_after(start: date, count: int, is_open: Callable[[date], bool]) -> date:
    """The `count`-th open day after `start`; with 0, the first open day from `start` on.
    ValueError past MAX_CLOSED_RUN closed days in a row."""
    day, remaining, closed = (start - ONE_DAY, 1, 0) if count == 0 else (start, count, 0)
    while remaining:
        day += ONE_DAY
        if is_open(day):
            remaining, closed = remaining - 1, 0
        else:
            closed += 1
            if closed > MAX_CLOSED_RUN:
                raise ValueError(f"no open day within {MAX_CLOSED_RUN} days of {start}")
    return day


@dataclass(frozen=True)
class Origin:
    """A storage as dispatch sees it."""

    place: Place
    cutoff: time | None  # local time orders must come before to leave that day; None: midnight
    saturdays: bool = False  # dispatches on Saturdays


@dataclass(frozen=True)
class Estimate:
    ships_on: date
    min_date: date
    max_date: date
    cutoff_at: datetime  # order before this moment to keep these dates
    business_days: tuple[int, int]  # handling plus the carrier's days: (min, max)


def estimate(
    calendar: Calendar,
    *,
    now: datetime,
    origin: Origin,
    destination: Place,
    delivers_on_saturdays: bool,
    handling_days: int,
    begin_days: int,
    end_days: int,
) -> Estimate:
    """A shipping option's dates for an order placed at `now` (aware, store time zone): it
    ships `handling_days` dispatch days after the first dispatch day (today if before the
    cut-off) and arrives `begin_days` to `end_days` delivery days later."""

    def dispatches(day: date) -> bool:
        return calendar.is_open(day, origin.place, saturdays=origin.saturdays)

    def delivers(day: date) -> bool:
        return calendar.is_open(day, destination, saturdays=delivers_on_saturdays)

    today = now.date()
    in_time = origin.cutoff is None or now.time() < origin.cutoff
    first = today if in_time and dispatches(today) else days_after(today, 1, dispatches)
    if origin.cutoff is None:
        cutoff_at = datetime.combine(first + ONE_DAY, time(0), tzinfo=now.tzinfo)
    else:
        cutoff_at = datetime.combine(first, origin.cutoff, tzinfo=now.tzinfo)
    ships_on = days_after(first, handling_days, dispatches)
    return Estimate(
        ships_on=ships_on,
        min_date=days_after(ships_on, begin_days, delivers),
        max_date=days_after(ships_on, end_days, delivers),
        cutoff_at=cutoff_at,
        business_days=(handling_days + begin_days, handling_days + end_days),
    )


def dates_valid_until(now: datetime, cutoffs: Iterable[datetime]) -> datetime:
    """When dates computed at `now` may change by themselves: the next cut-off or midnight."""
    midnight = datetime.combine(now.date() + ONE_DAY, time(0), tzinfo=now.tzinfo)
    return min([midnight, *(moment for moment in cutoffs if moment > now)])
