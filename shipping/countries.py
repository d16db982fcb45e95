"""Country data from pycountry (names, codes, subdivisions), phonenumbers (dialing code) and
babel (currency). No hand-written country tables."""

from __future__ import annotations

import gettext
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import phonenumbers
import pycountry
from babel.numbers import get_territory_currencies
from django.utils import translation


@dataclass(frozen=True)
class Country:
    name: str
    alpha_2: str
    alpha_3: str
    ddi: str  # ITU dialing code, digits only ("55"); "" when the country has none
    currency: str  # ISO 4217 code of the legal tender today ("BRL"); "" when none


@lru_cache(maxsize=512)
def country_get(code: str) -> Country | None:
    """The country of an ISO 3166-1 alpha-3 or alpha-2 code (any case); None if unknown."""
    if not isinstance(code, str):
        return None
    code = code.strip().upper()
    if not (code.isascii() and code.isalpha() and len(code) in (2, 3)):
        return None
    if len(code) == 3:
        record = pycountry.countries.get(alpha_3=code)
    else:
        record = pycountry.countries.get(alpha_2=code)
    if record is None:
        return None
    dialing = phonenumbers.country_code_for_region(record.alpha_2)
    currencies = get_territory_currencies(record.alpha_2)
    return Country(
        name=getattr(record, "common_name", None) or record.name,
        alpha_2=record.alpha_2,
        alpha_3=record.alpha_3,
        ddi=str(dialing) if dialing else "",
        currency=currencies[0] if currencies else "",
    )


@lru_cache(maxsize=8)
def _names(language: str) -> gettext.NullTranslations:
    """pycountry's own translations of country names (pt_BR: "Brasil")."""
    locale = translation.to_locale(language)
    return gettext.translation("iso3166-1", pycountry.LOCALES_DIR, [locale], fallback=True)


def country_name(code: str) -> str:
    """The name of the country `code` in the active language; the code if unknown."""
    country = country_get(code)
    if country is None:
        return code
    return _names(translation.get_language() or "en").gettext(country.name)


def country_choices() -> list[tuple[str, str]]:
    """(alpha-3, "name (alpha-3)") of every country, by name in the active language."""
    choices = [
        (record.alpha_3, f"{country_name(record.alpha_3)} ({record.alpha_3})")
        for record in pycountry.countries
    ]
    return sorted(choices, key=lambda choice: _fold(choice[1]))


def state_choices(country: str) -> list[tuple[str, str]]:
    """(ISO 3166-2 code, "name (code)") of a country's subdivisions ("BR-SP", "São Paulo (SP)")."""
    found = country_get(country)
    records = pycountry.subdivisions.get(country_code=found.alpha_2) or [] if found else []
    return [(record.code, f"{record.name} ({record.code.split('-', 1)[-1]})") for record in records]


def _fold(text: str) -> str:
    """Case- and accent-insensitive form of a name ("São Paulo" -> "sao paulo")."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


@lru_cache(maxsize=256)
def _subdivisions(alpha_2: str) -> tuple[frozenset[str], dict[str, str]]:
    """(codes, {folded name: code}) of a country's subdivisions."""
    records = pycountry.subdivisions.get(country_code=alpha_2) or []
    codes = frozenset(record.code for record in records)
    by_name: dict[str, str] = {}
    for record in records:
        by_name.setdefault(_fold(record.name), record.code)
    return codes, by_name


@lru_cache(maxsize=4096)
def state_code_get(country: str, *, code: str = "", name: str = "") -> str | None:
    """The ISO 3166-2 code ("BR-SP") of a subdivision of `country` by its `code` (with or
    without the prefix, any case) or `name` (case and accents ignored); None if neither."""
    found = country_get(country)
    if found is None:
        return None
    codes, by_name = _subdivisions(found.alpha_2)
    code = (code or "").strip().upper()
    if code:
        candidate = code if code.startswith(f"{found.alpha_2}-") else f"{found.alpha_2}-{code}"
        if candidate in codes:
            return candidate
    return by_name.get(_fold(name)) if name else None
