"""infra/numbers.py and infra/forms.py: numbers typed and shown in the staff's language."""

import contextlib
from decimal import Decimal

import pytest
from django import forms
from django.utils.translation import override
from hypothesis import given
from hypothesis import strategies as st

from infra.forms import MoneyField, WeightField
from infra.numbers import NotANumber, money_text, parse_decimal, percent_text, range_text


@pytest.mark.parametrize(
    ("language", "text", "number"),
    [
        ("pt-br", "99,90", Decimal("99.90")),
        ("pt-br", "1.234,56", Decimal("1234.56")),
        ("pt-br", "1.234", Decimal("1234")),  # one thousand two hundred thirty-four
        ("pt-br", "1.234.567,8", Decimal("1234567.8")),
        ("pt-br", " R$ 18,90 ", Decimal("18.90")),
        ("pt-br", "0,5", Decimal("0.5")),
        ("en", "99.90", Decimal("99.90")),
        ("en", "1,234.56", Decimal("1234.56")),
        ("en", "1,234", Decimal("1234")),
    ],
)
def test_numbers_of_the_language_are_read(language, text, number):
    with override(language):
        assert parse_decimal(text) == number


@pytest.mark.parametrize(
    ("language", "text", "meant"),
    [
        ("pt-br", "99.9", Decimal("99.9")),
        ("pt-br", "99.90", Decimal("99.90")),
        ("pt-br", "1,234.56", Decimal("1234.56")),
        ("pt-br", "0.500", Decimal("0.500")),  # a group of thousands never starts with 0
        ("en", "99,90", Decimal("99.90")),
        ("en", "1.234,56", Decimal("1234.56")),
    ],
)
def test_the_other_languages_decimal_separator_is_refused_saying_what_was_meant(
    language, text, meant
):
    with override(language), pytest.raises(NotANumber) as refused:
        parse_decimal(text)
    assert refused.value.meant == meant


@pytest.mark.parametrize(
    "text",
    [
        "",
        "abc",
        "1,2,3",
        "1.2.3",
        "\u0661\u0662\u0663",
        "12 34",
        "-5",
        "+5",
        "1e3",
        "NaN",
        "Infinity",
        "1.23,4",
        "12.34.567",
        ",5",
        "5,",
        "R$",
        "0x10",
        "\uff11",
    ],
)
@pytest.mark.parametrize("language", ["pt-br", "en"])
def test_anything_else_is_not_a_number(language, text):
    with override(language), pytest.raises(NotANumber) as refused:
        parse_decimal(text)
    assert refused.value.meant is None


@given(st.text(max_size=30))
def test_parsing_never_fails_otherwise(text):
    with override("pt-br"), contextlib.suppress(NotANumber):
        assert parse_decimal(text) >= 0


@given(st.decimals(min_value=0, max_value=Decimal("9999999999.99"), places=2))
def test_a_shown_amount_reads_back_as_itself(amount):
    for language in ("pt-br", "en"):
        with override(language):
            field = MoneyField(max_digits=12, decimal_places=2)
            assert field.clean(field.prepare_value(amount)) == amount


def test_the_form_fields_refuse_with_messages_saying_what_to_type():
    money = MoneyField(max_digits=12, decimal_places=2, min_value=0)
    weight = WeightField(max_digits=10, decimal_places=3, min_value=0)
    with override("en"):
        with pytest.raises(forms.ValidationError) as refused:
            money.clean("99,90")
        assert refused.value.messages == [
            "Use “.” before the cents: 99.90 (“,” separates thousands)."
        ]
        with pytest.raises(forms.ValidationError) as refused:
            weight.clean("abc")
        assert refused.value.messages == ["Enter a number like 1.500."]
        with pytest.raises(forms.ValidationError) as refused:
            money.clean("9" * 13)
        assert "12 digits" in refused.value.messages[0]
    with override("pt-br"):
        with pytest.raises(forms.ValidationError) as refused:
            money.clean("99.9")
        assert refused.value.messages == [
            "Use “,” antes dos centavos: 99,90 (“.” separa os milhares)."
        ]


def test_the_widget_is_a_text_input_with_its_unit():
    with override("pt-br"):
        money = MoneyField(max_digits=12, decimal_places=2).widget.render("p", "1.234,50")
        weight = WeightField(max_digits=10, decimal_places=3).widget.render("w", "0,500")
    assert money.index("R$") < money.index("<input")
    assert 'type="text"' in money and 'inputmode="decimal"' in money
    assert weight.index("<input") < weight.index("kg")


def test_amounts_percentages_and_ranges_read_in_the_language():
    with override("pt-br"):
        assert money_text(Decimal("4914.9")) == "R$ 4.914,90"
        assert percent_text(Decimal("1.9900")) == "1,99%"
        assert percent_text(Decimal("5.00")) == "5%"
        assert range_text(Decimal("0"), Decimal("1"), money_text, Decimal("99")) == (
            "R$ 0,00 a R$ 1,00"
        )
    with override("en"):
        assert money_text(Decimal("4914.9")) == "R$ 4,914.90"
        assert range_text(Decimal("30"), Decimal("99"), str, Decimal("99")) == "from 30, no limit"
