"""How long one product change takes to show in the catalogue listing, in process, on the
load benchmark's data set of 20,000 products (issue 32 item 4).

    .venv/bin/python bench/listing_change.py [--repeat 5] [--database-url URL] [--json FILE]

Uses the benchmark's SQLite data set (`data/bench/sqlite/`, built when missing or stale, as
bench/miss_path.py does), or the PostgreSQL database `--database-url` names (built there
when it does not hold the data set). A listing of a category and a search are warmed (the
catalogue and its search index built), then, per kind of change (restock, reprice, rename,
deactivate), a random product is changed through the ORM (its signals note it in the
listing journal) and the next answer of a listing holding the product (asked once before
the change: its other products' summaries are kept) is timed, through Django's test client
(every middleware); it must show the change. The catalogue's own part (from its log lines:
the patch, or the whole build) is reported apart. Each change is measured twice,
alternated: as it is now (the catalogue patched with the changed product) and as every
product change cost before (the catalogue rebuilt whole: the change plus a bump of the
`catalogue` namespace). Prints and writes medians in milliseconds of wall time.
"""

import argparse
import json
import logging
import os
import random
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 32
KINDS = ("restock", "reprice", "rename", "deactivate")
CATEGORY_LISTING = "/publics/products?condition%5BcategoryId%5D={}&limit=100"
PRICE_LISTING = "/publics/products?order=price&limit=100"


def setup(database_url: str | None) -> None:
    sys.path.insert(0, str(ROOT))
    if database_url:
        os.environ["DATABASE_URL"] = database_url
        data_dir = ROOT / "data" / "bench" / "postgresql"
    else:
        os.environ.pop("DATABASE_URL", None)
        data_dir = ROOT / "data" / "bench" / "sqlite"
    data_dir.mkdir(parents=True, exist_ok=True)
    for name in ("REDIS_URL", "DJANGO_DEBUG"):
        os.environ.pop(name, None)
    os.environ |= {"DATA_DIR": str(data_dir), "DJANGO_SETTINGS_MODULE": "bench.settings"}
    os.environ.setdefault("SECRET_KEY", "bench-listing-change-not-a-secret")
    os.environ.setdefault("HTTPS", "0")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from bench.dataset.build import FULL, build, fingerprint, marker_read
    from bench.dataset.build import SEED as DATA_SEED

    if marker_read() != fingerprint(size=FULL, seed=DATA_SEED):
        print("Building the bench data set", flush=True)
        if connection.vendor == "sqlite":
            connection.close()
            for suffix in ("", "-wal", "-shm"):
                (data_dir / f"db.sqlite3{suffix}").unlink(missing_ok=True)
        call_command("migrate", "--noinput", verbosity=0)
        build(size=FULL, seed=DATA_SEED, stdout=sys.stdout)


def change(kind: str, product, rng: random.Random):
    """Change `product` (a listed main product) through the ORM, as the admin or an import
    does; returns (a listing that shows it, a test of its register there)."""
    from catalog.models import ProductPrice, Stock
    from catalog.selectors.products import product_available_stock, products_for_summary

    listing = CATEGORY_LISTING.format(product.main_category_id)
    if kind == "restock":
        stock = Stock.objects.filter(product__in=[product, *product.variations.all()]).first()
        stock.available += rng.randint(1, 9)
        stock.save()
        units = product_available_stock(products_for_summary().get(pk=product.pk))
        return listing, lambda register: register is not None and register["stock"] == units
    if kind == "reprice":
        price = ProductPrice.objects.get(product=product, trade_policy__is_default=True)
        price.sale_price = Decimal(rng.randint(1, 9)) / 100  # cheaper than the catalogue's
        price.save()
        return PRICE_LISTING, lambda register: register is not None
    if kind == "rename":
        product.name = f"{product.name} {rng.randint(10**6, 10**7)}"
        product.save()
        name = product.name
        return listing, lambda register: register is not None and register["name"] == name
    product.active = False
    product.save()
    return listing, lambda register: register is None


def restore(kind: str, product) -> None:
    if kind == "deactivate":
        product.active = True
        product.save()


def measure(repeat: int) -> dict:
    from django.test import Client

    from catalog.models import Product
    from catalog.selectors.caches import CATALOGUE_CACHE
    from infra.caching.versions import cache_namespace_bump
    from tests.helpers import cold_caches

    client = Client(SERVER_NAME="127.0.0.1", HTTP_HOST="127.0.0.1")
    rng = random.Random(SEED)
    cold_caches()
    mains = list(
        Product.objects.filter(
            parent=None, active=True, show_in_site=True, sku__startswith="BENCH-"
        ).values_list("id", flat=True)
    )

    def answer(path: str) -> tuple[float, dict]:
        began = time.perf_counter()
        response = client.get(path)
        spent = time.perf_counter() - began
        assert response.status_code == 200, response.content[:300]
        return spent, response.json()

    started = time.perf_counter()
    answer("/publics/products?limit=20")
    answer("/publics/products?q=camiseta&limit=20")
    first_build = time.perf_counter() - started
    found: dict = {kind: {"patched": [], "rebuilt": []} for kind in KINDS}
    catalogue: dict[str, list[float]] = {"patched": [], "rebuilt": []}
    kept: list[tuple[str, float]] = []  # (message, ms) of the catalogue's log lines

    class Kept(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            kept.append((record.getMessage(), float(record.args[-1])))

    logger = logging.getLogger("storefront.catalogue")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(Kept())
    for round_ in range(repeat):
        for kind in KINDS:
            for way in ("patched", "rebuilt") if round_ % 2 == 0 else ("rebuilt", "patched"):
                product = Product.objects.get(pk=rng.choice(mains))
                listing = CATEGORY_LISTING.format(product.main_category_id)
                answer(PRICE_LISTING if kind == "reprice" else listing)  # its summaries kept
                kept.clear()
                query, shows = change(kind, product, rng)
                if way == "rebuilt":
                    cache_namespace_bump(CATALOGUE_CACHE)  # what every change cost before
                spent, body = answer(query)
                register = next(
                    (r for r in body["data"]["registers"] if r["id"] == product.pk), None
                )
                assert shows(register), (kind, way, register)
                found[kind][way].append(spent)
                catalogue[way] += [ms for message, ms in kept if message.startswith("Catalogue")]
                restore(kind, product)
                answer(query)  # the restore shown too, before the next change
    return {
        "products_listed": len(mains),
        "first_listing_and_search_s": round(first_build, 2),
        "next_answer_after_a_change_ms": {
            kind: {way: round(statistics.median(times) * 1000, 1) for way, times in ways.items()}
            for kind, ways in found.items()
        },
        "catalogue_alone_ms": {
            "patched (read the product again, patch)": round(
                statistics.median(catalogue["patched"]), 1
            ),
            "rebuilt (read every product, build)": round(
                statistics.median(catalogue["rebuilt"]), 1
            ),
        },
        "repeat": repeat,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    setup(args.database_url)
    from django.db import connection

    result = {
        "database": connection.vendor,
        "cache": "locmem (versions file)",
        **measure(args.repeat),
    }
    result["load_average"] = os.getloadavg()
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
