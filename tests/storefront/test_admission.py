"""infra.caching.admission.Segments: a segmented LRU, so keys stored once and never read again
(a random cart's quote) push out only each other, never a key read since it was stored."""

from infra.caching.admission import Segments


def test_a_key_read_again_outlives_any_number_of_keys_stored_once():
    segments = Segments(max_bytes=1000)
    assert segments.added("popular", 100) == []
    segments.used("popular")
    dropped = [key for number in range(100) for key in segments.added(f"once-{number}", 100)]
    assert "popular" not in dropped
    assert "popular" in segments
    assert dropped[:2] == ["once-0", "once-1"]  # the oldest on probation go first
    assert segments.bytes <= 1000


def test_a_plain_lru_would_have_dropped_it():
    # the same traffic with nothing read again: the first key goes first, as in an LRU
    segments = Segments(max_bytes=1000)
    segments.added("first", 100)
    dropped = [key for number in range(10) for key in segments.added(f"once-{number}", 100)]
    assert dropped == ["first"]


def test_the_protected_segment_has_a_bound_and_demotes_its_oldest():
    segments = Segments(max_bytes=1000, protected_share=0.5)
    for key in "abcdef":
        segments.added(key, 100)
        segments.used(key)
    # six keys read again, room for five protected bytes-wise: the oldest went on probation
    segments.added("g", 500)
    assert "a" not in segments  # demoted, then the oldest on probation
    assert all(key in segments for key in "bcdef")
    assert segments.bytes <= 1000


def test_an_entry_bound_too_and_a_rewrite_keeps_the_count_exact():
    segments = Segments(max_bytes=10_000, max_entries=2)
    segments.added("a", 10)
    segments.added("a", 30)  # rewritten
    assert segments.bytes == 30
    segments.used("a")
    segments.added("a", 20)  # rewritten while protected
    assert segments.bytes == 20
    segments.added("b", 10)
    assert segments.added("c", 10) == ["b"]
    segments.removed("a")
    segments.retain(["c"])
    assert len(segments) == 1 and segments.bytes == 10
    segments.clear()
    assert len(segments) == 0 and segments.bytes == 0


def test_a_value_larger_than_the_bound_stays_alone():
    segments = Segments(max_bytes=100)
    segments.added("small", 10)
    assert segments.added("large", 500) == ["small"]
    assert "large" in segments


def test_a_key_pushed_out_before_its_second_use_enters_protected_when_stored_again():
    segments = Segments(max_bytes=1000)
    segments.added("popular", 100)
    for number in range(20):  # one-off keys outrun its second use
        segments.added(f"once-{number}", 100)
    assert "popular" not in segments
    segments.added("popular", 100)  # asked again: its hash was left behind
    for number in range(20, 60):
        segments.added(f"once-{number}", 100)
    assert "popular" in segments


def test_the_hashes_left_behind_have_a_bound():
    segments = Segments(max_bytes=300, max_ghosts=3)
    for number in range(10):  # 0-6 pushed out; the hashes of 4, 5 and 6 remembered
        segments.added(f"once-{number}", 100)
    segments.added("once-0", 100)  # forgotten: on probation again
    segments.added("once-5", 100)  # remembered: protected
    for number in range(10, 13):
        segments.added(f"once-{number}", 100)
    assert "once-0" not in segments
    assert "once-5" in segments
