"""Questions and their staff answers (pure: plain data in and out, no ORM, no clock).

A question is a top-level comment; it is answered once a staff reply to it is public. Two
rules live here: the median time staff took to answer, and which answered questions look
like a shopper's text (catalog/search.py's matching: accents, plurals, one typo).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from catalog.search import Searchable, SearchIndex, parse, positions_of

ANSWER_WINDOW = timedelta(days=30)
SIMILAR_LIMIT = 3


@dataclass(frozen=True)
class Answered:
    """When a question was asked and when its first staff answer came."""

    asked_at: datetime
    first_answer_at: datetime


@dataclass(frozen=True)
class AnswerTimes:
    median: timedelta | None  # None: no first answer in the window
    answered: int  # the questions whose first answer came in the window


def median_time_to_answer(
    questions: Iterable[Answered], *, now: datetime, window: timedelta = ANSWER_WINDOW
) -> AnswerTimes:
    """The median of (first answer - asked) over the questions whose first staff answer
    came in (now - window, now]; of an even count, the mean of the two middle ones."""
    waits = [
        (question.first_answer_at - question.asked_at).total_seconds()
        for question in questions
        if now - window < question.first_answer_at <= now
    ]
    if not waits:
        return AnswerTimes(median=None, answered=0)
    return AnswerTimes(median=timedelta(seconds=statistics.median(waits)), answered=len(waits))


def questions_index(texts: Sequence[str]) -> SearchIndex:
    """The catalogue search's index over question texts (position i: texts[i])."""
    return SearchIndex([Searchable(name=text, others=(), sku="") for text in texts])


def similar_positions(index: SearchIndex, text: str, *, limit: int = SIMILAR_LIMIT) -> list[int]:
    """Up to `limit` positions of `index` that look like `text`: more than half of the
    words of `text` (stop words left out, as the search does) are found in them, each word
    as the catalogue search finds it. Most words found first, then fewer typos, then the
    index's order (the caller's preference: newest first)."""
    matches = index.word_matches(parse(text))
    if not matches:
        return []
    found: dict[int, int] = {}
    exact: dict[int, int] = {}
    for found_mask, exact_mask in matches:
        for position in positions_of(found_mask):
            found[position] = found.get(position, 0) + 1
        for position in positions_of(exact_mask):
            exact[position] = exact.get(position, 0) + 1
    needed = len(matches) // 2 + 1
    chosen = [position for position, count in found.items() if count >= needed]
    chosen.sort(key=lambda position: (-found[position], -exact.get(position, 0), position))
    return chosen[:limit]
