"""Postal codes (pure): normalization (how they are stored and compared) and display, per
country (ISO 3166-1 alpha-3). Brazil: 8 digits, shown ``01310-100``; United States: 5
digits (ZIP+4 kept as its 5); others: upper case without spaces or hyphens.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext

MAX_INPUT_LENGTH = 20
MAX_CODE_LENGTH = 10  # longest normalized code (stored field length)

_SEPARATORS = re.compile(r"[\s\-.]+")
_DIGITS = re.compile(r"[0-9]+")
_ALNUM = re.compile(r"[A-Z0-9]+")


class InvalidPostalCode(ValueError):
    """The text is not a postal code of the country; the message says why."""


def normalize_postal_code(country: str, raw: str) -> str:
    """The stored form of `raw` for `country`; InvalidPostalCode when it cannot be one."""
    if not isinstance(raw, str):
        raise InvalidPostalCode(gettext("The postal code must be a string."))
    if len(raw) > MAX_INPUT_LENGTH:
        raise InvalidPostalCode(
            gettext("The postal code is longer than %(max)d characters.")
            % {"max": MAX_INPUT_LENGTH}
        )
    code = _SEPARATORS.sub("", raw).upper()
    if not code:
        raise InvalidPostalCode(gettext("The postal code is empty."))
    if country == "BRA":
        if len(code) == 8 and _DIGITS.fullmatch(code):
            return code
        raise InvalidPostalCode(gettext("A Brazilian postal code has 8 digits, e.g. 01310-100."))
    if country == "USA":
        if len(code) in (5, 9) and _DIGITS.fullmatch(code):
            return code[:5]
        raise InvalidPostalCode(gettext("A US ZIP code has 5 digits (or ZIP+4, e.g. 90210-1234)."))
    if len(code) > MAX_CODE_LENGTH or not _ALNUM.fullmatch(code):
        raise InvalidPostalCode(
            gettext(
                "A postal code has at most %(max)d letters and digits "
                "(spaces and hyphens are ignored)."
            )
            % {"max": MAX_CODE_LENGTH}
        )
    return code


def format_postal_code(country: str, code: str) -> str:
    """How a stored code is shown: ``01310-100`` in Brazil, as stored elsewhere."""
    if country == "BRA" and len(code) == 8:
        return f"{code[:5]}-{code[5:]}"
    return code


def try_normalize_postal_code(country: str, raw: str) -> str | None:
    try:
        return normalize_postal_code(country, raw)
    except InvalidPostalCode:
        return None
