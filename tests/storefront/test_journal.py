"""infra.caching.journal: which records of a namespace changed, read by position; where it
cannot tell (overwritten, evicted, a note of everything), the reader is told to rebuild."""

import time

import pytest
from django.core.cache import cache
from django.test import override_settings

from infra.caching import journal
from infra.caching.journal import (
    CacheJournal,
    FileJournal,
    journal_head,
    journal_note,
    journal_since,
)
from infra.caching.versions import cache_namespace_bump, namespace_versions

pytestmark = pytest.mark.django_db


def test_notes_are_read_from_a_position_in_order(tmp_path):
    book = FileJournal(str(tmp_path / "journal"))
    start = book.head()
    book.note([5, 7])
    book.note([5])
    assert book.since(start) == (start + 3, [5, 7, 5])
    assert book.since(start + 2) == (start + 3, [5])
    assert book.since(start + 3) == (start + 3, [])


def test_a_position_the_ring_has_lapped_or_from_another_file_is_not_told(tmp_path, monkeypatch):
    monkeypatch.setattr(FileJournal, "SLOTS", 4)
    book = FileJournal(str(tmp_path / "journal"))
    start = book.head()
    book.note([1, 2, 3, 4, 5])
    assert book.since(start) == (start + 5, None)  # entry start+1 was overwritten
    assert book.since(start + 1) == (start + 5, [2, 3, 4, 5])
    assert book.since(start + 99)[1] is None  # ahead of the head: another file's position


def test_another_process_s_notes_are_read(tmp_path):
    # two mappings of one file stand for two processes
    writer, reader = FileJournal(str(tmp_path / "j")), FileJournal(str(tmp_path / "j"))
    start = reader.head()
    writer.note([42])
    assert reader.since(start) == (start + 1, [42])


def test_cache_journal_reads_notes_and_stops_before_one_still_being_written():
    book = CacheJournal("test-records")
    start = book.head()
    book.note([3, 4])
    book.note([9])
    assert book.since(start) == (start + 3, [3, 4, 9])
    # the last note's entry is not written yet (its writer is between incr and set_many)
    cache.delete(CacheJournal.ENTRY.format("test-records", start + 3))
    assert book.since(start) == (start + 2, [3, 4])
    # an entry missing before a written one was evicted: not told
    cache.delete(CacheJournal.ENTRY.format("test-records", start + 1))
    assert book.since(start)[1] is None


@pytest.mark.cache
def test_cache_journal_on_redis_keeps_exact_sequences():
    # django-redis's incr goes through a float: a head past 2**53 would lose its last digits
    from tests.fake_redis import real_redis
    from tests.storefront.test_cache_outage import breaker_cache_settings

    with (
        real_redis() as (host, port, db),
        override_settings(CACHES=breaker_cache_settings(f"redis://{host}:{port}/{db}")),
    ):
        book = CacheJournal(f"test-{time.time_ns()}")
        start = book.head()
        for record_id in range(1, 40):
            book.note([record_id, record_id + 1000])
        assert book.since(start) == (start + 78, [i + k for i in range(1, 40) for k in (0, 1000)])
        cache.delete_many([book.head_key])


def test_cache_journal_with_its_head_evicted_is_not_told():
    book = CacheJournal("test-records")
    start = book.head()
    book.note([1])
    cache.delete(book.head_key)
    assert book.since(start)[1] is None  # the new head starts from the clock, far ahead


def test_a_note_bumps_the_namespace_and_everything_is_a_rebuild():
    journal.journaled("test-journaled")
    position = journal_head("test-journaled")
    before = namespace_versions(("test-journaled",))
    journal_note("test-journaled", [8, 8, 2])
    assert namespace_versions(("test-journaled",)) != before
    assert journal_since("test-journaled", position) == (position + 2, frozenset({2, 8}))
    journal_note("test-journaled", None)
    assert journal_since("test-journaled", position) == (position + 3, None)


def test_a_journaled_namespace_is_never_bumped_without_its_ids():
    journal.journaled("test-journaled")
    with pytest.raises(ValueError, match="journal_note"):
        cache_namespace_bump("other", "test-journaled")


def test_in_a_transaction_the_ids_are_noted_again_at_commit(django_capture_on_commit_callbacks):
    position = journal_head("test-journaled")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        journal_note("test-journaled", [6])
        assert journal_since("test-journaled", position) == (position + 1, frozenset({6}))
    assert len(callbacks) == 1
    assert journal_since("test-journaled", position) == (position + 2, frozenset({6}))


def test_a_product_s_changes_are_noted_in_the_listing_journal():
    from catalog.selectors.caches import LISTING_CACHE
    from tests.catalog.factories import ProductFactory, StockFactory, VariationFactory

    product = ProductFactory()
    variation = VariationFactory(parent=product)
    position = journal_head(LISTING_CACHE)
    StockFactory(product=variation, available=3)
    product.categories.clear()
    head, changed = journal_since(LISTING_CACHE, position)
    assert changed == {variation.pk, product.pk}
    variation_id = variation.pk
    variation.delete()  # its stock too; the variation's note names its main product
    assert journal_since(LISTING_CACHE, head)[1] == {variation_id, product.pk}
