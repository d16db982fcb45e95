"""`import_shipping_rows`: the rows of one shipping table from a CSV file (header row).

Columns: models.ROW_COLUMNS (also as camelCase or begin_days/end_days), then optionally the
row's variables (VARIABLE_COLUMNS; without them an updated row keeps its variables). Empty
initial weight/price mean 0, empty final ones "no limit"; decimal commas are accepted. A
line with an existing row's ranges updates its value and days, any other adds a row. With
`replace`, the table's rows missing from the file are then deleted, unless a line was
rejected (a bad file never empties a table).
"""

from __future__ import annotations

from decimal import Decimal
from typing import BinaryIO

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from ..fetch import SHIPPING_CACHE
from ..models import MAX_ORDER_VALUE, MAX_WEIGHT, ROW_COLUMNS, ShippingRow, ShippingTable
from ..postal import InvalidPostalCode, normalize_postal_code
from .base import (
    ImportReport,
    Progress,
    RowError,
    csv_with_header,
    parse_decimal,
    parse_int,
    parsed_rows,
    text_lines,
)
from .upsert import DEFAULT_BATCH_SIZE, BatchUpserter, chunked, query_params_limit, unique_fields

# Optional columns (the row's variables): name -> (decimal places, maximum).
VARIABLE_COLUMNS = {
    "extra_kg_value": (2, MAX_ORDER_VALUE),
    "extra_kg_threshold": (3, MAX_WEIGHT),
    "order_value_percentage": (2, Decimal("100")),
    "fixed_fee": (2, MAX_ORDER_VALUE),
}
ALIASES = {
    **{column.replace("_", ""): column for column in ROW_COLUMNS},  # camelCase, lowered
    "initial_zip_code": "initial_zipcode",
    "final_zip_code": "final_zipcode",
    "begin_days": "begin_shipping_time",
    "end_days": "end_shipping_time",
}


# A parsed line's values, in database form: the table's id, then the file's columns (a
# variable 0 when the file has no such column, and then an update leaves it be).
COLUMNS = ("table", *ROW_COLUMNS, *VARIABLE_COLUMNS)
KEY_FIELDS = unique_fields(ShippingRow)  # the table and the three ranges
UPDATE_FIELDS = ["shipping_value", "begin_shipping_time", "end_shipping_time"]
MAX_DAYS = 32767
NO_VARIABLE = Decimal(0)


def _amount(
    value: dict[str, str], name: str, places: int, maximum: Decimal, default: Decimal | None = None
) -> Decimal:
    """A number from 0 to `maximum`: `default` when empty (or absent); required without one."""
    return parse_decimal(
        value.get(name, ""),
        name=name,
        places=places,
        minimum=Decimal(0),
        maximum=maximum,
        default=default,
    )


def _range(
    value: dict[str, str], low: str, high: str, places: int, maximum: Decimal
) -> tuple[Decimal, Decimal]:
    """Empty `low` is 0, empty `high` is `maximum` (no limit)."""
    zero = Decimal(0).quantize(Decimal(1).scaleb(-places))
    return _amount(value, low, places, maximum, zero), _amount(
        value, high, places, maximum, maximum
    )


def parse_row_fields(fields: list[str], positions: dict[str, int], table: ShippingTable) -> tuple:
    needed = max(positions.values()) + 1
    if len(fields) < needed:
        raise RowError(
            gettext("expected %(expected)d columns, found %(count)d")
            % {"expected": needed, "count": len(fields)}
        )
    value = {column: fields[index] for column, index in positions.items()}
    zipcodes = []
    for column in ("initial_zipcode", "final_zipcode"):
        raw = value[column]
        try:
            zipcodes.append(normalize_postal_code(table.country, raw))
        except InvalidPostalCode as exc:
            raise RowError(
                gettext("%(column)s %(code)s: %(reason)s")
                % {"column": column, "code": repr(raw.strip()[:20]), "reason": exc}
            ) from None
    weights = _range(value, "initial_weight", "final_weight", 3, MAX_WEIGHT)
    prices = _range(value, "initial_price", "final_price", 2, MAX_ORDER_VALUE)
    shipping_value = _amount(value, "shipping_value", 2, MAX_ORDER_VALUE)
    days = tuple(
        parse_int(value[column], name=column, minimum=0, maximum=MAX_DAYS)
        for column in ("begin_shipping_time", "end_shipping_time")
    )
    for reversed_range, message in (
        (zipcodes[0] > zipcodes[1], gettext("the final postal code is below the initial one")),
        (weights[0] > weights[1], gettext("the final weight is below the initial one")),
        (prices[0] > prices[1], gettext("the final order value is below the initial one")),
        (days[0] > days[1], gettext("the final shipping time is below the initial one")),
    ):
        if reversed_range:
            raise RowError(message)
    variables = {
        column: _amount(value, column, places, maximum, NO_VARIABLE)
        for column, (places, maximum) in VARIABLE_COLUMNS.items()
    }
    return (table.pk, *zipcodes, *weights, *prices, shipping_value, *days, *variables.values())


def shipping_rows_import(
    *,
    table: ShippingTable,
    stream: BinaryIO,
    replace: bool = False,
    dry_run: bool = False,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Progress | None = None,
) -> ImportReport:
    report = ImportReport(dry_run=dry_run)
    started = timezone.now()

    def existing_keys(keys: list[tuple]) -> set[tuple]:
        # Through the ORM: its converters give back the key's Decimals (SQLite stores reals).
        found: set[tuple] = set()
        zipcodes = sorted({key[1] for key in keys})
        for chunk in chunked(zipcodes, query_params_limit() - 1):
            found.update(table.rows.filter(initial_zipcode__in=chunk).values_list(*KEY_FIELDS))
        return found & set(keys)

    positions, records = csv_with_header(
        text_lines(stream, progress), ROW_COLUMNS, VARIABLE_COLUMNS, ALIASES
    )
    BatchUpserter(
        model=ShippingRow,
        columns=COLUMNS,
        update_fields=[*UPDATE_FIELDS, *(c for c in VARIABLE_COLUMNS if c in positions)],
        existing_keys=existing_keys,
        report=report,
        batch_size=batch_size,
        bump=SHIPPING_CACHE,  # retires cached quotes
    ).add_all(parsed_rows(records, report, lambda f: parse_row_fields(f, positions, table)))
    if report.interrupted:
        return report

    if replace:
        stale = table.rows.filter(updated_at__lt=started)
        if report.rejected:
            report.notes.append(
                ngettext(
                    "Rows missing from the file were kept: %(count)d line was rejected.",
                    "Rows missing from the file were kept: %(count)d lines were rejected.",
                    report.rejected,
                )
                % {"count": report.rejected}
            )
        elif dry_run:
            report.notes.append(gettext("Rows missing from the file would be deleted (dry run)."))
        else:
            with transaction.atomic():
                deleted, _ = stale.delete()
            report.notes.append(
                ngettext(
                    "%(count)d row missing from the file was deleted.",
                    "%(count)d rows missing from the file were deleted.",
                    deleted,
                )
                % {"count": deleted}
            )
    return report
