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
    and no variations of their own (what a cart or a quote holds), in id order."""
    from catalog.models import Product, ProductPrice, TradePolicy

    policy = TradePolicy.objects.default()
    priced = ProductPrice.objects.filter(trade_policy=policy).values("product_id")
    with_variations = Product.objects.exclude(parent=None).values("parent_id")
    return list(
        Product.objects.sellable()
        .filter(pk__in=priced)
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


if __name__ == "__main__":
    sys.exit(main())
