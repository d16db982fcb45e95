"""What a shipping quote gives the answer (shipping.quoting): the engine's groups and options
joined with the records they refer to, the explanation's verdicts, the dates."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime

from . import quote
from .calendar import Estimate
from .carrier_client import Service
from .explain import TableVerdict
from .fetch import ProductInfo, StorageInfo, TableInfo
from .models import ShippingTable

# The dates of an option ordered now: `calendar.estimate` with the calendar, the moment and
# the destination bound; the caller gives the origin, the table's Saturdays and the days.
Dates = functools.partial[Estimate]


@dataclass(frozen=True)
class QuotedItem:
    item: quote.GroupItem
    info: ProductInfo


@dataclass(frozen=True)
class QuotedOption:
    option: quote.ShippingOption
    table: TableInfo
    selected_pickup_id: int | None = None  # the table's pickup point nearest the target
    estimate: Estimate | None = None  # with deliveryDates=true: the option's dates
    live: Service | None = None  # a live table's carrier service (`option.row` is a stand-in)


@dataclass(frozen=True)
class ExplainedTable:
    table: ShippingTable  # with its carrier
    verdict: TableVerdict
    detail: str = ""  # why a live table gave no option (carrier_unavailable)


@dataclass(frozen=True)
class QuotedGroup:
    group: quote.QuoteGroup
    storage: StorageInfo
    items: tuple[QuotedItem, ...]
    options: tuple[QuotedOption, ...]
    trade_policy_id: int
    target_code: str  # as shown (01310-100)
    # With explain=true: the verdict on every table considered (shipping.explain).
    explanation: tuple[ExplainedTable, ...] | None = None


@dataclass(frozen=True)
class QuoteOutcome:
    """The engine's result joined with the records it refers to, for the answer."""

    groups: tuple[QuotedGroup, ...]
    error_items: tuple[quote.ErrorItem, ...]
    product_ids: tuple[int, ...]  # the products found (their summaries go in the answer)
    # The next price-rule start or end: the quote may change by itself then.
    valid_until: datetime | None
    explained: bool = False  # explain=true: groups carry `explanation`
