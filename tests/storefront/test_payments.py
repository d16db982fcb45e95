"""The pure payments module: card-brand patterns and payment-condition maths (no database)."""

import itertools
import re
from decimal import Decimal, localcontext

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storefront.cards import (
    CARD_BRANDS,
    CARD_FLAG_PATTERNS,
    BinGroup,
    CardBrand,
    _alternation,
    _expand,
    card_flag_patterns,
)
from storefront.payments import (
    SINGLE_PAYMENT,
    CashDiscountTerms,
    InstallmentTerms,
    cash_discount,
    installment,
    installment_plan,
)

CENT = Decimal("0.01")
COMPILED_CARD_FLAGS = {key: re.compile(pattern) for key, pattern in CARD_FLAG_PATTERNS.items()}


def card_brands_of(number):
    """The brands whose served pattern matches `number`."""
    return [key for key, pattern in COMPILED_CARD_FLAGS.items() if pattern.search(number)]


CARD_TERMS = InstallmentTerms(
    max_installments=12,
    min_installment_value=Decimal("5.00"),
    interest_free_installments=3,
    monthly_interest_rate=Decimal("1.99"),
)


def price_installment(value: Decimal, rate_percent: Decimal, count: int) -> Decimal:
    """Tabela Price, written out independently of the module under test."""
    with localcontext() as context:
        context.prec = 50
        i = rate_percent / 100
        exact = value * i / (1 - 1 / (1 + i) ** count)
    return exact.quantize(CENT, rounding="ROUND_HALF_UP")


# --- Card brands: construction ----------------------------------------------------------


def test_patterns_are_the_six_contract_brands_in_order():
    assert list(CARD_FLAG_PATTERNS) == [
        "visa",
        "master",
        "americanexpress",
        "elo",
        "hipercard",
        "aura",
    ]


@pytest.mark.parametrize("key", list(CARD_FLAG_PATTERNS))
def test_pattern_uses_only_syntax_both_engines_read_alike(key):
    pattern = CARD_FLAG_PATTERNS[key]
    assert pattern.startswith("^")
    assert pattern.endswith(r"(?![\s\S])")
    assert "$" not in pattern  # Python's $ matches before a final newline
    assert r"\d" not in pattern  # Python's \d matches non-ASCII digits
    assert "(?<" not in pattern and "(?P" not in pattern  # no lookbehind, no named groups
    re.compile(pattern)


def test_range_expansion_keeps_leading_zeros_and_both_ends():
    assert _expand("650031-650033") == ["650031", "650032", "650033"]
    assert _expand("0098-0101") == ["0098", "0099", "0100", "0101"]
    assert _expand("4") == ["4"]
    with pytest.raises(ValueError):
        _expand("506778-506699")


@given(st.sets(st.integers(min_value=0, max_value=999), min_size=1))
def test_alternation_matches_exactly_its_strings(numbers):
    strings = {str(number).zfill(3) for number in numbers}
    pattern = re.compile(f"^(?:{_alternation(strings)})$")
    for candidate in range(1000):
        text = str(candidate).zfill(3)
        assert bool(pattern.match(text)) == (text in strings)


def test_a_bin_claimed_by_two_brands_is_refused():
    brands = (
        CardBrand("one", (BinGroup(("401178",), (16,)),)),
        CardBrand("two", (BinGroup(("401170-401179",), (16,)),)),
    )
    with pytest.raises(ValueError, match="401178"):
        card_flag_patterns(brands)


def test_a_longer_bin_of_another_brand_is_carved_out_of_the_shorter_prefix():
    brands = (
        CardBrand("wide", (BinGroup(("4",), (16,)),)),
        CardBrand("narrow", (BinGroup(("4011",), (16,)),)),
    )
    patterns = card_flag_patterns(brands)
    assert re.search(patterns["wide"], "4011000000000000") is None
    assert re.search(patterns["narrow"], "4011000000000000")
    assert re.search(patterns["wide"], "4012000000000000")


# --- Card brands: behaviour against an independent oracle --------------------------------

# Every BIN of the tables, with its brand and lengths: the most specific (longest) BIN that
# starts a number names its brand.
_TABLE = {
    bin_: (brand.key, group.lengths)
    for brand in CARD_BRANDS
    for group in brand.groups
    for prefix in group.prefixes
    for bin_ in _expand(prefix)
}
_INTERESTING_PREFIXES = sorted(
    set(_TABLE)
    | {str(int(bin_) + delta).zfill(len(bin_)) for bin_ in _TABLE for delta in (-1, 1)}
    | {"30", "36", "38", "35", "6011", "65", "62", "0", "9"}
)


def oracle_brand(number: str) -> str | None:
    starts = [bin_ for bin_ in _TABLE if number.startswith(bin_)]
    if not starts:
        return None
    brand, lengths = _TABLE[max(starts, key=len)]
    return brand if len(number) in lengths else None


@given(
    prefix=st.sampled_from(_INTERESTING_PREFIXES),
    rest=st.text(alphabet="0123456789", min_size=0, max_size=20),
)
def test_a_number_matches_exactly_the_brand_its_most_specific_bin_names(prefix, rest):
    number = (prefix + rest)[:20]
    expected = oracle_brand(number)
    assert card_brands_of(number) == ([expected] if expected else [])


@given(st.text(max_size=25))
def test_at_most_one_brand_matches_any_text(text):
    assert len(card_brands_of(text)) <= 1


@given(
    prefix=st.sampled_from(sorted(_TABLE)),
    rest=st.text(alphabet="0123456789", min_size=10, max_size=13),
    junk=st.sampled_from(["\n", "\r\n", " ", "\t", "x", "\u0660", "\x00"]),
)
def test_anything_around_the_digits_matches_no_brand(prefix, rest, junk):
    number = prefix + rest
    assert card_brands_of(number + junk) == []
    assert card_brands_of(junk + number) == []


# --- Cash discount ----------------------------------------------------------------------


def test_cash_discount_rounds_half_up_to_the_cent():
    # 5% of 59.70 is 2.985: half up gives 2.99 (banker's rounding would give 2.98).
    result = cash_discount(Decimal("59.70"), CashDiscountTerms(percentage=Decimal("5.00")))
    assert result.discount_value == Decimal("2.99")
    assert result.value_with_discount == Decimal("56.71")
    assert result.discount_percentage == Decimal("5.00")


def test_no_cash_discount_terms_is_zero_discount():
    result = cash_discount(Decimal("10.00"))
    assert result.discount_value == 0 and result.discount_percentage == 0
    assert result.value_with_discount == Decimal("10.00")


@given(
    value=st.decimals(min_value=0, max_value=Decimal("999999999.99"), places=2),
    percentage=st.decimals(min_value=0, max_value=100, places=2),
)
def test_discount_and_discounted_value_add_up_to_the_value(value, percentage):
    result = cash_discount(value, CashDiscountTerms(percentage=percentage))
    assert result.discount_value + result.value_with_discount == value
    assert 0 <= result.discount_value <= value
    assert result.discount_value == result.discount_value.quantize(CENT)


# --- Installments -----------------------------------------------------------------------


def test_worked_example_1000_at_1_99_percent_a_month_in_10x():
    # Given 1000.00 at 1.99%/month in 10x: 1000 * 0.0199 / (1 - 1.0199 ** -10)
    # = 111.268288755... -> 111.27 a month, 1112.70 in all, 112.70 of interest.
    entry = installment(Decimal("1000.00"), 10, CARD_TERMS)
    assert entry.installment_value == Decimal("111.27")
    assert entry.installment_value == price_installment(Decimal("1000.00"), Decimal("1.99"), 10)
    assert entry.total_value == Decimal("1112.70")
    assert entry.fee == Decimal("1.99")
    assert entry.fee_total_value == Decimal("112.70")


def test_interest_free_installments_split_the_value_evenly():
    entry = installment(Decimal("1000.00"), 3, CARD_TERMS)
    assert entry.installment_value == Decimal("333.33")
    assert entry.total_value == Decimal("1000.00")
    assert entry.fee == 0 and entry.fee_total_value == 0


def test_even_split_rounds_half_up():
    # 100.05 / 2 = 50.025 -> 50.03
    assert installment(Decimal("100.05"), 2, CARD_TERMS).installment_value == Decimal("50.03")


def test_plan_runs_from_1x_to_the_maximum():
    plan = installment_plan(Decimal("1000.00"), CARD_TERMS)
    assert [entry.installment for entry in plan] == list(range(1, 13))
    assert [entry.fee for entry in plan[:3]] == [0, 0, 0]
    assert all(entry.fee == Decimal("1.99") for entry in plan[3:])


def test_plan_stops_at_the_first_installment_below_the_minimum():
    # 20.00: 4x with interest is 5.25 (>= 5.00), 5x would be 4.24.
    plan = installment_plan(Decimal("20.00"), CARD_TERMS)
    assert [entry.installment for entry in plan] == [1, 2, 3, 4]
    assert plan[-1].installment_value == Decimal("5.25")


def test_1x_is_offered_even_below_the_minimum():
    plan = installment_plan(Decimal("3.00"), CARD_TERMS)
    assert [(entry.installment, entry.installment_value) for entry in plan] == [
        (1, Decimal("3.00"))
    ]


def test_zero_rate_above_the_interest_free_count_behaves_interest_free():
    terms = InstallmentTerms(
        max_installments=6,
        min_installment_value=Decimal("0"),
        interest_free_installments=2,
        monthly_interest_rate=Decimal("0"),
    )
    plan = installment_plan(Decimal("90.00"), terms)
    assert [entry.installment_value for entry in plan] == [
        Decimal("90.00"),
        Decimal("45.00"),
        Decimal("30.00"),
        Decimal("22.50"),
        Decimal("18.00"),
        Decimal("15.00"),
    ]
    assert all(entry.fee == 0 and entry.total_value == Decimal("90.00") for entry in plan)


def test_no_interest_free_count_charges_interest_from_1x():
    terms = InstallmentTerms(
        max_installments=2,
        min_installment_value=Decimal("0"),
        interest_free_installments=0,
        monthly_interest_rate=Decimal("10"),
    )
    assert installment(Decimal("100.00"), 1, terms).total_value == Decimal("110.00")


def test_a_financed_plan_never_totals_less_than_the_price():
    # 0.04 in 3x at 1.99%: the Price formula gives 0.0139 -> 0.01 (0.03 in all); the
    # installment is raised to the even split rounded up, 0.02.
    terms = InstallmentTerms(
        max_installments=3,
        min_installment_value=Decimal("0"),
        interest_free_installments=1,
        monthly_interest_rate=Decimal("1.99"),
    )
    entry = installment(Decimal("0.04"), 3, terms)
    assert entry.installment_value == Decimal("0.02")
    assert entry.total_value == Decimal("0.06") and entry.fee_total_value == Decimal("0.02")


def test_no_installment_terms_is_a_single_payment():
    plan = installment_plan(Decimal("250.00"))
    assert plan == (installment(Decimal("250.00"), 1, SINGLE_PAYMENT),)
    assert plan[0].installment_value == Decimal("250.00") and plan[0].fee == 0


def test_extreme_terms_stay_exact():
    terms = InstallmentTerms(
        max_installments=99,
        min_installment_value=Decimal("0"),
        interest_free_installments=1,
        monthly_interest_rate=Decimal("100"),
    )
    entry = installment(Decimal("999999999.99"), 99, terms)
    assert entry.installment_value == price_installment(Decimal("999999999.99"), Decimal("100"), 99)


installment_terms = st.builds(
    InstallmentTerms,
    max_installments=st.integers(min_value=1, max_value=24),
    min_installment_value=st.decimals(min_value=0, max_value=100, places=2),
    interest_free_installments=st.integers(min_value=0, max_value=24),
    monthly_interest_rate=st.decimals(min_value=0, max_value=100, places=4),
)
values = st.decimals(min_value=0, max_value=Decimal("999999999.99"), places=2)


@given(value=values, terms=installment_terms)
def test_plan_invariants(value, terms):
    plan = installment_plan(value, terms)
    assert [entry.installment for entry in plan] == list(range(1, len(plan) + 1))
    assert len(plan) <= terms.max_installments
    for entry in plan:
        n = entry.installment
        for money in (entry.installment_value, entry.total_value, entry.fee_total_value):
            assert money == money.quantize(CENT)
        assert entry.total_value >= value
        assert entry.fee_total_value == entry.total_value - value
        if n > 1:
            assert entry.installment_value >= terms.min_installment_value
        if entry.fee == 0:
            assert entry.total_value == value
            assert abs(entry.installment_value * n - value) <= Decimal("0.005") * n
        else:
            assert entry.fee == terms.monthly_interest_rate
            assert entry.installment_value * n == entry.total_value


@given(value=values, terms=installment_terms)
def test_totals_grow_with_the_count_above_the_interest_free_one(value, terms):
    plan = installment_plan(value, terms)
    charged = [entry for entry in plan if entry.fee > 0]
    for shorter, longer in itertools.pairwise(charged):
        # Exact totals grow strictly; each rounded installment may move its total by n/2 cents.
        tolerance = CENT / 2 * (shorter.installment + longer.installment)
        assert longer.total_value >= shorter.total_value - tolerance
