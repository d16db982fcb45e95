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


# Accent folding of the address search (the generated column `PostalCode.search` and the words
# searched): each accented letter of FOLD_FROM becomes the plain lower-case letter at the same
# place in FOLD_TO; the database lower-cases the rest (ASCII).
FOLD_FROM = "áàâãäåéèêëíìîïóòôõöúùûüçñýÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝ"
FOLD_TO = "aaaaaaeeeeiiiiooooouuuucny" * 2
_FOLD = str.maketrans(FOLD_FROM, FOLD_TO)
_CODE_LIKE = re.compile(r"[0-9][0-9\-.]*[0-9]")
MAX_SEARCH_WORDS = 8


def fold(text: str | None) -> str | None:
    """`text` with the accents of FOLD_FROM folded, in lower case (SQLite's `shipping_fold`)."""
    return None if text is None else text.translate(_FOLD).lower()


def search_words(term: str) -> list[str]:
    """The words of an address search as the search column holds them: accents folded, lower
    case; a code typed with its hyphen or dots ("01310-100") becomes its digits. At most
    MAX_SEARCH_WORDS words (each one is a condition of the query)."""
    words = []
    for word in term.translate(_FOLD).lower().split():
        if _CODE_LIKE.fullmatch(word):
            word = _SEPARATORS.sub("", word)
        if word not in words:
            words.append(word)
    return words[:MAX_SEARCH_WORDS]
