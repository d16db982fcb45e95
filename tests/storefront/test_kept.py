"""infra.caching.kept.kept_many: records kept in process memory until one of their namespaces
moves, and misses that warm the next batch of a catalogue (Warm)."""

import pytest

from infra.caching.admission import Segments
from infra.caching.kept import Warm, kept_many
from infra.caching.versions import cache_namespace_bump

pytestmark = pytest.mark.django_db

CATALOGUE = list(range(1, 11))


def keeper(built: list[list[int]], *, batch: int = 3):
    def build(keys: list[int]) -> dict[int, str]:
        built.append(sorted(keys))
        return {key: f"record {key}" for key in keys if key != 7}  # 7 does not exist

    def get(keys):
        return kept_many(
            "test-records",
            keys,
            lambda key: ("test-all", f"test-one:{key}"),
            build,
            warm=Warm("test-all", lambda start, stop: CATALOGUE[start:stop], batch=batch),
        )

    return get


def test_a_miss_builds_the_asked_keys_with_the_catalogue_s_next_batch_in_one_call():
    built: list[list[int]] = []
    get = keeper(built)
    assert get([9]) == {9: "record 9"}
    assert built == [[1, 2, 3, 9]]
    assert get([2, 3]) == {2: "record 2", 3: "record 3"}  # warmed: no build
    assert get([5]) == {5: "record 5"}
    assert built[-1] == [4, 5, 6]  # the next batch, the asked key among it
    assert get([7, 8]) == {8: "record 8"}  # a key the build leaves out is not found
    assert built[-1] == [7, 8]  # the batch was 7, 8, 9: 9 is kept already


def test_a_moved_namespace_rebuilds_its_records_and_restarts_the_walk():
    built: list[list[int]] = []
    get = keeper(built)
    get([1])
    cache_namespace_bump("test-one:2")
    assert get([2]) == {2: "record 2"}
    assert built[-1] == [2, 4, 5, 6]  # the one moved, and the walk goes on
    cache_namespace_bump("test-all")
    assert get([1]) == {1: "record 1"}
    assert built[-1] == [1, 2, 3]  # every record moved: the walk starts over
    assert get([3, 2]) == {2: "record 2", 3: "record 3"}
    assert len(built) == 3


def test_the_walk_ends_with_the_catalogue():
    built: list[list[int]] = []
    get = keeper(built, batch=20)
    get([1])
    assert built == [CATALOGUE]
    get([11])
    assert built[-1] == [11]


def test_a_value_kept_apart_survives_the_records_bound_and_follows_its_namespace(monkeypatch):
    from infra.caching import kept

    built = []

    def catalogue():
        built.append(1)
        return object()

    first = kept.kept_apart(("test-all",), "big", catalogue)
    monkeypatch.setattr(kept, "_ORDER", Segments(max_bytes=5))
    kept_many(
        "test-records", range(10), lambda key: ("test-one",), lambda keys: dict.fromkeys(keys)
    )
    assert kept.kept_apart(("test-all",), "big", catalogue) is first  # not cleared with them
    cache_namespace_bump("test-all")
    assert kept.kept_apart(("test-all",), "big", catalogue) is not first
    assert len(built) == 2


def test_past_the_bound_records_asked_again_stay_and_warm_or_one_off_records_go(monkeypatch):
    # given room for 10 records, and two records asked twice (so kept as popular)
    from infra.caching import kept

    monkeypatch.setattr(kept, "_ORDER", Segments(max_bytes=10))
    built: list[list[int]] = []

    def get(keys):
        def build(missing):
            built.append(sorted(missing))
            return {key: f"record {key}" for key in missing}

        return kept_many("test-records", keys, lambda key: ("test-all",), build)

    get([1, 2])
    get([1, 2])
    # when 30 one-off keys pass through (a warm walk, random carts)
    for key in range(100, 130):
        get([key])
    # then the store holds its bound, nothing was cleared whole, and the popular two are hits
    assert len([k for k in kept._KEPT if k[0] == "test-records"]) == 10
    built.clear()
    assert get([1, 2]) == {1: "record 1", 2: "record 2"}
    assert built == []
    assert get([100]) == {100: "record 100"} and built == [[100]]  # a one-off: gone first
