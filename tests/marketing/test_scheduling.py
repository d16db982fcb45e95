"""The scheduling windows of banners and upsell offers (pure)."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from infra.scheduling import Status, Window, next_boundary, status_at

BASE = datetime(2026, 1, 1, tzinfo=UTC)
moments = st.integers(min_value=0, max_value=10_000).map(lambda m: BASE + timedelta(minutes=m))
edges = st.none() | moments


@st.composite
def windows(draw):
    start, end = draw(edges), draw(edges)
    if start is not None and end is not None and end <= start:
        start, end = end, start + timedelta(minutes=1) if end == start else start
    return Window(start=start, end=end)


def test_start_is_inclusive_and_end_exclusive():
    window = Window(start=BASE, end=BASE + timedelta(hours=1))

    assert not window.contains(BASE - timedelta(microseconds=1))
    assert window.contains(BASE)
    assert window.contains(BASE + timedelta(minutes=59, seconds=59))
    assert not window.contains(BASE + timedelta(hours=1))


def test_an_open_window_always_contains():
    assert Window().is_open
    assert Window().contains(BASE)


def test_naive_datetimes_and_inverted_windows_are_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        Window(start=datetime(2026, 1, 1))
    with pytest.raises(ValueError, match="after its start"):
        Window(start=BASE, end=BASE)


def test_status_names_each_case():
    window = Window(start=BASE, end=BASE + timedelta(hours=1))

    assert status_at(active=False, window=window, moment=BASE) == Status.INACTIVE
    assert status_at(active=True, window=window, moment=BASE - timedelta(1)) == Status.SCHEDULED
    assert status_at(active=True, window=window, moment=BASE) == Status.LIVE
    assert status_at(active=True, window=window, moment=BASE + timedelta(hours=1)) == (
        Status.EXPIRED
    )


@given(window=windows(), moment=moments, active=st.booleans())
def test_live_status_is_exactly_active_and_inside_the_window(window, moment, active):
    status = status_at(active=active, window=window, moment=moment)

    assert (status == Status.LIVE) == (active and window.contains(moment))


@given(all_windows=st.lists(windows(), max_size=8), moment=moments)
def test_next_boundary_is_the_first_edge_strictly_after_the_moment(all_windows, moment):
    boundary = next_boundary(all_windows, moment)

    edges_after = [
        edge for w in all_windows for edge in (w.start, w.end) if edge is not None and edge > moment
    ]
    assert boundary == (min(edges_after) if edges_after else None)


@given(all_windows=st.lists(windows(), max_size=8), moment=moments, data=st.data())
def test_nothing_changes_between_a_moment_and_the_next_boundary(all_windows, moment, data):
    boundary = next_boundary(all_windows, moment)
    limit = boundary - timedelta(microseconds=1) if boundary else moment + timedelta(days=30)
    later = data.draw(
        st.integers(0, int((limit - moment).total_seconds())).map(
            lambda s: moment + timedelta(seconds=s)
        )
    )

    assert [w.contains(moment) for w in all_windows] == [w.contains(later) for w in all_windows]
