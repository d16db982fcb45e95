"""feedback.ranking: the Wilson lower bound (pure), by examples and properties."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedback.ranking import wilson_lower_bound

counts = st.integers(min_value=0, max_value=100_000)


def test_known_values():
    # Evan Miller's "How not to sort by average rating", z = 1.96
    assert wilson_lower_bound(1, 0) == pytest.approx(0.2065, abs=1e-4)
    assert wilson_lower_bound(10, 1) == pytest.approx(0.6226, abs=1e-4)
    assert wilson_lower_bound(0, 0) == 0.0
    assert wilson_lower_bound(0, 9) == 0.0


def test_ten_up_one_down_ranks_above_one_up_none_down():
    assert wilson_lower_bound(10, 1) > wilson_lower_bound(1, 0)


def test_negative_counts_are_refused():
    with pytest.raises(ValueError):
        wilson_lower_bound(-1, 0)


@given(counts, counts)
def test_within_zero_and_the_observed_share(up, down):
    bound = wilson_lower_bound(up, down)
    assert 0.0 <= bound <= 1.0
    if up + down:
        assert bound <= up / (up + down) + 1e-12
    assert math.isfinite(bound)


@given(counts, counts)
def test_a_helpful_vote_never_lowers_and_an_unhelpful_one_never_raises(up, down):
    assert wilson_lower_bound(up + 1, down) >= wilson_lower_bound(up, down)
    assert wilson_lower_bound(up, down + 1) <= wilson_lower_bound(up, down)


@given(st.integers(min_value=1, max_value=1000), st.integers(min_value=0, max_value=1000))
def test_more_votes_at_the_same_share_rank_higher(up, down):
    assert wilson_lower_bound(2 * up, 2 * down) >= wilson_lower_bound(up, down)
