"""What a read must record, written after the answer: a GET never writes the database.

A request calls `record(kind, item)`: the item goes to a bounded buffer of this process (past
DEFERRED_MAX_ITEMS it is dropped and counted, never waited for). A daemon thread of the
process, started by the first record (after a fork too: gunicorn's workers each start their
own), calls `flush()` every DEFERRED_FLUSH_SECONDS: each kind's items go, in the order
recorded, to the handler an app registered with `register(kind, handler)` (in its
AppConfig.ready), which writes them in one go, on its own database connection. A failing
handler loses its batch (logged), never an answer. `flush()` is also called at exit and
directly (tests, commands). DEFERRED_FLUSH_SECONDS = 0 starts no thread (tests flush).

`every(name, seconds, task)` registers upkeep (a prune) that `run_due()` runs when its time
came: the jobs worker calls it on each pass, so upkeep never runs inside a request.

Lost on a crash: at most DEFERRED_FLUSH_SECONDS of records, which is the promise: what is
recorded here is a log or a cache of outside answers, never the store's data.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import close_old_connections

logger = logging.getLogger("storefront.deferred")

Handler = Callable[[Sequence[Any]], None]

_handlers: dict[str, Handler] = {}
_lock = threading.Lock()
_buffer: list[tuple[str, Any]] = []
_flush_lock = threading.Lock()  # one flush at a time (the thread, atexit, a test)
_dropped: Counter[str] = Counter()  # items dropped (buffer full, or their handler failed)
_thread_pid = 0  # the process whose flusher thread runs (0: none yet)


def register(kind: str, handler: Handler) -> None:
    """Send the items recorded as `kind` to `handler(items)` (one call per flush)."""
    _handlers[kind] = handler


def record(kind: str, item: Any) -> None:
    """Keep `item` for `kind`'s handler; never blocks, never touches the database."""
    if kind not in _handlers:
        raise LookupError(f"no handler registered for deferred records of kind {kind!r}")
    _start_flusher()
    with _lock:
        if len(_buffer) >= settings.DEFERRED_MAX_ITEMS:
            _dropped[kind] += 1
            return
        _buffer.append((kind, item))


def pending() -> int:
    """How many items wait for the next flush."""
    return len(_buffer)


def dropped() -> dict[str, int]:
    """Items lost by kind since the process started (buffer full, handler failed)."""
    return dict(_dropped)


def flush() -> int:
    """Hand every waiting item to its handler now; the number of items handled."""
    with _flush_lock:
        with _lock:
            items = _buffer[:]
            _buffer.clear()
        by_kind: dict[str, list[Any]] = {}
        for kind, item in items:
            by_kind.setdefault(kind, []).append(item)
        for kind, batch in by_kind.items():
            try:
                _handlers[kind](batch)
            except Exception:
                _dropped[kind] += len(batch)
                logger.exception("Lost %s deferred %s record(s)", len(batch), kind)
        return len(items)


def _start_flusher() -> None:
    """Start this process's flusher thread once (a forked worker starts its own)."""
    global _thread_pid
    pid = os.getpid()
    if _thread_pid == pid or settings.DEFERRED_FLUSH_SECONDS <= 0:
        return
    with _lock:
        if _thread_pid == pid:
            return
        if _thread_pid:  # forked: the parent's items are the parent's to write
            _buffer.clear()
        _thread_pid = pid
    thread = threading.Thread(target=_flush_forever, name="deferred-flush", daemon=True)
    thread.start()
    atexit.register(_flush_at_exit, pid)


def _after_fork_in_child() -> None:
    """A forked child starts empty, with fresh locks (a parent thread may have held one)."""
    global _lock, _flush_lock, _thread_pid
    _lock, _flush_lock, _thread_pid = threading.Lock(), threading.Lock(), 0
    _buffer.clear()


os.register_at_fork(after_in_child=_after_fork_in_child)


def _flush_forever() -> None:
    while True:
        seconds = settings.DEFERRED_FLUSH_SECONDS
        time.sleep(seconds if seconds > 0 else 1)
        if seconds <= 0 or not _buffer:  # (0: turned off since, the tests flush themselves)
            continue
        try:
            close_old_connections()  # CONN_MAX_AGE and broken connections, as a request does
            flush()
            close_old_connections()
        except Exception:  # the thread never dies: the next round tries again
            logger.exception("The deferred flush failed")


def _flush_at_exit(pid: int) -> None:
    if os.getpid() == pid and _buffer:
        flush()


# --- Upkeep -------------------------------------------------------------------------------


@dataclass
class _Periodic:
    seconds: float
    task: Callable[[], object]
    last: float = float("-inf")  # time.monotonic() of the last run


_periodic: dict[str, _Periodic] = {}


def every(name: str, seconds: float, task: Callable[[], object]) -> None:
    """Run `task` at most every `seconds` (in each process calling `run_due`)."""
    _periodic[name] = _Periodic(seconds, task)


def run_due() -> list[str]:
    """Run the upkeep tasks whose time came (the jobs worker calls this); their names."""
    now, ran = time.monotonic(), []
    for name, periodic in _periodic.items():
        if now - periodic.last < periodic.seconds:
            continue
        periodic.last = now
        try:
            periodic.task()
        except Exception:
            logger.exception("Upkeep task %s failed", name)
        ran.append(name)
    return ran
