"""Search in Portuguese over the listed catalogue (pure: plain data in and out, no ORM).

The analyzer folds a text (accents off, case folded), cuts it into words of letters and
digits, and reduces each word to a light Portuguese stem (plural endings: -s, -ções/-ção,
-ões/-ão, -ães, -ais, -éis, -óis, -uis, -ns, -res, -zes, -les): the same function runs on
the catalogue and on the query, so a plural meets its singular. `SearchIndex` is an
inverted index of those stems (bit masks over the catalogue's positions, as
catalog/listing.py's), one for the name and one for the other fields (brand, categories,
search description), a symmetric-deletion neighbourhood of the stems for one typo
(candidates confirmed by the Damerau-Levenshtein distance, words of five letters or more),
the sorted folded words for prefixes (suggest), and the exact SKUs.
"""

from __future__ import annotations

import bisect
import copy
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

MAX_QUERY = 100  # characters of `q`
TYPO_MIN = 5  # letters of a word that may carry one typo

_WORD = re.compile(r"[0-9a-z]+")

# Unfolded: "tê" folds to "te", which is not dropped (the list is compared before folding).
STOP_WORDS = frozenset(
    [
        "a",
        "o",
        "as",
        "os",
        "e",
        "de",
        "da",
        "do",
        "das",
        "dos",
        "em",
        "na",
        "no",
        "nas",
        "nos",
        "um",
        "uma",
        "uns",
        "umas",
        "para",
        "por",
        "com",
        "sem",
        "ao",
        "aos",
        "à",
        "às",
        "pra",
        "pro",
    ]
)

# (folded ending, replacement), longest first: plurals to their singular's stem.
_ENDINGS = (
    ("coes", "cao"),
    ("oes", "ao"),
    ("aes", "ao"),
    ("ais", "al"),
    ("eis", "el"),
    ("ois", "ol"),
    ("uis", "ul"),
    ("res", "r"),
    ("zes", "z"),
    ("les", "l"),
    ("ns", "m"),
)
_VOWELS = frozenset("aeiou")


def fold(text: str) -> str:
    """Lower case without accents ("Calça" -> "calca"; "ß" -> "ss")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def stem(word: str) -> str:
    """A folded word's light stem: plural endings reduced to the singular's."""
    if len(word) <= 3 or word.isdigit():
        return word
    for ending, replacement in _ENDINGS:
        if word.endswith(ending) and len(word) > len(ending):
            return word[: -len(ending)] + replacement
    if word.endswith("s") and word[-2] in _VOWELS:
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """The folded words of a text, in order."""
    return _WORD.findall(fold(text))


def terms(text: str) -> list[str]:
    """The stems of a text's words (what the index holds)."""
    return [stem(word) for word in words(text)]


def distance(a: str, b: str) -> int:
    """Damerau-Levenshtein distance (optimal string alignment)."""
    if a == b:
        return 0
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def _deletions(term: str) -> set[str]:
    return {term[:i] + term[i + 1 :] for i in range(len(term))}


@dataclass(frozen=True)
class Searchable:
    """What one product is found by."""

    name: str
    others: Sequence[str]  # brand, category names, search description
    sku: str


@dataclass(frozen=True)
class QueryWord:
    """One word (or SKU-like token) of a query."""

    text: str  # as typed (folded)
    parts: tuple[str, ...]  # its folded words ("cam-01" -> cam, 01)
    prefix: bool = False  # the last word of a suggest query


@dataclass(frozen=True)
class Query:
    words: tuple[QueryWord, ...]

    def __bool__(self) -> bool:
        return bool(self.words)


def parse(text: str, *, prefix: bool = False) -> Query:
    """The query's words: whitespace-separated tokens; stop words dropped when another word
    stays; `prefix`: the last token also matches the start of a word."""
    tokens = [token for token in text.split() if words(token)]
    kept = [token for token in tokens if token.casefold() not in STOP_WORDS] or tokens
    found = [QueryWord(fold(token), tuple(words(token))) for token in kept]
    if prefix and found and tokens and kept[-1] is tokens[-1]:
        found[-1] = QueryWord(found[-1].text, found[-1].parts, prefix=True)
    return Query(tuple(found))


class BadQuery(ValueError):
    """`q` cannot be searched (the message says why)."""


def checked(values: Sequence[str]) -> str:
    """The one `q` a request sent, checked: 1-100 characters, no control character, at least
    one letter or digit."""
    if len(values) != 1:
        raise BadQuery("must be given once")
    text = values[0]
    if not text or len(text) > MAX_QUERY:
        raise BadQuery(f"must have 1 to {MAX_QUERY} characters")
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in text if c != "\t"):
        raise BadQuery("cannot contain control characters")
    if not words(text):
        raise BadQuery("must contain a letter or a digit")
    return text


def normalized(text: str) -> str:
    """The query as counted: folded words joined by one space."""
    return " ".join(words(text))


@dataclass
class Match:
    """The positions a query found, and what ranks them."""

    mask: int
    sku: int  # positions whose SKU is a word of the query
    names: tuple[int, ...]  # per query word, the found positions it matched in the name
    exact: int  # positions every word of which matched without a typo

    @cached_property
    def in_name(self) -> dict[int, int]:
        """Position -> how many query words matched in its name (those matching one)."""
        found: dict[int, int] = {}
        for name in self.names:
            for position in positions_of(name):
                found[position] = found.get(position, 0) + 1
        return found

    def groups(self, within: int) -> list[int]:
        """The positions of `within` (found ones) in relevance's ties: disjoint masks, an
        exact SKU first, then more query words in the name, then no typo (`ranked`'s key but
        the last part: inside a mask, the catalogue's default order decides)."""
        at_least = [within] + [0] * len(self.names)  # at_least[c]: c words or more in the name
        for name in self.names:
            if name & within:
                for count in range(len(self.names), 0, -1):
                    at_least[count] |= at_least[count - 1] & name
        at_least.append(0)
        found = []
        for sku in (within & self.sku, within & ~self.sku):
            for count in range(len(self.names), -1, -1):
                tied = sku & at_least[count] & ~at_least[count + 1]
                found += [part for part in (tied & self.exact, tied & ~self.exact) if part]
        return found


@dataclass
class SearchIndex:
    """The inverted index of a catalogue's Searchables (position i: bit i)."""

    items: Sequence[Searchable]
    _name: dict[str, int] = field(default_factory=dict, repr=False)
    _other: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        name_positions: dict[str, list[int]] = {}
        other_positions: dict[str, list[int]] = {}
        surface: dict[str, list[int]] = {}
        name_surface: dict[str, set[int]] = {}
        skus: dict[str, list[int]] = {}
        for i, item in enumerate(self.items):
            for term in set(terms(item.name)):
                name_positions.setdefault(term, []).append(i)
            for text in item.others:
                for term in set(terms(text)):
                    other_positions.setdefault(term, []).append(i)
            for word in set(words(" ".join((item.name, *item.others)))):
                surface.setdefault(word, []).append(i)
            for word in set(words(item.name)):
                name_surface.setdefault(word, set()).add(i)
            skus.setdefault(fold(item.sku.strip()), []).append(i)
        self._name = {term: bits(found) for term, found in name_positions.items()}
        self._other = {term: bits(found) for term, found in other_positions.items()}
        # positions, not masks: a SKU names one product or few (a mask costs a bit per product)
        self._skus = {sku: tuple(found) for sku, found in skus.items() if sku}
        self._surface = sorted(surface)
        self._surface_masks = [
            (bits(surface[word]), bits(name_surface.get(word, ()))) for word in self._surface
        ]
        neighbours: dict[str, list[str]] = {}
        for term in sorted(set(self._name) | set(self._other)):
            _add_neighbour(neighbours, term)
        self._neighbours = neighbours

    def patched(self, changes: Mapping[int, Searchable]) -> SearchIndex:
        """A new index where each position of `changes` holds its new item (a position past
        the end is added); this index is left as it was, its unchanged parts shared."""
        new = copy.copy(self)
        new.items = items = list(self.items)
        name, other, skus = dict(self._name), dict(self._other), dict(self._skus)
        surface, surface_masks = list(self._surface), list(self._surface_masks)
        neighbours, copied = self._neighbours, False
        for position, item in sorted(changes.items()):
            bit = 1 << position
            old = items[position] if position < len(items) else None
            while len(items) <= position:
                items.append(Searchable(name="", others=(), sku=""))
            items[position] = item
            for found, before, after in (
                (name, _name_terms(old), _name_terms(item)),
                (other, _other_terms(old), _other_terms(item)),
            ):
                for term in before - after:
                    found[term] &= ~bit
                for term in after - before:
                    if term not in name and term not in other:
                        if not copied:
                            neighbours, copied = dict(neighbours), True
                        _add_neighbour(neighbours, term, copy_lists=True)
                    found[term] = found.get(term, 0) | bit
            old_sku, new_sku = _sku(old), _sku(item)
            for term in old_sku - new_sku:
                skus[term] = tuple(i for i in skus[term] if i != position)
            for term in new_sku - old_sku:
                skus[term] = tuple(sorted({*skus.get(term, ()), position}))
            old_words, _ = _surface_words(old)
            new_words, new_name = _surface_words(item)
            for word in old_words | new_words:
                at = bisect.bisect_left(surface, word)
                if at == len(surface) or surface[at] != word:
                    surface.insert(at, word)
                    surface_masks.insert(at, (0, 0))
                every, in_name = surface_masks[at]
                every = every | bit if word in new_words else every & ~bit
                in_name = in_name | bit if word in new_name else in_name & ~bit
                surface_masks[at] = (every, in_name)
        new._name, new._other, new._skus = name, other, skus
        new._surface, new._surface_masks, new._neighbours = surface, surface_masks, neighbours
        return new

    def near(self, term: str) -> list[str]:
        """Vocabulary terms within one edit of `term` (itself excluded)."""
        candidates: set[str] = set()
        for key in _deletions(term) | {term}:
            candidates.update(self._neighbours.get(key, ()))
        candidates.discard(term)
        return sorted(t for t in candidates if distance(t, term) <= 1)

    def _prefixed(self, start: str) -> tuple[int, int]:
        """(all, in name) masks of the words starting with `start`."""
        mask = name = 0
        first = bisect.bisect_left(self._surface, start)
        for index in range(first, len(self._surface)):
            if not self._surface[index].startswith(start):
                break
            mask |= self._surface_masks[index][0]
            name |= self._surface_masks[index][1]
        return mask, name

    def _part(self, word: str, *, prefix: bool) -> tuple[int, int, int]:
        """(all, in name, exact) masks of one folded word."""
        term = stem(word)
        name = self._name.get(term, 0)
        exact = name | self._other.get(term, 0)
        found = exact
        if prefix:
            prefixed, prefixed_name = self._prefixed(word)
            found |= prefixed
            name |= prefixed_name
            exact = found
        if len(word) >= TYPO_MIN:
            for near in self.near(term):
                near_name = self._name.get(near, 0)
                name |= near_name
                found |= near_name | self._other.get(near, 0)
        return found, name, exact

    def _word(self, query_word: QueryWord) -> tuple[int, int, int, int]:
        """(found, in name, exact, SKU) masks of one query word: each of its parts found."""
        sku = bits(self._skus.get(query_word.text, ()))
        found = name = exact = (1 << len(self.items)) - 1
        for index, part in enumerate(query_word.parts):
            last = query_word.prefix and index == len(query_word.parts) - 1
            part_found, part_name, part_exact = self._part(part, prefix=last)
            found &= part_found
            name &= part_name
            exact &= part_exact
        return found | sku, name, exact | sku, sku

    def search(self, query: Query) -> Match:
        everything = (1 << len(self.items)) - 1
        mask, sku_mask, exact_all = everything, 0, everything
        name_masks: list[int] = []
        for query_word in query.words:
            found, name, exact, sku = self._word(query_word)
            sku_mask |= sku
            mask &= found
            exact_all &= exact
            name_masks.append(name)
        return Match(
            mask=mask,
            sku=sku_mask & mask,
            names=tuple(name & mask for name in name_masks),
            exact=exact_all & mask,
        )

    def word_matches(self, query: Query) -> list[tuple[int, int]]:
        """Per word of `query`, the (found, found without a typo) masks, matched as `search`
        matches each word: for rankings by the words found rather than all of them (similar
        questions, feedback/questions.py)."""
        return [(found, exact) for found, _, exact, _ in map(self._word, query.words)]


def _name_terms(item: Searchable | None) -> set[str]:
    return set(terms(item.name)) if item is not None else set()


def _other_terms(item: Searchable | None) -> set[str]:
    return {term for text in item.others for term in terms(text)} if item is not None else set()


def _sku(item: Searchable | None) -> set[str]:
    sku = fold(item.sku.strip()) if item is not None else ""
    return {sku} if sku else set()


def _surface_words(item: Searchable | None) -> tuple[set[str], set[str]]:
    """(the folded words of every field, those of the name)."""
    if item is None:
        return set(), set()
    return set(words(" ".join((item.name, *item.others)))), set(words(item.name))


def _add_neighbour(
    neighbours: dict[str, list[str]], term: str, *, copy_lists: bool = False
) -> None:
    """File `term` under its deletions (and itself) for `near` (typos); `copy_lists`: the
    lists may be shared with another index, so a changed one is a new list."""
    if len(term) >= TYPO_MIN - 1:
        for key in _deletions(term) | {term}:
            if copy_lists:
                neighbours[key] = [*neighbours.get(key, ()), term]
            else:
                neighbours.setdefault(key, []).append(term)


def ranked(match: Match, positions: Iterable[int], rank: Sequence[int]) -> list[int]:
    """`positions` by relevance: an exact SKU first, then more query words in the name, then
    no typo, then `rank` (the catalogue's default order)."""
    sku, exact, in_name = (
        set(positions_of(match.sku)),
        set(positions_of(match.exact)),
        match.in_name,
    )
    return sorted(
        positions,
        key=lambda i: (i not in sku, -in_name.get(i, 0), i not in exact, rank[i]),
    )


def bits(positions: Iterable[int]) -> int:
    """The int with bit i set for each position i (built in bytes: linear, where or-ing
    one bit at a time into a growing int is quadratic)."""
    found = list(positions)
    if not found:
        return 0
    data = bytearray(max(found) // 8 + 1)
    for position in found:
        data[position >> 3] |= 1 << (position & 7)
    return int.from_bytes(data, "little")


def positions_of(mask: int) -> list[int]:
    """The positions of the mask's set bits, ascending."""
    members = format(mask, "b")[::-1]
    found = []
    position = members.find("1")
    while position != -1:
        found.append(position)
        position = members.find("1", position + 1)
    return found
