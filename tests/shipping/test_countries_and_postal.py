"""Country data (pycountry, phonenumbers, babel) and postal-code normalization per country."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shipping.countries import Country, country_get, state_code_get
from shipping.postal import (
    InvalidPostalCode,
    format_postal_code,
    normalize_postal_code,
    try_normalize_postal_code,
)


def test_country_data_comes_from_the_libraries():
    assert country_get("BRA") == Country(
        name="Brazil", alpha_2="BR", alpha_3="BRA", ddi="55", currency="BRL"
    )
    assert country_get("usa") == Country(
        name="United States", alpha_2="US", alpha_3="USA", ddi="1", currency="USD"
    )
    assert country_get("PT").currency == "EUR"
    assert country_get("BOL").name == "Bolivia"  # the common name when there is one


@pytest.mark.parametrize("code", ["", "XYZ", "BR1", "BRAZ", "ÉUA", "B", None, 76])
def test_unknown_or_malformed_country_codes_have_no_country(code):
    assert country_get(code) is None


def test_a_country_without_dialing_code_or_currency_has_empty_strings():
    antarctica = country_get("ATA")
    assert (antarctica.ddi, antarctica.currency) == ("", "")


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"code": "SP"}, "BR-SP"),
        ({"code": "br-rj"}, "BR-RJ"),
        ({"name": "São Paulo"}, "BR-SP"),
        ({"name": "sao paulo"}, "BR-SP"),
        ({"code": "99", "name": "Paraná"}, "BR-PR"),
        ({"code": "XX"}, None),
        ({"name": "Atlantis"}, None),
    ],
)
def test_state_codes_are_iso_3166_2_with_the_country_prefix(kwargs, expected):
    assert state_code_get("BRA", **kwargs) == expected


def test_state_code_of_an_unknown_country_is_none():
    assert state_code_get("XYZ", code="SP") is None


@pytest.mark.parametrize(
    ("country", "raw", "stored", "shown"),
    [
        ("BRA", "01310-100", "01310100", "01310-100"),
        ("BRA", " 01310 100 ", "01310100", "01310-100"),
        ("BRA", "01.310-100", "01310100", "01310-100"),
        ("USA", "90210", "90210", "90210"),
        ("USA", "90210-1234", "90210", "90210"),
        ("USA", "902101234", "90210", "90210"),
        ("GBR", "sw1a 1aa", "SW1A1AA", "SW1A1AA"),
        ("PRT", "1000-001", "1000001", "1000001"),
        ("CAN", "k1a 0b1", "K1A0B1", "K1A0B1"),
    ],
)
def test_postal_codes_are_normalized_and_shown_per_country(country, raw, stored, shown):
    assert normalize_postal_code(country, raw) == stored
    assert format_postal_code(country, stored) == shown


@pytest.mark.parametrize(
    ("country", "raw"),
    [
        ("BRA", "0131010"),
        ("BRA", "013101000"),
        ("BRA", "ABCDE-FGH"),
        ("BRA", "\uff10" * 8),  # full-width digits are not ASCII digits
        ("USA", "9021"),
        ("USA", "90210-12"),
        ("GBR", "SW1A_1AA"),
        ("GBR", "A" * 11),
        ("GBR", "   "),
        ("BRA", "1" * 21),
    ],
)
def test_malformed_postal_codes_are_refused_with_a_reason(country, raw):
    with pytest.raises(InvalidPostalCode) as error:
        normalize_postal_code(country, raw)
    assert str(error.value)
    assert try_normalize_postal_code(country, raw) is None


@given(st.integers(min_value=0, max_value=99_999_999))
def test_brazilian_codes_survive_formatting_and_normalizing_again(number):
    stored = normalize_postal_code("BRA", f"{number:08d}")
    assert normalize_postal_code("BRA", format_postal_code("BRA", stored)) == stored


@given(st.text(max_size=30), st.sampled_from(["BRA", "USA", "GBR", "DEU"]))
def test_normalizing_any_text_gives_a_clean_code_or_a_reason(raw, country):
    try:
        code = normalize_postal_code(country, raw)
    except InvalidPostalCode:
        return
    assert code.isascii() and code.isalnum() and code == code.upper()
    assert normalize_postal_code(country, code) == code
