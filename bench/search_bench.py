"""Search in Portuguese (catalog/search.py) on a synthetic store of 20,000 products: the
index's build time and the search's latency, in process (no HTTP, no database: the index is
built from the kept catalogue, so this is what a search adds to a listing or suggest miss).

    .venv/bin/python -m bench.search_bench [--products 20000] [--searches 2000]
    .venv/bin/python -m bench.search_bench --data-set [--database-url URL]

With `--data-set`: the load benchmark's search row on its data set instead (see
`on_the_data_set`): the share of its random words (a fifth with a typo) that find a product,
and whether an exact SKU comes first; writes bench/results/search-data-set-<database>.json.

Searches are random words of the catalogue's names, brands, categories and descriptions, a
fifth of them with one typo (a substitution, in words of five letters or more); exact SKUs
must come first; suggest's prefixes are 3-5 letters of a catalogue word. Writes
bench/results/search.json.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from catalog.search import Searchable, SearchIndex, fold, parse, positions_of, ranked, words


def _listed(text: str) -> list[str]:
    return text.split()


NOUNS = _listed(
    "camiseta calça bermuda jaqueta casaco vestido saia blusa camisa meia tênis sandália "
    "bota chinelo boné mochila bolsa carteira cinto relógio óculos caneca copo prato panela "
    "frigideira talher toalha lençol travesseiro cobertor almofada tapete cortina luminária "
    "abajur cadeira mesa estante armário gaveta sofá colchão livro caderno caneta lápis "
    "borracha estojo café chá açúcar biscoito chocolate limão maçã pão queijo leite sabonete "
    "xampu condicionador perfume creme escova pente secador"
)
ADJECTIVES = _listed(
    "básica estampada listrada lisa infantil feminina masculina esportiva térmica "
    "impermeável clássica moderna rústica orgânico natural premium compacta dobrável "
    "elétrica manual grande pequena média leve resistente macia"
)
COLOURS = _listed("azul vermelho verde amarelo preto branco cinza rosa marrom bege roxo laranja")
MATERIALS = _listed("algodão couro linho seda lã poliéster madeira vidro cerâmica inox bambu")
CATEGORIES = _listed(
    "Roupas Calçados Acessórios Casa Cozinha Cama Banho Decoração Móveis Papelaria "
    "Mercearia Bebidas Beleza Higiene Esportes Infantil Escritório Jardim "
    "Eletrônicos Ferramentas"
)
BRANDS = [
    f"Marca {name}"
    for name in _listed("Alfa Beta Gama Delta Sigma Ômega Aurora Boreal Cruzeiro Estrela")
]


def catalogue(size: int, rng: random.Random) -> list[Searchable]:
    items = []
    for n in range(size):
        name = " ".join(
            (
                rng.choice(NOUNS).capitalize(),
                rng.choice(ADJECTIVES),
                rng.choice(COLOURS),
                *((f"{rng.randint(1, 60)}",) if rng.random() < 0.3 else ()),
            )
        )
        others = (
            rng.choice(BRANDS),
            *rng.sample(CATEGORIES, rng.randint(1, 3)),
            f"{rng.choice(MATERIALS)} {rng.choice(ADJECTIVES)}" if rng.random() < 0.6 else "",
        )
        items.append(Searchable(name=name, others=others, sku=f"SKU-{n:06d}"))
    return items


def typo(word: str, rng: random.Random) -> str:
    at = rng.randrange(len(word))
    letter = rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c != word[at]])
    return word[:at] + letter + word[at + 1 :]


def timed(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(len(ordered) * 0.95)] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


def on_the_data_set(database_url: str | None, *, skus: int, through_http: int) -> dict:
    """The load benchmark's search row on its data set of 20,000 products: every search of
    the row's path list (bench/paths.py: random catalogue words, a fifth with a typo) run
    through the listing's query in process (what `q` does: parse, search, relevance), a
    sample of them and of exact SKUs through HTTP (Django's test client, every middleware)."""
    from bench.listing_change import setup

    setup(database_url)
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from bench import paths
    from bench.dataset.build import SEED as DATA_SEED
    from catalog.selectors.listing import catalogue_build
    from tests.helpers import cold_caches

    rng = random.Random(f"{DATA_SEED}:paths:search")  # the row's own draw (bench/paths.py)
    drawn = paths.search_words(paths.search_vocabulary(), count=paths.CATALOGUE_PATHS, rng=rng)
    catalogue = catalogue_build(moment=timezone.now())
    catalogue.search_index  # noqa: B018 - built before the searches are timed
    times: dict[bool, list[float]] = {False: [], True: []}
    found: dict[bool, int] = {False: 0, True: 0}
    missed = []
    for text, typed in drawn:
        begun = time.perf_counter()
        query = catalogue.query().search(parse(text)).order_by("relevance")
        first = query[0:20]
        times[typed].append(time.perf_counter() - begun)
        found[typed] += bool(first)
        if not first:
            missed.append(text)
    cold_caches()
    client = Client(SERVER_NAME="127.0.0.1", HTTP_HOST="127.0.0.1")
    sample = random.Random(7).sample(drawn, through_http)
    http_found = 0
    for text, _ in sample:
        body = client.get("/publics/products", {"q": text, "limit": 20}).json()
        http_found += bool(body["data"]["registers"])
    listed = [p for p in catalogue.products if catalogue.everything >> catalogue.position[p.id] & 1]
    sku_first = 0
    for product in random.Random(8).sample(listed, skus):
        sku = product.searchable.sku if product.searchable else ""
        typed_sku = sku if len(sku) % 2 else sku.lower()  # as printed, or in lower case
        body = client.get("/publics/products", {"q": typed_sku, "limit": 5}).json()
        sku_first += [r["id"] for r in body["data"]["registers"][:1]] == [product.id]
    searches = len(drawn)
    return {
        "data_set": "the load benchmark's (bench/dataset): 20,000 main products",
        "database": connection.vendor,
        "products_listed": catalogue.query().count(),
        "vocabulary_words": len(paths.search_vocabulary()),
        "searches": searches,
        "with_a_typo": len(times[True]),
        "found_share": round((found[False] + found[True]) / searches, 4),
        "found_share_without_typo": round(found[False] / max(1, len(times[False])), 4),
        "found_share_with_typo": round(found[True] / max(1, len(times[True])), 4),
        "not_found_examples": missed[:20],
        "one_word_in_process": timed(times[False]),
        "one_word_with_typo_in_process": timed(times[True]),
        "through_http": {
            "searches": through_http,
            "found_share": round(http_found / through_http, 4),
        },
        "exact_sku_first_through_http": {"skus": skus, "first_share": sku_first / skus},
        "note": "in process: the listing's search + relevance + the first page of 20 "
        "(no rendering); through HTTP: Django's test client, every middleware",
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--products", type=int, default=20_000)
    parser.add_argument("--searches", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--out", default=None)
    parser.add_argument(
        "--data-set", action="store_true", help="the load benchmark's data set, not a synthetic one"
    )
    parser.add_argument("--database-url", default=None, help="with --data-set: PostgreSQL")
    args = parser.parse_args()
    results = Path(__file__).with_name("results")
    if args.data_set:
        result = on_the_data_set(args.database_url, skus=500, through_http=1000)
        out = args.out or results / f"search-data-set-{result['database']}.json"
        Path(out).write_text(json.dumps(result, indent=1) + "\n")
        print(json.dumps(result, indent=1))
        return
    args.out = args.out or str(results / "search.json")
    rng = random.Random(args.seed)
    items = catalogue(args.products, rng)
    started = time.perf_counter()
    index = SearchIndex(items)
    build = time.perf_counter() - started
    rank = list(range(len(items)))  # the default order's ranks (a constant here)
    vocabulary = sorted({w for item in items for w in words(" ".join((item.name, *item.others)))})

    def search(text: str, *, prefix: bool = False) -> tuple[list[int], float]:
        begun = time.perf_counter()
        match = index.search(parse(text, prefix=prefix))
        positions = positions_of(match.mask)
        first = ranked(match, positions, rank)[:10]
        return first, time.perf_counter() - begun

    plain, typed, found_plain, found_typed = [], [], 0, 0
    for n in range(args.searches):
        word = rng.choice(vocabulary)
        if n % 5 == 0 and len(word) >= 5 and not word.isdigit():
            first, spent = search(typo(word, rng))
            typed.append(spent)
            found_typed += bool(first)
        else:
            first, spent = search(word)
            plain.append(spent)
            found_plain += bool(first)
    sku_first, sku_times = 0, []
    for _ in range(500):
        position = rng.randrange(len(items))
        first, spent = search(items[position].sku.lower())
        sku_times.append(spent)
        sku_first += first[:1] == [position]
    two_words, two_found = [], 0
    for _ in range(500):
        item = rng.choice(items)
        chosen = rng.sample(words(item.name)[:3], 2)
        first, spent = search(" ".join(chosen))
        two_words.append(spent)
        two_found += bool(first)
    prefixes, prefix_found = [], 0
    for _ in range(1000):
        word = rng.choice([w for w in vocabulary if len(w) >= 5])
        first, spent = search(fold(word)[: rng.randint(3, 5)], prefix=True)
        prefixes.append(spent)
        prefix_found += bool(first)
    searches = len(plain) + len(typed)
    result = {
        "products": args.products,
        "vocabulary_words": len(vocabulary),
        "index_build_s": round(build, 3),
        "searches": searches,
        "found_share": round((found_plain + found_typed) / searches, 4),
        "found_share_with_typo": round(found_typed / max(1, len(typed)), 4),
        "one_word": timed(plain),
        "one_word_with_typo": timed(typed),
        "two_words_of_a_name": {**timed(two_words), "found_share": two_found / 500},
        "exact_sku": {**timed(sku_times), "first_share": sku_first / 500},
        "suggest_prefix_3_to_5": {**timed(prefixes), "found_share": prefix_found / 1000},
        "note": "in process, search + relevance ranking of the first 10 (no HTTP, no rendering)",
    }
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
