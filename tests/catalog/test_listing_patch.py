"""A patched catalogue answers exactly as one built from scratch (catalog/listing/): products
changed, added and taken out, in batches, with orders and the search index built before the
patch or only after it (hypothesis, no database)."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.db.models import Q
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.listing import DEFAULT_ORDER, AttributeFacet, Catalogue, Labels, ListedProduct
from catalog.pricing import ProductData
from catalog.search import Searchable, parse, positions_of, ranked
from catalog.tree import CategoryRow, build_index

# Roupas(1) > Camisetas(2), Calcas(3); Casa(4) > Cozinha(5)
CATEGORIES = build_index(
    [
        CategoryRow(1, "Roupas", "/roupas", None, True, 1),
        CategoryRow(2, "Camisetas", "/camisetas", 1, True, 1),
        CategoryRow(3, "Calcas", "/calcas", 1, True, 2),
        CategoryRow(4, "Casa", "/casa", None, True, 2),
        CategoryRow(5, "Cozinha", "/cozinha", 4, True, 1),
    ]
)
PARENT = {2: 1, 3: 1, 5: 4}
LABELS = Labels(
    brands=((1, "Alfa"), (2, "Beta"), (3, "Gama")),
    attributes=(
        AttributeFacet(10, "Cor", ((11, "Azul"), (12, "Verde"))),
        AttributeFacet(20, "Tamanho", ((21, "P"), (22, "M"), (23, "G"))),
    ),
    categories=CATEGORIES,
)
WORDS = ["camiseta", "calca", "caneca", "azul", "algodao", "listrada", "basica", "panela"]
START = datetime(2026, 1, 1, tzinfo=UTC)


@st.composite
def entries(draw, product_id: int) -> ListedProduct:
    categories = draw(st.sets(st.sampled_from([1, 2, 3, 4, 5]), max_size=2))
    with_ancestors = frozenset(categories | {PARENT[c] for c in categories if c in PARENT})
    name = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)))
    price = Decimal(draw(st.integers(1, 30))) * 5  # few prices: equal prices meet
    score = Decimal(draw(st.integers(0, 5)))
    return ListedProduct(
        id=product_id,
        name=name,
        priority=draw(st.integers(0, 2)),
        created_at=START + timedelta(days=draw(st.integers(0, 5))),
        brand_id=draw(st.sampled_from([None, 1, 2, 3])),
        category_ids=with_ancestors,
        value_ids=frozenset(draw(st.sets(st.sampled_from([11, 12, 21, 22, 23]), max_size=3))),
        seal_ids=frozenset(draw(st.sets(st.sampled_from([7, 8]), max_size=1))),
        sale_price=price,
        in_stock=draw(st.booleans()),
        score=score,
        reviews=draw(st.integers(0, 3)) if score else 0,
        pricing=ProductData(id=product_id, base_price=price),
        stored_price=None,
        searchable=Searchable(
            name=name,
            others=(draw(st.sampled_from(["Alfa", "Beta", ""])),),
            sku=f"SKU-{product_id}",
        ),
    )


@st.composite
def histories(draw):
    """(the first products, batches of {id: new entry or None}) over ids 1..40."""
    first = [draw(entries(pid)) for pid in sorted(draw(st.sets(st.integers(1, 40), max_size=30)))]
    batches = []
    for _ in range(draw(st.integers(1, 3))):
        ids = draw(st.sets(st.integers(1, 40), min_size=1, max_size=8))
        batches.append({pid: draw(st.none() | entries(pid)) for pid in sorted(ids)})
    return first, batches


QUERIES = [
    [],
    [Q(category__exact=1)],
    [Q(category__in=[3, 5])],
    [Q(brand__in=[1, 3])],
    [Q(attribute_value__in=[11, 22])],
    [Q(price__gte=Decimal(40)), Q(price__lte=Decimal(100))],
    [Q(price__gt=Decimal(50))],
    [Q(in_stock__exact=True)],
    [Q(in_stock__exact=False), Q(seal__exact=7)],
]
ORDERS = [("-priority", "name", "id"), ("price", "id"), ("-price", "id"), ("-score", "id")]
SEARCHES = ["camiseta", "calcas azul", "canecas", "listrda", "sku-3", "alfa panela"]


def answers(catalogue: Catalogue) -> list:
    found = []
    for conditions in QUERIES:
        for paths in ORDERS:
            query = catalogue.query().filter(*conditions).order_by(*paths)
            found.append((query.count(), [p.id for p in query[0:50]], [p.id for p in query[3:7]]))
        found.append(catalogue.query().filter(*conditions).facets())
    for text in SEARCHES:
        query = catalogue.query().search(parse(text)).order_by("relevance")
        found.append((text, query.count(), [p.id for p in query[0:50]]))
        suggest = catalogue.query().search(parse(text, prefix=True)).order_by("relevance")
        found.append(suggest.suggested(parse(text, prefix=True), limit=4))
    return found


def warm(catalogue: Catalogue) -> None:
    for paths in ORDERS:
        catalogue.ordered(paths)
        catalogue.ranks(paths)
    catalogue.search_index  # noqa: B018 - built now, so the patch must patch it


@settings(max_examples=150, deadline=None)
@given(history=histories(), warmed=st.booleans())
def test_a_patched_catalogue_answers_as_one_built_from_its_products(history, warmed):
    first, batches = history
    catalogue = Catalogue(products=first, labels=LABELS)
    current = {p.id: p for p in first}
    for batch in batches:
        if warmed:
            warm(catalogue)
        before = answers(catalogue)
        patched = catalogue.patched(batch)
        assert answers(catalogue) == before  # the old catalogue is left as it was
        for pid, entry in batch.items():
            if entry is None:
                current.pop(pid, None)
            else:
                current[pid] = entry
        built = Catalogue(products=[current[pid] for pid in sorted(current)], labels=LABELS)
        assert patched.query().count() == len(current)
        assert answers(patched) == answers(built)
        catalogue = patched


@settings(max_examples=30, deadline=None)
@given(history=histories())
def test_a_product_taken_out_and_back_keeps_its_position(history):
    first = history[0]
    if not first:
        return
    catalogue = Catalogue(products=first, labels=LABELS)
    product = first[0]
    gone = catalogue.patched({product.id: None})
    back = gone.patched({product.id: product})
    assert gone.query().count() == len(first) - 1
    assert back.position[product.id] == 0 and back.size == len(first)
    assert answers(back) == answers(catalogue)


def oracle_page(catalogue: Catalogue, query, paths: tuple[str, ...], page: slice) -> list[int]:
    """The page as the listing ordered it before it ordered only the page: every match
    sorted (relevance: `ranked`'s key over the default order's ranks), then sliced."""
    positions = positions_of(query.mask)
    if paths[0].lstrip("-") == "relevance":
        rank = catalogue.ranks(DEFAULT_ORDER)
        if query.match is None:
            chosen = sorted(positions, key=rank.__getitem__)
        else:
            chosen = ranked(query.match, positions, rank)
        if paths[0].startswith("-"):
            chosen.reverse()
    else:
        rank = catalogue.ranks(paths)
        chosen = sorted(positions, key=rank.__getitem__)
    return [catalogue.products[i].id for i in chosen[page]]


@settings(max_examples=100, deadline=None)
@given(
    history=histories(),
    texts=st.lists(st.sampled_from([*SEARCHES, ""]), min_size=1, max_size=3),
    pages=st.lists(st.tuples(st.integers(0, 30), st.none() | st.integers(0, 40)), max_size=4),
)
def test_pages_ordered_alone_equal_every_match_sorted(history, texts, pages):
    """Relevance by disjoint masks (SKU, words in the name, no typo) each in the default
    order, and every order walking or sorting only up to the page's end, give the slices of
    the whole sorted listing; the price facet the matches' lowest and highest prices."""
    first, batches = history
    # "canela" is one typo from "caneca": a word found exactly in some names, by a typo in others
    first = [
        replace(p, searchable=replace(p.searchable, name=f"{p.name} canela")) if p.id % 3 else p
        for p in first
    ]
    catalogue = Catalogue(products=first, labels=LABELS).patched(batches[0])
    orders = [("relevance",), ("-relevance",), *ORDERS]
    for text in [*texts, "caneca", "canela azul", "caneca sku-4"]:
        for prefix in (False, True):
            for paths in orders:
                query = catalogue.query().search(parse(text, prefix=prefix)).order_by(*paths)
                for start, stop in [(0, None), (0, 50), *pages]:
                    got = [p.id for p in query[start:stop]]
                    assert got == oracle_page(catalogue, query, paths, slice(start, stop))
            prices = [catalogue.products[i].sale_price for i in positions_of(query.mask)]
            assert catalogue.price_bounds(query.mask) == (
                min(prices, default=None),
                max(prices, default=None),
            )
