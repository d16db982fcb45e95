"""Change journals: which records of a namespace changed, in order, so that a process keeping
one large structure built from many records (the catalogue listing) patches the records that
changed instead of rebuilding the whole structure on every bump.

`journal_note(namespace, ids)` appends the ids, then bumps the namespace (whatever is kept
under it retires, as on any bump); inside a transaction it notes them again when the
transaction commits, so a reader that re-read the records before the commit re-reads them
after it. `journal_since(namespace, position)` gives the current head and the ids noted after
`position`, or None for the ids when the journal cannot tell (entries overwritten or evicted,
a note of everything, the cache unreachable): the reader then rebuilds whole from the head it
was given. A journaled namespace is bumped only through its journal (`cache_namespace_bump`
refuses it), so no change escapes the journal.

Entries live where the versions live (infra.caching.versions): in a file beside the versions
file that every process of the machine maps (a ring of SLOTS entries, written under flock), or
in the shared cache (Redis: a head counter started from the clock, one key per entry).
"""

import fcntl
import functools
import mmap
import os
import struct
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save

from .versions import REGISTRATIONS, Registration, bump_journaled, journaled, versions_are_local

EVERYTHING = 0  # an entry meaning "every record changed": readers rebuild whole


def _clock() -> int:
    """Where a new head starts: microseconds since the epoch, far ahead of any position
    read from an older head, and below 2**53 (django-redis's incr goes through a float)."""
    return time.time_ns() // 1000


MAX_READ = 4096  # entries read at once; further behind, a reader rebuilds whole


class FileJournal:
    """A ring of SLOTS (sequence, id) entries after a header holding the last sequence (the
    head, started from the clock when the file is made). Notes take flock and write their
    entries before the head; a reader checks each entry's sequence and that the head did not
    lap the entries it read."""

    SLOTS = 1 << 14
    _U64 = struct.Struct("<Q")
    _ENTRY = struct.Struct("<QQ")

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._open()

    def _open(self) -> None:
        size = self._U64.size + self.SLOTS * self._ENTRY.size
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.fstat(fd).st_size < size:
                os.ftruncate(fd, size)
                os.pwrite(fd, self._U64.pack(_clock()), 0)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
        self._map = mmap.mmap(fd, size)
        self._fd, self._pid = fd, os.getpid()

    def head(self) -> int:
        head: int = self._U64.unpack_from(self._map, 0)[0]
        return head

    def _slot(self, sequence: int) -> int:
        return self._U64.size + (sequence % self.SLOTS) * self._ENTRY.size

    def note(self, ids: list[int]) -> None:
        with self._lock:
            if self._pid != os.getpid():  # forked: a descriptor (and flock) of our own
                self._open()
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                head = self.head()
                for record_id in ids:
                    head += 1
                    self._ENTRY.pack_into(self._map, self._slot(head), head, record_id)
                self._U64.pack_into(self._map, 0, head)
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def since(self, position: int) -> tuple[int, list[int] | None]:
        head = self.head()
        if position > head or head - position > min(MAX_READ, self.SLOTS):
            return head, None
        found = []
        for sequence in range(position + 1, head + 1):
            noted, record_id = self._ENTRY.unpack_from(self._map, self._slot(sequence))
            if noted != sequence:
                return head, None
            found.append(record_id)
        if self.head() - position > self.SLOTS:  # lapped while reading: an entry may be torn
            return head, None
        return head, found


class CacheJournal:
    """Entries as keys of the shared cache: `incr` of the head gives each note its sequences
    (atomic in Redis), then the entries are written, then the namespace is bumped. A reader
    woken by that bump finds them; an entry still missing with a later one present was
    evicted (or its writer died): the reader rebuilds."""

    HEAD = "journal:{}:head"
    ENTRY = "journal:{}:{}"
    SECONDS = 24 * 3600

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self.head_key = self.HEAD.format(namespace)

    def head(self) -> int | None:
        return self._head()[0]

    def _head(self) -> tuple[int | None, bool]:
        """(the head, whether it was missing: evicted, or never made)."""
        made = cache.add(self.head_key, _clock(), timeout=None)
        head: int | None = cache.get(self.head_key)
        return head, made

    def note(self, ids: list[int]) -> None:
        cache.add(self.head_key, _clock(), timeout=None)
        try:
            last: int | None = cache.incr(self.head_key, len(ids))
        except ValueError:  # the head vanished between add and incr: readers rebuild
            return
        if last is None:  # unreachable: the head is deleted when the outage ends, so every
            cache.delete(self.head_key)  # reader rebuilds (infra.caching.backend)
            return
        first = last - len(ids) + 1
        entries = {self.ENTRY.format(self.namespace, first + n): i for n, i in enumerate(ids)}
        cache.set_many(entries, timeout=self.SECONDS)

    def since(self, position: int) -> tuple[int, list[int] | None]:
        head, made = self._head()
        if head is None:
            return 0, None
        if made or position > head or head - position > MAX_READ:
            return head, None
        keys = [self.ENTRY.format(self.namespace, s) for s in range(position + 1, head + 1)]
        entries = cache.get_many(keys)
        found: list[int] = []
        for sequence, key in enumerate(keys, position + 1):
            if key not in entries:
                if any(later in entries for later in keys[sequence - position :]):
                    return head, None  # evicted, or its writer died
                return sequence - 1, found  # still being written: its bump wakes us again
            found.append(entries[key])
        return head, found


_file_journals = functools.cache(FileJournal)  # by path


def _journal(namespace: str) -> FileJournal | CacheJournal:
    if versions_are_local():
        return _file_journals(f"{settings.CACHE_VERSIONS_FILE}.journal-{namespace}")
    return CacheJournal(namespace)


def journal_head(namespace: str) -> int:
    """The journal's current position (read it before building from the records)."""
    head = _journal(namespace).head()
    return head if head is not None else 0


def journal_since(namespace: str, position: int) -> tuple[int, frozenset[int] | None]:
    """(the journal's head, the ids noted after `position` up to it), or (head, None) when
    the journal cannot tell: rebuild whole from what is read after this call."""
    head, found = _journal(namespace).since(position)
    if found is None or EVERYTHING in found:
        return head, None
    return head, frozenset(found)


def journal_note(namespace: str, ids: Iterable[int] | None) -> None:
    """Note that the records `ids` changed (None: every record), then bump `namespace`; in a
    transaction, again once it commits."""
    noted = [EVERYTHING] if ids is None else sorted({int(i) for i in ids if i is not None})
    if not noted:
        return

    def note() -> None:
        _journal(namespace).note(noted)
        bump_journaled(namespace)

    note()
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(note)


def journal_on_change(
    namespace: str, ids_of: Callable[..., Iterable[int] | None], *models: type[Model]
) -> None:
    """Note `ids_of(row, **signal arguments)` in the journal of `namespace` on every save,
    delete and many-to-many change of `models` (None: every record changed)."""
    journaled(namespace)
    registration = Registration(namespace, tuple(model._meta.label for model in models))
    if registration not in REGISTRATIONS:
        REGISTRATIONS.append(registration)

    def changed(instance: Model, action: str = "", **kwargs: Any) -> None:
        if not action.startswith("pre_"):  # a many-to-many change is noted once it is made
            journal_note(namespace, ids_of(instance, action=action, **kwargs))

    for model in models:
        uid = f"journal:{namespace}:{model._meta.label}"
        post_save.connect(changed, sender=model, weak=False, dispatch_uid=f"{uid}:save")
        post_delete.connect(changed, sender=model, weak=False, dispatch_uid=f"{uid}:delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(
                changed,
                sender=field.remote_field.through,
                weak=False,
                dispatch_uid=f"{uid}:{field.name}",
            )
