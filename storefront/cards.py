"""Card-brand patterns (pure): one regular expression per brand, built from the BIN tables.

Each validates a whole number (ASCII digits, the brand's lengths) in ECMAScript and Python
alike: `[0-9]` (Python's `\\d` takes other digits), and `(?![\\s\\S])` for the end (Python's
`$` accepts a final newline). They are mutually exclusive: BINs inside another brand's shorter
prefix (Elo's 401178 in Visa's 4) are carved out of it; equal prefixes are an error at import.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class BinGroup:
    """Issuer prefixes ("401178", or a range "506699-506778") sharing card-number lengths."""

    prefixes: tuple[str, ...]
    lengths: tuple[int, ...]


@dataclass(frozen=True)
class CardBrand:
    key: str
    groups: tuple[BinGroup, ...]


# Published BIN tables disagree, Elo's especially; each range names its source.
#  [braintree] https://github.com/braintree/credit-card-type/blob/main/src/lib/card-types.ts
#  [bin-cc]    https://github.com/erikhenrique/bin-cc (the gist 5931368), data/brands.json and
#              data/sources/*.json
#  [mc-2]      Mastercard's 2-series BINs 222100-272099 (since 2017)
#              https://www.mastercard.us/en-us/business/overview/start-accepting/2-series-bin.html

# [braintree] elo, length 16. [bin-cc] data/sources/elo/base.json lists the same ranges
# except 650901-650978, which it widens to 65090-65099; we keep the narrower range that
# both tables agree on.
_ELO_BINS = (
    "401178 401179 431274 438935 451416 457393 457631 457632 504175 506699-506778 509000-509999 "
    "627780 636297 636368 650031-650033 650035-650051 650405-650439 650485-650538 650541-650598 "
    "650700-650718 650720-650727 650901-650978 651652-651679 655000-655019 655021-655058"
)
CARD_BRANDS: tuple[CardBrand, ...] = (
    # [braintree] visa: pattern 4, lengths 16, 18, 19; plus the legacy 13-digit numbers still
    # issued and used by published test cards (4222222222222).
    CardBrand("visa", (BinGroup(("4",), (13, 16, 18, 19)),)),
    # [braintree] mastercard: [51, 55] and [2221, 2229], [223, 229], [23, 26], [270, 271],
    # 2720 (= 2221-2720, [mc-2]); length 16.
    CardBrand("master", (BinGroup(("51-55", "2221-2720"), (16,)),)),
    # [braintree] american-express: 34, 37; length 15.
    CardBrand("americanexpress", (BinGroup(("34", "37"), (15,)),)),
    CardBrand("elo", (BinGroup(tuple(_ELO_BINS.split()), (16,)),)),
    CardBrand(
        "hipercard",
        (
            # [braintree] hipercard: 606282, length 16; [bin-cc] 606282\d{10}(\d{3})? admits 19.
            BinGroup(("606282",), (16, 19)),
            # [bin-cc] data/brands.json "^3841[046]0", data/sources/hipercard.json length 19.
            BinGroup(("384100", "384140", "384160"), (19,)),
        ),
    ),
    # [bin-cc] data/sources/aura.json: "^50", lengths 16-19. Elo's 50xxxx BINs (504175,
    # 506699-506778, 509000-509999) are carved out ([bin-cc] gives Elo priority over Aura).
    CardBrand("aura", (BinGroup(("50",), (16, 17, 18, 19)),)),
)

_END = r"(?![\s\S])"  # end of input in both engines (Python's `$` accepts a final "\n")


def _expand(prefix: str) -> list[str]:
    """ "506699-506778" -> ["506699", ..., "506778"]; "4" -> ["4"]."""
    if "-" not in prefix:
        return [prefix]
    start, end = prefix.split("-")
    if len(start) != len(end) or int(start) > int(end):
        raise ValueError(f"Bad BIN range {prefix!r}.")
    return [str(number).zfill(len(start)) for number in range(int(start), int(end) + 1)]


def _runs(numbers: Iterable[int]) -> list[list[int]]:
    """{1, 2, 3, 7} -> [[1, 2, 3], [7]]: the distinct numbers, ascending, in consecutive runs."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return runs


def _either(branches: list[str]) -> str:
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


def _by_length(strings: Iterable[str]) -> dict[int, set[str]]:
    by_length: dict[int, set[str]] = defaultdict(set)
    for string in strings:
        by_length[len(string)].add(string)
    return dict(sorted(by_length.items()))


def _char_class(digits: Iterable[str]) -> str:
    """{"0","1","2","5"} -> "[0-25]"; {"7"} -> "7"."""
    runs = _runs(int(digit) for digit in digits)
    if runs == [runs[0][:1]]:
        return str(runs[0][0])
    parts = [f"{run[0]}-{run[-1]}" if len(run) >= 3 else "".join(map(str, run)) for run in runs]
    return "[" + "".join(parts) + "]"


def _any_digits(count: int) -> str:
    return "[0-9]" if count == 1 else f"[0-9]{{{count}}}"


def _alternation(strings: set[str]) -> str:
    """A compact regex matching exactly `strings` (digit strings of one length): a trie
    whose siblings with equal subtrees share a character class (509000-509999: `509[0-9]{3}`)."""
    length = len(next(iter(strings)))
    if length == 0:
        return ""
    if len(strings) == 10**length:
        return _any_digits(length)
    tails_by_head: dict[str, set[str]] = defaultdict(set)
    for string in strings:
        tails_by_head[string[0]].add(string[1:])
    heads_by_tail: dict[str, list[str]] = defaultdict(list)
    for head, tails in tails_by_head.items():
        heads_by_tail[_alternation(tails)].append(head)
    return _either(sorted(_char_class(heads) + tail for tail, heads in heads_by_tail.items()))


def _digit_counts(counts: Iterable[int]) -> str:
    """{12, 15, 17, 18} -> "(?:[0-9]{12}|[0-9]{15}|[0-9]{17,18})"."""
    runs = _runs(counts)
    return _either([_any_digits(r[0]) if len(r) == 1 else f"[0-9]{{{r[0]},{r[-1]}}}" for r in runs])


def _prefix_set_regex(prefixes: Iterable[str]) -> str:
    return _either([_alternation(strings) for strings in _by_length(prefixes).values()])


def _brand_prefixes(brand: CardBrand) -> set[str]:
    return {bin_ for group in brand.groups for prefix in group.prefixes for bin_ in _expand(prefix)}


def _brand_pattern(brand: CardBrand, brands: tuple[CardBrand, ...]) -> str:
    own = _brand_prefixes(brand)
    others = set().union(*(_brand_prefixes(other) for other in brands if other is not brand))
    if clash := own & others:
        raise ValueError(f"BINs {sorted(clash)[:5]} belong to {brand.key} and another brand.")
    carved_out = {
        other for other in others for prefix in own if other.startswith(prefix) and other != prefix
    }
    branches = []
    for group in brand.groups:
        bins = (bin_ for prefix in group.prefixes for bin_ in _expand(prefix))
        for length, strings in _by_length(bins).items():
            rest = _digit_counts(total - length for total in group.lengths)
            branches.append(_alternation(strings) + rest)
    exclusion = f"(?!{_prefix_set_regex(carved_out)})" if carved_out else ""
    return f"^{exclusion}{_either(branches)}{_END}"


def card_flag_patterns(brands: tuple[CardBrand, ...] = CARD_BRANDS) -> dict[str, str]:
    """{brand key: regular expression source}, in the contract's key order."""
    return {brand.key: _brand_pattern(brand, brands) for brand in brands}


CARD_FLAG_PATTERNS: dict[str, str] = card_flag_patterns()
