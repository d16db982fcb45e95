"""catalog/search.py, the pure analyzer and index: unit and property tests."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.search import (
    BadQuery,
    Searchable,
    SearchIndex,
    checked,
    distance,
    fold,
    normalized,
    parse,
    stem,
    terms,
)


@pytest.mark.parametrize(
    ("plural", "singular"),
    [
        ("camisetas", "camiseta"),
        ("calças", "calça"),
        ("coleções", "coleção"),
        ("calções", "calção"),
        ("limões", "limão"),
        ("pães", "pão"),
        ("mãos", "mão"),
        ("papéis", "papel"),
        ("jornais", "jornal"),
        ("lençóis", "lençol"),
        ("homens", "homem"),
        ("flores", "flor"),
        ("luzes", "luz"),
        ("azuis", "azul"),
        ("tênis", "tênis"),
    ],
)
def test_a_plural_meets_its_singular(plural, singular):
    assert terms(plural) == terms(singular)


def test_folding_ignores_case_and_accents():
    assert fold("Café CALÇA Pão Ação") == "cafe calca pao acao"
    assert terms("Camiseta-Básica 100% ALGODÃO") == ["camiseta", "basica", "100", "algodao"]


def test_stop_words_are_compared_before_folding():
    assert [w.text for w in parse("caneca de café").words] == ["caneca", "cafe"]
    assert [w.text for w in parse("tê de pvc").words] == ["te", "pvc"]  # "tê" folds to "te"
    assert [w.text for w in parse("de").words] == ["de"]  # only stop words: kept


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("camiseta", "camiseta", 0),
        ("camiseta", "camizeta", 1),
        ("camiseta", "camsieta", 1),
        ("camiseta", "camisa", 2),
        ("", "abc", 3),
        ("abc", "", 3),
        ("ab", "ba", 1),
    ],
)
def test_distance(a, b, expected):
    assert distance(a, b) == expected


def test_checked_refuses_what_cannot_be_searched():
    assert checked(["  Café  "]) == "  Café  "
    for values in ([], ["a", "b"], [""], ["x" * 101], ["a\x00"], ["%_"], ["   "]):
        with pytest.raises(BadQuery):
            checked(values)


def index_of(*names, others=(), skus=()):
    skus = list(skus) or [f"SKU-{i}" for i in range(len(names))]
    return SearchIndex(
        [Searchable(name, others, sku) for name, sku in zip(names, skus, strict=True)]
    )


def positions(index, text, *, prefix=False):
    mask = index.search(parse(text, prefix=prefix)).mask
    return [i for i in range(len(index.items)) if mask >> i & 1]


def test_typos_need_five_letters_and_one_edit():
    index = index_of("Camiseta", "Caixa", "Casa")
    assert positions(index, "camizeta") == [0]
    assert positions(index, "caixas") == [1]
    assert positions(index, "caiza") == [1]  # five letters, one substitution
    assert positions(index, "cssa") == []  # four letters: exact only
    assert positions(index, "camizzeta") == []  # two edits


def test_prefix_only_for_the_last_word():
    index = index_of("Camiseta azul", "Calça azul")
    assert positions(index, "cami", prefix=True) == [0]
    assert positions(index, "cami") == []
    assert positions(index, "cami azu", prefix=True) == []
    assert positions(index, "camiseta azu", prefix=True) == [0]


def test_sku_ranks_and_matches_as_a_whole_token():
    index = index_of("Jaqueta", "Camiseta basica", skus=["BASICA", "CAM-1"])
    match = index.search(parse("basica"))
    assert match.sku == 1 and match.mask == 0b11
    assert positions(index, "cam-1") == [1]


words_alphabet = st.sampled_from("abcdefghijlmnoprstuvzçãõáéíóúâêô")
word = st.text(words_alphabet, min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(word, min_size=1, max_size=4).map(" ".join), min_size=1, max_size=8))
def test_every_name_finds_its_product(names):
    """A product's own name, or any of its words (in any case, with or without accents),
    finds it; whatever is found holds every word (exact stem, or one typo on 5+ letters)."""
    index = index_of(*names)
    for i, name in enumerate(names):
        assert i in positions(index, name)
        assert i in positions(index, fold(name).upper())
        for one in name.split():
            found = positions(index, one)
            assert i in found
            for j in found:
                assert any(
                    term == stem(w) or (len(w) >= 5 and distance(term, stem(w)) <= 1)
                    for term in terms(names[j])
                    for w in [fold(one)]
                )


@settings(max_examples=200, deadline=None)
@given(word.filter(lambda w: len(fold(w)) >= 5), st.integers(0, 30), st.sampled_from("xyzkw"))
def test_one_substitution_in_a_long_word_still_finds_it(text, at, letter):
    folded = fold(text)
    at %= len(folded)
    typo = folded[:at] + letter + folded[at + 1 :]
    index = index_of(text)
    if stem(typo) != stem(folded) and distance(stem(typo), stem(folded)) > 1:
        return  # the typo touched a plural ending: the stems differ by more
    assert positions(index, typo) == [0]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_any_text_is_checked_or_refused_never_an_error(text):
    try:
        accepted = checked([text])
    except BadQuery:
        return
    assert 1 <= len(accepted) <= 100
    assert normalized(accepted) == " ".join(normalized(accepted).split()) != ""
    index = index_of("Camiseta", "Café")
    index.search(parse(accepted))
    index.search(parse(accepted, prefix=True))


@settings(max_examples=100, deadline=None)
@given(word, word)
def test_distance_is_a_symmetric_metric_bound(a, b):
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) <= max(len(a), len(b))
