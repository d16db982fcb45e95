"""feedback/questions.py: the median time to the first staff answer (against an independent
computation) and which answered questions look like a text (the catalogue search's
matching, counted per word)."""

import statistics
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from catalog.search import terms
from feedback.questions import (
    ANSWER_WINDOW,
    Answered,
    median_time_to_answer,
    questions_index,
    similar_positions,
)

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)
moments = st.integers(min_value=-90 * 86_400, max_value=86_400).map(
    lambda seconds: NOW + timedelta(seconds=seconds)
)
waits = st.integers(min_value=0, max_value=40 * 86_400_000_000).map(
    lambda micros: timedelta(microseconds=micros)
)
questions = st.lists(
    st.builds(lambda answered, wait: Answered(answered - wait, answered), moments, waits),
    max_size=40,
)


def test_the_median_of_an_odd_and_an_even_count():
    def question(hours: float, answered_days_ago: float = 1) -> Answered:
        answered = NOW - timedelta(days=answered_days_ago)
        return Answered(answered - timedelta(hours=hours), answered)

    times = median_time_to_answer([question(1), question(5), question(2)], now=NOW)
    assert (times.median, times.answered) == (timedelta(hours=2), 3)
    even = median_time_to_answer([question(1), question(4)], now=NOW)
    assert even.median == timedelta(hours=2, minutes=30)
    # first answered 31 days ago: out of the window; in the future: not yet
    outside = [question(1, answered_days_ago=31), question(9, answered_days_ago=-1)]
    assert median_time_to_answer(outside, now=NOW).median is None
    assert timedelta(days=30) == ANSWER_WINDOW


@given(questions)
def test_the_median_equals_statistics_median_of_the_window_s_waits(found):
    in_window = [
        (q.first_answer_at - q.asked_at).total_seconds()
        for q in found
        if NOW - timedelta(days=30) < q.first_answer_at <= NOW
    ]
    times = median_time_to_answer(found, now=NOW)

    assert times.answered == len(in_window)
    if not in_window:
        assert times.median is None
    else:
        expected = statistics.median(in_window)
        assert abs(times.median.total_seconds() - expected) <= 1e-6


def test_similar_questions_count_words_as_the_search_finds_them():
    index = questions_index(
        [
            "Serve em pés largos?",
            "Quais são as numerações disponíveis?",
            "A entrega para Manaus demora?",
            "Tem numeração 44?",
        ]
    )
    assert similar_positions(index, "PÉS LARGO") == [0]
    assert similar_positions(index, "numeração") == [1, 3]  # plural meets singular
    assert similar_positions(index, "entraga manaus") == [2]  # one typo
    assert similar_positions(index, "entrega demorada em Belém") == []  # 1 of 3 words
    assert similar_positions(index, "de para") == []  # stop words only: find nothing here


WORDS = ["sola", "borracha", "tamanho", "cor", "azul", "entrega", "prazo"]  # none a typo away
text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)


@given(st.lists(text, max_size=12), text)
def test_similar_positions_hold_more_than_half_of_the_words_best_first(found, asked):
    """Against a count made here: a question is similar when it holds more than half of the
    words asked; the most words first, ties in the index's order; at most 3 by default."""
    words = asked.split()

    def held(position: int) -> int:
        return sum(word in terms(found[position]) for word in words)

    expected = [p for p in range(len(found)) if held(p) > len(words) / 2]
    expected.sort(key=lambda p: (-held(p), p))
    index = questions_index(found)

    assert similar_positions(index, asked, limit=50) == expected
    assert similar_positions(index, asked) == expected[:3]
