"""Path lists of the load benchmark's random-key rows, drawn from the benchmark database.

    .venv/bin/python -m bench.paths DIR     (settings from DJANGO_SETTINGS_MODULE,
                                             default bench.settings)

Writes one file per row into DIR (`<key>.txt`, one request path a line, brackets
percent-encoded) and `manifest.json`: per row its file, how many paths, and a few sample
paths with what their answer must hold (the check before the load, bench/targets.py).
Prints the manifest as JSON on the last line. Every draw comes from `random.Random`
seeded with the data set's seed and the row's key, over rows read in id order: the same
database gives the same files.

Lives outside bench/dataset so that changing it does not change the data set's
fingerprint (which rebuilds the database). Import the functions after `django.setup()`.
"""

import argparse
import json
import os
import random
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import quote

from bench.targets import q

QUOTES = 20_000
CARTS = 20_000
SIMILAR = 5_000
PAGE = 20
SAMPLES = 5
ROWS = ("quote", "upsell", "subtree", "reviews", "comments", "zipcode", "similar")


def _rng(seed: int, key: str) -> random.Random:
    return random.Random(f"{seed}:paths:{key}")


def _priced_products() -> list[tuple[int, int | None]]:
    """(id, parent id) of the sellable products with a price in the default trade policy
    and no variations of their own (what a cart or a quote holds), in id order: of the
    data set's regular products (bench/dataset/build.py, Size), as before it grew."""
    from django.db.models import Q

    from bench.dataset.build import FULL
    from catalog.models import Product, ProductPrice, TradePolicy

    policy = TradePolicy.objects.default()
    priced = ProductPrice.objects.filter(trade_policy=policy).values("product_id")
    with_variations = Product.objects.exclude(parent=None).values("parent_id")
    mains = Product.objects.filter(parent=None).order_by("id").values_list("id", flat=True)
    regular = list(mains[: FULL.regular_products])
    return list(
        Product.objects.sellable()
        .filter(pk__in=priced)
        .filter(Q(pk__in=regular) | Q(parent_id__in=regular))
        .exclude(pk__in=with_variations)
        .order_by("id")
        .values_list("id", "parent_id")
    )


def quote_paths(*, count: int, rng: random.Random) -> tuple[list[str], list[dict]]:
    """Quotes of 1-3 random priced products (quantity 1-3 each) to a random postal code
    inside a row of an active Brazilian shipping table."""
    from shipping.models import ShippingRow, ShippingTable

    products = [pk for pk, _ in _priced_products()]
    tables = ShippingTable.objects.active().filter(country="BRA")
    ranges = list(
        ShippingRow.objects.filter(table__in=tables)
        .order_by("id")
        .values_list("initial_zipcode", "final_zipcode")
    )
    ranges = [(int(low), int(high)) for low, high in ranges if low.isdigit() and high.isdigit()]
    if not products or not ranges:
        raise RuntimeError("no priced product or no Brazilian shipping row to quote")
    paths, expects = [], []
    for _ in range(count):
        low, high = ranges[rng.randrange(len(ranges))]
        code = f"{rng.randint(low, high):08d}"
        chosen = rng.sample(products, k=min(len(products), rng.randint(1, 3)))
        path = f"/publics/products/quote?targetCountryCode=BRA&targetZipCode={code}"
        for index, product in enumerate(chosen):
            quantity = rng.randint(1, 3)
            path += f"&items[{index}][productId]={product}&items[{index}][quantity]={quantity}"
        paths.append(q(path))
        expects.append({"product_ids": sorted(chosen)})
    return paths, expects


def upsell_paths(*, count: int, rng: random.Random) -> tuple[list[str], list[dict]]:
    """Carts holding the demo cart offer's trigger product (a random variation of it, as
    the replay row) plus 0-3 other random priced products or variations: never the
    offered product (an offer is not made for a product already in the cart)."""
    from catalog.models import Product
    from demo.marketing import UPSELL_SKUS

    trigger = Product.objects.get(sku=UPSELL_SKUS["cart-trigger"])
    offered = set(Product.objects.filter(sku__in=UPSELL_SKUS.values()).values_list("id", flat=True))
    trigger_variations = list(
        trigger.variations.active().order_by("id").values_list("id", flat=True)
    ) or [0]
    others = [
        (pk, parent)
        for pk, parent in _priced_products()
        if pk not in offered and parent not in offered and (parent or pk) != trigger.pk
    ]
    paths, expects = [], []
    for _ in range(count):
        cart = {trigger.pk: trigger_variations[rng.randrange(len(trigger_variations))]}
        for pk, parent in rng.sample(others, k=rng.randint(0, 3)):
            cart.setdefault(parent or pk, pk if parent else 0)
        path = "/cart/upsell/cart?" + "&".join(
            f"variationMap[{product}]={variation}" for product, variation in cart.items()
        )
        paths.append(q(path))
        expects.append({})
    return paths, expects


def subtree_paths() -> tuple[list[str], list[dict]]:
    """Every visible category (active, under active ancestors), in id order."""
    from bench.dataset.catalog import visible_categories

    ids = list(visible_categories())
    return [f"/publics/products/categories/{pk}/tree" for pk in ids], [{"id": pk} for pk in ids]


def _pages(counts: Iterable[tuple[int, int]], template: str) -> tuple[list[str], list[dict]]:
    paths, expects = [], []
    for product, total in counts:
        for offset in range(0, total, PAGE):
            paths.append(q(template.format(product=product, limit=PAGE, offset=offset)))
            expects.append({"total": total, "count": min(PAGE, total - offset)})
    return paths, expects


def _counts_by_product(queryset) -> list[tuple[int, int]]:
    from django.db.models import Count

    return list(
        queryset.values("product_id")
        .annotate(total=Count("id"))
        .order_by("product_id")
        .values_list("product_id", "total")
    )


def review_paths() -> tuple[list[str], list[dict]]:
    """Every page of 20 of every product with approved reviews."""
    from feedback.models import ProductReview

    return _pages(
        _counts_by_product(ProductReview.objects.public()),
        "/review/product?condition[productId]={product}&limit={limit}&offset={offset}",
    )


def comment_paths() -> tuple[list[str], list[dict]]:
    """Every page of 20 of every product with public comments (replies included, as the
    list counts them)."""
    from feedback.models import Comment

    return _pages(
        _counts_by_product(Comment.objects.public()),
        "/publics/products/comments?condition[productId]={product}&limit={limit}&offset={offset}",
    )


def similar_paths(*, count: int, rng: random.Random) -> tuple[list[str], list[dict]]:
    """Similar questions on random products with public questions (on sale, as the page
    shows them), `q` being 1-4 words drawn from one of that product's questions (one
    answered by staff, or not): that question itself then holds every word."""
    from catalog.selectors.listing import product_page_visible
    from feedback.models import Comment

    questions: dict[int, list[tuple[str, bool]]] = {}
    answered = set(Comment.objects.public().answered().values_list("pk", flat=True))
    for pk, product, message in (
        Comment.objects.public()
        .questions()
        .order_by("id")
        .values_list("pk", "product_id", "message")
    ):
        if product_page_visible(product_id=product):
            questions.setdefault(product, []).append((message, pk in answered))
    products = sorted(questions)
    if not products:
        return [], []
    paths, expects = [], []
    for _ in range(count):
        product = products[rng.randrange(len(products))]
        message, found = questions[product][rng.randrange(len(questions[product]))]
        words = message.split()
        text = " ".join(rng.sample(words, k=min(len(words), rng.randint(1, 4))))
        paths.append(f"/publics/products/{product}/comments/similar?q={quote(text)}")
        expects.append({"product": product, "found": found})
    return paths, expects


def zipcode_path(country: str, code: str) -> str:
    shown = f"{code[:5]}-{code[5:]}" if country == "BRA" and len(code) == 8 else code
    return f"/shipping/zipcode/consult/{country}/{shown}"


def zipcode_paths() -> tuple[list[str], list[dict]]:
    """Every postal code in the database (imported or seeded), in id order."""
    from shipping.models import PostalCode

    rows = list(PostalCode.objects.order_by("id").values_list("country", "code"))
    return [zipcode_path(country, code) for country, code in rows], [{} for _ in rows]


def draw(key: str, *, seed: int, quotes: int = QUOTES, carts: int = CARTS, similar: int = SIMILAR):
    """(paths, expectations) of one row."""
    if key in CATALOGUE_ROWS:
        return catalogue_draw(key, seed=seed)
    makers: dict[str, Callable[[], tuple[list[str], list[dict]]]] = {
        "quote": lambda: quote_paths(count=quotes, rng=_rng(seed, key)),
        "upsell": lambda: upsell_paths(count=carts, rng=_rng(seed, key)),
        "subtree": subtree_paths,
        "reviews": review_paths,
        "comments": comment_paths,
        "zipcode": zipcode_paths,
        "similar": lambda: similar_paths(count=similar, rng=_rng(seed, key)),
    }
    return makers[key]()


def write(
    folder: Path, *, seed: int, quotes: int = QUOTES, carts: int = CARTS, similar: int = SIMILAR
) -> dict:
    """Write every row's file and the manifest into `folder`; return the manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest: dict = {"seed": seed, "rows": {}}
    for key in ROWS:
        paths, expects = draw(key, seed=seed, quotes=quotes, carts=carts, similar=similar)
        if not paths:
            raise RuntimeError(f"no path for the {key} row: is the data set built?")
        file = folder / f"{key}.txt"
        file.write_text("".join(f"{path}\n" for path in paths))
        picks = _rng(seed, f"{key}:samples").sample(range(len(paths)), k=min(SAMPLES, len(paths)))
        manifest["rows"][key] = {
            "file": str(file),
            "paths": len(paths),
            "samples": [{"path": paths[i], "expect": expects[i]} for i in sorted(picks)],
        }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seed", type=int, default=None, help="default: the data set's seed")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    import django

    django.setup()
    from bench.dataset.build import SEED

    manifest = write(args.folder, seed=SEED if args.seed is None else args.seed)
    print(json.dumps(manifest))


# --- The catalogue's rows (issue 32): product page, listing, search, suggest ---------------
# (a block of its own: other rows are added above it)

CATALOGUE_PATHS = 20_000  # listings, searches and prefixes drawn per row
LISTING_PAGE = 20
TYPO_SHARE = 5  # one search in five carries a typo
CATALOGUE_ROWS = ("product-page", "listing", "search", "suggest")


def _listed_mains() -> list[tuple[int, set[int]]]:
    """(id, its categories: main and linked) of every listed main product, in id order."""
    from catalog.models import Product

    mains = Product.objects.filter(parent=None, active=True, show_in_site=True).order_by("id")
    found = {pk: {main} if main else set() for pk, main in mains.values_list("id", "main_category")}
    links = Product.categories.through.objects.filter(product_id__in=found)
    for product_id, category_id in links.values_list("product_id", "category_id"):
        found[product_id].add(category_id)
    return list(found.items())


def category_totals() -> dict[int, int]:
    """{visible category: listed main products in it or below it} (counted apart from the
    listing: the check before the load compares the two)."""
    from bench.dataset.catalog import visible_categories

    visible = visible_categories()
    totals = dict.fromkeys(visible, 0)
    for _, categories in _listed_mains():
        under = set()
        for category in categories & visible.keys():
            while category is not None:
                under.add(category)
                category = visible[category]
        for category in under:
            totals[category] += 1
    return totals


def product_page_paths() -> tuple[list[str], list[dict]]:
    """Every product with a page (active, shown in the site, of an active main product:
    main products and variations), in id order."""
    from django.db.models import Q

    from catalog.models import Product

    shown = Product.objects.filter(active=True, show_in_site=True).filter(
        Q(parent=None) | Q(parent__active=True)
    )
    ids = list(shown.order_by("id").values_list("id", flat=True))
    return [f"/publics/products/{pk}" for pk in ids], [{"id": pk} for pk in ids]


def listing_paths(*, count: int, rng: random.Random) -> tuple[list[str], list[dict]]:
    """Pages of 20 with facets: three in five a random visible category (a random page of
    it, in a random order), one in five a category and a value of a filterable attribute,
    one in five values of one or two attributes alone."""
    from catalog.models import AttributeValue

    totals = category_totals()
    categories = [pk for pk, total in totals.items() if total]
    by_attribute: dict[int, list[int]] = {}
    values = AttributeValue.objects.filter(attribute__filterable=True).order_by("id")
    for value_id, attribute_id in values.values_list("id", "attribute_id"):
        by_attribute.setdefault(attribute_id, []).append(value_id)
    attributes = sorted(by_attribute)
    orders = ["", "&order=price", "&order=-price", "&order=-createdAt", "&order=name"]
    paths, expects = [], []
    for n in range(count):
        kind = n % 5
        category = categories[rng.randrange(len(categories))]
        chosen = [
            rng.choice(by_attribute[a]) for a in rng.sample(attributes, k=min(2, 1 + kind % 2))
        ]
        if kind < 3:
            pages = -(-totals[category] // LISTING_PAGE)
            offset = LISTING_PAGE * rng.randrange(min(pages, 5))
            path = (
                f"/publics/products?condition[categoryId]={category}"
                f"&limit={LISTING_PAGE}&offset={offset}{rng.choice(orders)}"
            )
            expect: dict = {"total": totals[category], "offset": offset}
        else:
            condition = f"condition[categoryId]={category}&" if kind == 3 else ""
            chosen = chosen[:1] if kind == 3 else chosen
            path = (
                f"/publics/products?{condition}condition[attributeValueId][in]="
                f"{','.join(map(str, chosen))}&limit={LISTING_PAGE}"
            )
            expect = {"values": chosen}
        paths.append(q(path))
        expects.append(expect)
    return paths, expects


def search_vocabulary() -> list[str]:
    """The folded words the listed products are found by (names, brands, categories,
    search descriptions: catalog/search.py's analyzer over the catalogue), stop words and
    numbers left out, sorted."""
    from django.utils import timezone

    from catalog.search import STOP_WORDS, fold, words
    from catalog.selectors.listing import catalogue_build

    catalogue = catalogue_build(moment=timezone.now())
    found = set()
    for product in catalogue.products:
        searchable = product.searchable
        if searchable is not None:
            found.update(words(" ".join((searchable.name, *searchable.others))))
    stop = {fold(word) for word in STOP_WORDS}
    return sorted(word for word in found if word not in stop and not word.isdigit())


def typo(word: str, rng: random.Random) -> str:
    """`word` with one letter replaced by another."""
    at = rng.randrange(len(word))
    letter = rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c != word[at]])
    return word[:at] + letter + word[at + 1 :]


def search_words(
    vocabulary: list[str], *, count: int, rng: random.Random
) -> list[tuple[str, bool]]:
    """(text, whether it carries a typo): random words of the vocabulary, one in
    TYPO_SHARE with a typo (in a word of five letters or more, the least the search
    forgives one in)."""
    long_words = [word for word in vocabulary if len(word) >= 5]
    drawn = []
    for n in range(count):
        if n % TYPO_SHARE == TYPO_SHARE - 1 and long_words:
            drawn.append((typo(rng.choice(long_words), rng), True))
        else:
            drawn.append((rng.choice(vocabulary), False))
    return drawn


def search_paths(*, count: int, rng: random.Random) -> tuple[list[str], list[dict]]:
    """Listings of `q`: random catalogue words, a fifth with a typo."""
    drawn = search_words(search_vocabulary(), count=count, rng=rng)
    paths = [f"/publics/products?q={text}&limit={LISTING_PAGE}" for text, _ in drawn]
    return paths, [{"typo": typed} for _, typed in drawn]


def suggest_paths(*, count: int, rng: random.Random) -> tuple[list[str], list[dict]]:
    """Suggest for the first 3 to 5 letters of random catalogue words."""
    vocabulary = [word for word in search_vocabulary() if len(word) >= 3]
    paths, expects = [], []
    for _ in range(count):
        word = rng.choice(vocabulary)
        prefix = word[: rng.randint(3, min(5, len(word)))]
        paths.append(f"/publics/products/suggest?q={prefix}")
        expects.append({"prefix": prefix})
    return paths, expects


def catalogue_draw(key: str, *, seed: int) -> tuple[list[str], list[dict]]:
    """(paths, expectations) of one of CATALOGUE_ROWS."""
    rng = _rng(seed, key)
    if key == "product-page":
        return product_page_paths()
    if key == "listing":
        return listing_paths(count=CATALOGUE_PATHS, rng=rng)
    if key == "search":
        return search_paths(count=CATALOGUE_PATHS, rng=rng)
    if key == "suggest":
        return suggest_paths(count=CATALOGUE_PATHS, rng=rng)
    raise KeyError(key)


ROWS = (*ROWS, *CATALOGUE_ROWS)  # write() draws these rows too (through draw())


# (last: every block above is defined when it runs)
if __name__ == "__main__":
    sys.exit(main())
