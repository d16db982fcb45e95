"""Numbers as staff read and type them in the active language (`1.234,56` in pt-BR).

Parsing is strict, so a number is never read 100 times too large (docs/decisions.md, issue
20): the thousands separator only between groups of three, and `99.90` in pt-BR is refused
with its own message (`1.234` is one thousand two hundred thirty-four there).
"""

import re
from collections.abc import Callable
from decimal import Decimal

from django.utils.formats import get_format, number_format
from django.utils.translation import gettext

CURRENCY_SYMBOL = "R$"  # the store sells in reais (BRL)


class NotANumber(ValueError):
    """No number of the active language; `meant`: what it writes with the other separator."""

    def __init__(self, meant: Decimal | None = None) -> None:
        super().__init__()
        self.meant = meant


def separators() -> tuple[str, str]:
    return get_format("DECIMAL_SEPARATOR"), get_format("THOUSAND_SEPARATOR")


def _parse(text: str, decimal: str, thousands: str) -> tuple[Decimal, bool] | None:
    grouped = rf"[1-9][0-9]{{0,2}}(?:{re.escape(thousands)}[0-9]{{3}})+"
    pattern = rf"(?P<whole>[0-9]+|{grouped})(?:{re.escape(decimal)}(?P<fraction>[0-9]+))?"
    match = re.fullmatch(pattern, text)
    if match is None:
        return None
    whole, fraction = match["whole"].replace(thousands, ""), match["fraction"]
    return Decimal(f"{whole}.{fraction}" if fraction else whole), bool(fraction)


def parse_decimal(text: str) -> Decimal:
    """The number `text` writes (an `R$` before it allowed), else NotANumber."""
    decimal, thousands = separators()
    text = text.strip().removeprefix(CURRENCY_SYMBOL).strip()
    if parsed := _parse(text, decimal, thousands):
        return parsed[0]
    other = _parse(text, thousands, decimal)
    raise NotANumber(other[0] if other and other[1] else None)


def number_text(value: Decimal, decimal_places: int) -> str:
    """`1.234,50` in pt-BR, `1,234.50` in English."""
    return number_format(value, decimal_places, use_l10n=True, force_grouping=True)


def money_text(value: Decimal) -> str:
    return f"{CURRENCY_SYMBOL} {number_text(value, 2)}"


def weight_text(value: Decimal) -> str:
    return number_text(value, 3)


def percent_text(value: Decimal) -> str:
    """`1,99%` in pt-BR, `5%` (no trailing zeros), `1.99%` in English."""
    exponent = value.normalize().as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return f"{number_text(value, places)}%"


def range_text(
    low: Decimal, high: Decimal, show: Callable[[Decimal], str], unlimited: Decimal
) -> str:
    """ "0,000 to 1,000", or "from 30,000, no limit" when `high` reaches `unlimited`."""
    if high >= unlimited:
        return gettext("from %(low)s, no limit") % {"low": show(low)}
    return gettext("%(start)s to %(end)s") % {"start": show(low), "end": show(high)}
