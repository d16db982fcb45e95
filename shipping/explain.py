"""Why a quote group got the options it got (``explain=true``), pure: the verdict on every
shipping table considered for a group of `shipping.quote.quote()`, in the order of the
engine's data; its reasons are empty when the table gave an option. A group of services
needs no shipping: no verdicts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from .quote import QuoteGroup, QuoteRow, QuoteTable


class Rejection(StrEnum):
    TABLE_INACTIVE = "table_inactive"
    STORAGE_NOT_SERVED = "storage_not_served"
    CARGO_TYPE_NOT_SERVED = "cargo_type_not_served"
    POSTAL_CODE_OUT_OF_EVERY_ROW = "postal_code_out_of_every_row"
    WEIGHT_OUT_OF_RANGE = "weight_out_of_range"
    VALUE_OUT_OF_RANGE = "value_out_of_range"
    NO_ROW_HOLDS_WEIGHT_AND_VALUE = "no_row_holds_weight_and_value"
    # set by shipping.live: the carrier failed, was slow, over its budget or offered nothing
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
    reasons = []
    if not any(row.initial_weight <= weight <= row.final_weight for row in rows):
        reasons.append(Rejection.WEIGHT_OUT_OF_RANGE)
    if not any(row.initial_price <= value <= row.final_price for row in rows):
        reasons.append(Rejection.VALUE_OUT_OF_RANGE)
    return tuple(reasons) or (Rejection.NO_ROW_HOLDS_WEIGHT_AND_VALUE,)


def explain_group(
    group: QuoteGroup,
    target_zipcode: str,
    tables: Iterable[QuoteTable],  # the tables the engine saw, then the switched-off ones
    rows: Iterable[QuoteRow],  # the rows the engine saw
) -> tuple[TableVerdict, ...]:
    if group.service:
        return ()
    chosen = {option.table_id: option.row.id for option in group.options}
    storage_id = group.storage_id
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
        elif not table.serves(storage_id, group.cargo_type_ids):
            reasons = (Rejection.CARGO_TYPE_NOT_SERVED,)
        else:
            reasons = _row_reasons(table_rows, group.billable_weight, group.total_price)
        verdicts.append(TableVerdict(table.id, reasons, chosen.get(table.id), len(table_rows)))
    return tuple(verdicts)
