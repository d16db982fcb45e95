"""Numbers as staff read and type them, in the active language: `1.234,56` in pt-BR,
`1,234.56` in English (Django's locale formats). Money is `R$ 1.234,56`.

Parsing is strict, so a number is never read 100 times too large (docs/decisions.md, issue
20): digits 0-9 only, the thousands separator only between groups of three digits, and the
decimals after the language's decimal separator. A number written with the other language's
decimal separator (`99.9` or `99.90` in pt-BR) is refused with its own message, because
`1.234` in pt-BR is one thousand two hundred thirty-four.
"""

import re
from collections.abc import Callable
from decimal import Decimal

from django.utils.formats import get_format, number_format
from django.utils.translation import gettext

CURRENCY_SYMBOL = "R$"  # the store sells in reais (BRL)


class NotANumber(ValueError):
    """The text is no number of the active language; `meant` is the number it writes with the
    other language's decimal separator, if any (99.90 for `99.90` in pt-BR)."""

    def __init__(self, meant: Decimal | None = None) -> None:
        super().__init__()
        self.meant = meant


def separators() -> tuple[str, str]:
    """(decimal separator, thousands separator) of the active language."""
    return get_format("DECIMAL_SEPARATOR"), get_format("THOUSAND_SEPARATOR")


def _parse(text: str, decimal: str, thousands: str) -> tuple[Decimal, bool] | None:
    """(the number, whether it has decimals), or None when `text` is no such number."""
    grouped = rf"[1-9][0-9]{{0,2}}(?:{re.escape(thousands)}[0-9]{{3}})+"
    pattern = rf"(?P<whole>[0-9]+|{grouped})(?:{re.escape(decimal)}(?P<fraction>[0-9]+))?"
    match = re.fullmatch(pattern, text)
    if match is None:
        return None
    whole, fraction = match["whole"].replace(thousands, ""), match["fraction"]
    return Decimal(f"{whole}.{fraction}" if fraction else whole), bool(fraction)


def parse_decimal(text: str) -> Decimal:
    """The number `text` writes in the active language (an `R$` before it is allowed); raises
    NotANumber. Precision and range are the form field's validators' business."""
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
    """`R$ 1.234,56` in pt-BR, `R$ 1,234.56` in English: every amount staff read."""
    return f"{CURRENCY_SYMBOL} {number_text(value, 2)}"


def weight_text(value: Decimal) -> str:
    """Kilograms to the gram (weight_field): `1,500` in pt-BR; the unit is the caller's."""
    return number_text(value, 3)


def percent_text(value: Decimal) -> str:
    """`1,99%` in pt-BR, `5%` (no trailing zeros), `1.99%` in English."""
    exponent = value.normalize().as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return f"{number_text(value, places)}%"


def range_text(
    low: Decimal, high: Decimal, show: Callable[[Decimal], str], unlimited: Decimal
) -> str:
    """ "0,000 to 1,000", or "from 30,000, no limit" when `high` is the no-limit value;
    `show` writes one number (number_text, money_text)."""
    if high >= unlimited:
        return gettext("from %(low)s, no limit") % {"low": show(low)}
    return gettext("%(start)s to %(end)s") % {"start": show(low), "end": show(high)}
