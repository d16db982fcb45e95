"""The in-memory range index (shipping/ranges.py) answers as the database's range filter."""

from hypothesis import given
from hypothesis import strategies as st

from shipping.ranges import RangeIndex

codes = st.text(alphabet="0129", min_size=1, max_size=3)


def index_of(ranges):
    return RangeIndex(ranges, low=lambda r: r[0], high=lambda r: r[1])


def test_a_value_is_covered_by_the_ranges_holding_it_ends_included():
    ranges = [("00000000", "09999999"), ("01000000", "01999999"), ("20000000", "28999999")]
    index = index_of(ranges)

    assert index.covering("01310100") == (ranges[0], ranges[1])
    assert index.covering("09999999") == (ranges[0],)
    assert index.covering("10000000") == ()
    assert index.covering("20000000") == (ranges[2],)
    assert index.covering("0") == ()


def test_an_empty_or_reversed_range_covers_nothing():
    assert index_of([]).covering("1") == ()
    assert index_of([("5", "1")]).covering("3") == ()


@given(st.lists(st.tuples(codes, codes, st.integers())), codes)
def test_covering_is_the_ranges_whose_ends_hold_the_value_in_their_order(ranges, value):
    expected = tuple(r for r in ranges if r[0] <= value <= r[1])
    assert index_of(ranges).covering(value) == expected
