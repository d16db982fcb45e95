"""infra.deferred: what a read records is kept in a bounded buffer of the process and handed
to its handler after the answer, by a flusher thread (started once per process, again after
a fork) or a direct flush; upkeep runs when due."""

import logging
import os
import threading
import time

import pytest

from infra import deferred


@pytest.fixture
def kinds():
    """Two kinds whose handlers note what they were given (no database)."""
    seen: dict[str, list] = {"a": [], "b": []}
    deferred.register("test.a", lambda items: seen["a"].append(list(items)))
    deferred.register("test.b", lambda items: seen["b"].append(list(items)))
    deferred.flush()
    yield seen
    deferred.flush()
    for kind in ("test.a", "test.b", "test.failing", "test.thread"):
        deferred._handlers.pop(kind, None)
        deferred._dropped.pop(kind, None)


def test_records_wait_for_the_flush_and_go_to_their_handler_in_order(kinds):
    deferred.record("test.a", 1)
    deferred.record("test.b", "x")
    deferred.record("test.a", 2)

    assert deferred.pending() == 3
    assert kinds == {"a": [], "b": []}  # nothing written yet
    assert deferred.flush() == 3
    assert kinds == {"a": [[1, 2]], "b": [["x"]]}  # one call per kind
    assert deferred.pending() == 0
    assert deferred.flush() == 0


def test_a_kind_without_a_handler_is_refused_at_once():
    with pytest.raises(LookupError, match=r"test\.unknown"):
        deferred.record("test.unknown", 1)


def test_a_full_buffer_drops_and_counts_instead_of_waiting(kinds, settings):
    settings.DEFERRED_MAX_ITEMS = 2
    for number in range(5):
        deferred.record("test.a", number)

    assert deferred.pending() == 2
    assert deferred.dropped()["test.a"] == 3
    deferred.flush()
    assert kinds["a"] == [[0, 1]]


def test_a_failing_handler_loses_its_batch_only(kinds, caplog):
    def failing(items):
        raise RuntimeError("database gone")

    deferred.register("test.failing", failing)
    deferred.record("test.failing", 1)
    deferred.record("test.a", 2)

    with caplog.at_level(logging.ERROR, logger="storefront.deferred"):
        assert deferred.flush() == 2

    assert kinds["a"] == [[2]]
    assert deferred.dropped()["test.failing"] == 1
    assert "Lost 1 deferred test.failing record(s)" in caplog.text


def test_the_flusher_thread_starts_in_each_process_and_writes_soon(kinds, settings, monkeypatch):
    # given a buffer left by a parent process (gunicorn forks workers after loading the app)
    settings.DEFERRED_FLUSH_SECONDS = 1
    monkeypatch.setattr(deferred, "_thread_pid", -1)
    deferred._buffer.append(("test.a", "the parent's"))
    handled = threading.Event()
    threads = []

    def handler(items):
        threads.append((threading.current_thread().name, list(items)))
        handled.set()

    deferred.register("test.thread", handler)

    # when this process records
    started = time.monotonic()
    deferred.record("test.thread", "mine")

    # then its own thread writes it within a flush interval, without the parent's items
    assert deferred._thread_pid == os.getpid()
    assert handled.wait(5)
    assert time.monotonic() - started < 4
    assert threads == [("deferred-flush", ["mine"])]
    assert kinds["a"] == []
    # and a second record starts no second thread
    count = threading.active_count()
    deferred.record("test.thread", "again")
    assert threading.active_count() == count


def test_upkeep_runs_when_due_and_a_failure_is_logged(caplog):
    runs = []
    deferred.every("test.upkeep", 3600, lambda: runs.append(1))
    deferred.every("test.broken", 3600, lambda: 1 / 0)
    try:
        with caplog.at_level(logging.ERROR, logger="storefront.deferred"):
            assert {"test.upkeep", "test.broken"} <= set(deferred.run_due())
        assert runs == [1]
        assert "Upkeep task test.broken failed" in caplog.text
        # within the hour: not again
        ran = deferred.run_due()
        assert "test.upkeep" not in ran and runs == [1]
    finally:
        deferred._periodic.pop("test.upkeep")
        deferred._periodic.pop("test.broken")


def test_a_forked_child_starts_with_an_empty_buffer_and_no_thread(kinds):
    # given a parent with a waiting record (gunicorn forks its workers from one process)
    deferred.record("test.a", "the parent's")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report what it inherited, and leave at once
        os.write(write, f"{deferred.pending()} {deferred._thread_pid}".encode())
        os._exit(0)
    os.close(write)
    inherited = os.read(read, 100).decode()
    os.waitpid(pid, 0)
    os.close(read)
    assert inherited == "0 0"
    assert deferred.pending() == 1  # the parent's stays the parent's
