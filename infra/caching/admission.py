"""Which key a byte-bounded cache drops first: a segmented LRU (SLRU).

A key enters on probation; its second use moves it to the protected segment (at most
`protected_share` of the bytes; past that, its least recently used keys go back on
probation). Room is made from probation's least recently used key first, so keys asked
once (a random cart's quote) push out only each other, never an answer asked again. A key
pushed out of probation leaves its hash behind (the last `max_ghosts`): stored again, it was
asked twice, and enters protected at once, even when one-off keys outran its second use
(docs/caching.md, "Admission"). The caller holds its own lock around every call. Keys are
any hashable (answer keys, `(kind, key)` records); sizes any unit (bytes, or 1 per entry).
"""

from collections import OrderedDict
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class Segments(Generic[K]):
    def __init__(
        self,
        max_bytes: int,
        max_entries: int | None = None,
        protected_share: float = 0.8,
        max_ghosts: int = 8192,
    ) -> None:
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.max_ghosts = max_ghosts
        self._ghosts: OrderedDict[int, None] = OrderedDict()  # hashes of keys pushed out
        self.protected_bytes_max = int(max_bytes * protected_share)
        self._probation: OrderedDict[K, int] = OrderedDict()  # key -> bytes, oldest first
        self._protected: OrderedDict[K, int] = OrderedDict()
        self.bytes = 0
        self._protected_bytes = 0

    def __len__(self) -> int:
        return len(self._probation) + len(self._protected)

    def __contains__(self, key: K) -> bool:
        return key in self._probation or key in self._protected

    def added(self, key: K, size: int) -> list[K]:
        """`key` was stored (new, or rewritten: it keeps its segment); the keys to drop."""
        if key in self._protected:
            self._protected_bytes += size - self._protected[key]
            self.bytes += size - self._protected[key]
            self._protected[key] = size
            self._protected.move_to_end(key)
        else:
            self.bytes += size - self._probation.pop(key, 0)
            self._probation[key] = size
            if self._ghosts.pop(hash(key), False) is None:  # pushed out before: asked again
                self.used(key)
        return self._overflow(keep=key)

    def used(self, key: K) -> None:
        """`key` was read: protected from now on (its second use)."""
        if key in self._protected:
            self._protected.move_to_end(key)
            return
        size = self._probation.pop(key, None)
        if size is None:
            return
        self._protected[key] = size
        self._protected_bytes += size
        while self._protected_bytes > self.protected_bytes_max and len(self._protected) > 1:
            demoted, demoted_size = self._protected.popitem(last=False)
            self._protected_bytes -= demoted_size
            self._probation[demoted] = demoted_size  # the most recent on probation

    def removed(self, key: K) -> None:
        size = self._probation.pop(key, None)
        if size is None:
            size = self._protected.pop(key, None)
            if size is None:
                return
            self._protected_bytes -= size
        self.bytes -= size

    def retain(self, keys: Iterable[K]) -> None:
        """Forget every key but `keys` (the store dropped others by itself)."""
        kept = set(keys)
        for key in [key for key in (*self._probation, *self._protected) if key not in kept]:
            self.removed(key)

    def clear(self) -> None:
        self._probation.clear()
        self._protected.clear()
        self._ghosts.clear()
        self.bytes = self._protected_bytes = 0

    def _overflow(self, keep: K) -> list[K]:
        dropped = []
        while (
            self.bytes > self.max_bytes
            or (self.max_entries is not None and len(self) > self.max_entries)
        ) and len(self) > 1:
            segment = self._probation if self._probation else self._protected
            key = next(iter(segment))
            if key == keep:  # the value just stored goes last
                segment = self._protected if segment is self._probation else self._probation
                if not segment:
                    break
                key = next(iter(segment))
            if segment is self._probation:
                self._ghosts[hash(key)] = None
                if len(self._ghosts) > self.max_ghosts:
                    self._ghosts.popitem(last=False)
            self.removed(key)
            dropped.append(key)
        return dropped
