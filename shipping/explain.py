"""Why a quote group got the options it got (``explain=true`` of the quote), pure: the
verdict on every shipping table considered for a group of `shipping.quote.quote()`.

For each table, in the order of the engine's data, the reasons it gave no option (empty
when it gave one, with the row chosen):

- ``table_inactive``: the table or its carrier is switched off (tables the engine never
  sees, passed in by the caller);
- ``storage_not_served``: the table ships from other storages;
- ``cargo_type_not_served``: the table does not accept every cargo type of the group;
- ``postal_code_out_of_every_row``: no row of the table covers the target postal code;
- ``weight_out_of_range`` / ``value_out_of_range``: no row covering the postal code holds
  the group's billable weight / order value;
- ``no_row_holds_weight_and_value``: rows hold each, but none holds both;
- ``carrier_unavailable``: a live table's carrier gave no option (set by shipping.live).

A group of services needs no shipping: its tables are not considered (no verdicts).

    >>> from decimal import Decimal
    >>> from shipping.quote import QuoteRow, QuoteTable
    >>> row = QuoteRow(1, 7, "01000000", "01999999", Decimal("10"), 1, 2,
    ...                final_weight=Decimal("30"))
    >>> verdicts = explain_group(
    ...     target_zipcode="01310100", storage_id=1, cargo_type_ids=(), service=False,
    ...     billable_weight=Decimal("45"), total_price=Decimal("99"),
    ...     chosen={}, tables=(QuoteTable(7),), rows=(row,))
    >>> verdicts[0].reasons
    ('weight_out_of_range',)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from .quote import QuoteRow, QuoteTable


class Rejection(StrEnum):
    TABLE_INACTIVE = "table_inactive"
    STORAGE_NOT_SERVED = "storage_not_served"
    CARGO_TYPE_NOT_SERVED = "cargo_type_not_served"
    POSTAL_CODE_OUT_OF_EVERY_ROW = "postal_code_out_of_every_row"
    WEIGHT_OUT_OF_RANGE = "weight_out_of_range"
    VALUE_OUT_OF_RANGE = "value_out_of_range"
    NO_ROW_HOLDS_WEIGHT_AND_VALUE = "no_row_holds_weight_and_value"
    # a live table (carrier integration, shipping.live): the carrier failed, was slow, over
    # its budget or offered nothing (the verdict's `detail` says which)
    CARRIER_UNAVAILABLE = "carrier_unavailable"


@dataclass(frozen=True)
class TableVerdict:
    table_id: int
    reasons: tuple[Rejection, ...]  # empty: the table gave an option
    row_id: int | None = None  # the row chosen, when it gave one
    rows_covering: int = 0  # rows of the table covering the target postal code


def _row_reasons(rows: list[QuoteRow], weight: Decimal, value: Decimal) -> tuple[Rejection, ...]:
    if not rows:
        return (Rejection.POSTAL_CODE_OUT_OF_EVERY_ROW,)
    weight_ok = any(row.initial_weight <= weight <= row.final_weight for row in rows)
    value_ok = any(row.initial_price <= value <= row.final_price for row in rows)
    reasons = []
    if not weight_ok:
        reasons.append(Rejection.WEIGHT_OUT_OF_RANGE)
    if not value_ok:
        reasons.append(Rejection.VALUE_OUT_OF_RANGE)
    return tuple(reasons) or (Rejection.NO_ROW_HOLDS_WEIGHT_AND_VALUE,)


def explain_group(
    *,
    target_zipcode: str,
    storage_id: int,
    cargo_type_ids: tuple[int, ...],
    service: bool,
    billable_weight: Decimal,
    total_price: Decimal,
    chosen: Mapping[int, int],  # table id -> row id of the group's options
    tables: Iterable[QuoteTable],  # the tables the engine saw (active)
    rows: Iterable[QuoteRow],  # the rows the engine saw
    inactive_table_ids: Iterable[int] = (),
) -> tuple[TableVerdict, ...]:
    """The verdict on every table for one group (see the module docstring)."""
    if service:
        return ()
    covering: dict[int, list[QuoteRow]] = {}
    for row in rows:
        if row.initial_zipcode <= target_zipcode <= row.final_zipcode:
            covering.setdefault(row.table_id, []).append(row)
    verdicts = []
    for table in tables:
        table_rows = covering.get(table.id, [])
        if table.id in chosen:
            reasons: tuple[Rejection, ...] = ()
        elif not table.active:
            reasons = (Rejection.TABLE_INACTIVE,)
        elif table.storage_ids and storage_id not in table.storage_ids:
            reasons = (Rejection.STORAGE_NOT_SERVED,)
        elif not table.serves(storage_id, cargo_type_ids):
            reasons = (Rejection.CARGO_TYPE_NOT_SERVED,)
        else:
            reasons = _row_reasons(table_rows, billable_weight, total_price)
        verdicts.append(TableVerdict(table.id, reasons, chosen.get(table.id), len(table_rows)))
    verdicts.extend(
        TableVerdict(table_id, (Rejection.TABLE_INACTIVE,)) for table_id in inactive_table_ids
    )
    return tuple(verdicts)
