"""Which ranges hold a value (pure): the shipping rows covering a postal code, in memory.

The range ends cut the key space into points and the gaps between them, each holding the
same items all along (computed once by a sweep): a lookup is a binary search.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

Item = TypeVar("Item")


class RangeIndex(Generic[Item]):
    def __init__(
        self,
        items: Iterable[Item],
        *,
        low: Callable[[Item], str],
        high: Callable[[Item], str],
    ) -> None:
        listed = list(items)
        starting: dict[str, list[int]] = {}
        ending: dict[str, list[int]] = {}
        for number, item in enumerate(listed):
            start, end = low(item), high(item)
            if start <= end:
                starting.setdefault(start, []).append(number)
                ending.setdefault(end, []).append(number)
        self._points = sorted({*starting, *ending})
        self._at: list[tuple[Item, ...]] = []  # the items holding the point itself
        self._after: list[tuple[Item, ...]] = []  # ... holding the gap up to the next point
        holding: set[int] = set()
        for point in self._points:
            holding.update(starting.get(point, ()))
            self._at.append(tuple(listed[number] for number in sorted(holding)))
            holding.difference_update(ending.get(point, ()))
            self._after.append(tuple(listed[number] for number in sorted(holding)))

    def covering(self, value: str) -> tuple[Item, ...]:
        """The items whose range holds `value`, in the order they were given."""
        index = bisect_right(self._points, value) - 1
        if index < 0:
            return ()
        return self._at[index] if self._points[index] == value else self._after[index]
