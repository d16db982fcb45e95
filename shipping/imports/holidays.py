"""`holidays_import`: the store's own holidays from a CSV file (header row).

Columns: name, date (2027-01-25 or 25/01/2027), and optionally yearly (empty: yes),
state_code (BR-SP or SP), city (matched by name, accents and case ignored), ibge_code (kept
for reference). The scope follows the place given; a line with a stored holiday's key
(scope, state, city, date, yearly) updates its name and IBGE code.
"""

from __future__ import annotations

from datetime import date, datetime
from functools import partial
from typing import BinaryIO

from django.utils.translation import gettext

from ..calendar import YEARLY_YEAR
from ..countries import state_code_get
from ..fetch import SHIPPING_CACHE
from ..models import Holiday, HolidayScope
from ..models.holidays import FIRST_YEAR, LAST_YEAR
from .base import (
    ImportReport,
    Progress,
    RowError,
    clean_text,
    csv_with_header,
    parsed_rows,
    text_lines,
)
from .upsert import BatchUpserter, unique_fields

REQUIRED = ("name", "date")
OPTIONAL = ("yearly", "state_code", "city", "ibge_code")
ALIASES = {"statecode": "state_code", "state": "state_code", "ibgecode": "ibge_code"}
KEY_FIELDS = unique_fields(Holiday)  # scope, state_code, city, date (ISO), yearly
COLUMNS = (*KEY_FIELDS, "name", "ibge_code")  # a parsed line's values, in database form
YES, NO = {"", "1", "true", "yes", "y", "sim", "s"}, {"0", "false", "no", "n", "não", "nao"}


def _date(value: str) -> date:
    value = value.strip()
    for pattern in ("%Y-%m-%d", "%d/%m/%Y"):
        try:
            day = datetime.strptime(value, pattern).date()
        except ValueError:
            continue
        if not FIRST_YEAR <= day.year <= LAST_YEAR:
            break
        return day
    message = gettext(
        "date %(value)s is not a date from %(first)d to %(last)d (2027-01-25 or 25/01/2027)"
    )
    raise RowError(message % {"value": repr(value[:20]), "first": FIRST_YEAR, "last": LAST_YEAR})


def parse_holiday_fields(fields: list[str], positions: dict[str, int]) -> tuple:
    needed = max(positions.values()) + 1
    if len(fields) < needed:
        message = gettext("expected %(expected)d columns, found %(count)d")
        raise RowError(message % {"expected": needed, "count": len(fields)})
    value = {column: fields[index] for column, index in positions.items()}
    name = clean_text(value["name"], name="name", max_length=100)
    if not name:
        raise RowError(gettext("%(name)s is required") % {"name": "name"})
    yearly = value.get("yearly", "").strip().casefold()
    if yearly not in YES | NO:
        raise RowError(gettext("yearly %(value)s is not yes or no") % {"value": repr(yearly[:10])})
    state = clean_text(value.get("state_code", ""), name="state_code", max_length=10)
    city = " ".join(clean_text(value.get("city", ""), name="city", max_length=100).split())
    ibge_code = clean_text(value.get("ibge_code", ""), name="ibge_code", max_length=7)
    if ibge_code and not (ibge_code.isdigit() and len(ibge_code) == 7):
        raise RowError(gettext("ibge_code must have 7 digits"))
    if state:
        state = state_code_get("BRA", code=state) or ""
        if not state:
            given = repr(value["state_code"][:10])
            raise RowError(
                gettext("state_code %(value)s is not a Brazilian state") % {"value": given}
            )
    elif city:
        raise RowError(gettext("a city needs its state_code"))
    scope = HolidayScope.CITY if city else HolidayScope.STATE if state else HolidayScope.NATIONAL
    day = _date(value["date"])
    if yearly in YES:  # stored as the admin stores it: one row per day and month
        day = day.replace(year=YEARLY_YEAR)
    date_iso = day.isoformat()
    return (scope.value, state, city, date_iso, yearly in YES, name, ibge_code if city else "")


def holidays_import(
    *, stream: BinaryIO, dry_run: bool = False, progress: Progress | None = None
) -> ImportReport:
    report = ImportReport(dry_run=dry_run)

    def existing_keys(keys: list[tuple]) -> set[tuple]:
        stored = Holiday.objects.filter(date__in={key[3] for key in keys}).values_list(*KEY_FIELDS)
        found = {(s, st, c, d.isoformat(), y) for s, st, c, d, y in stored}
        return found & set(keys)

    positions, records = csv_with_header(text_lines(stream, progress), REQUIRED, OPTIONAL, ALIASES)
    rows = parsed_rows(records, report, partial(parse_holiday_fields, positions=positions))
    return BatchUpserter(
        model=Holiday,
        columns=COLUMNS,
        update_fields=["name", "ibge_code"],
        existing_keys=existing_keys,
        report=report,
        bump=SHIPPING_CACHE,  # retires kept calendars and cached quotes
    ).add_all(rows)
