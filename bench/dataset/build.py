"""Build, describe and recognise the benchmark's data set (see the package docstring)."""

import hashlib
import json
import random
import time
from dataclasses import asdict, dataclass
from io import StringIO
from pathlib import Path

from django.core.management import call_command
from django.db import connection, transaction

from catalog.models import Category, Product, ProductMedia, Stock
from catalog.selectors import CATALOGUE_CACHE, CATEGORY_CACHE, PRICE_RULE_CACHE, PRODUCTS_CACHE
from demo.marketing import UPSELL_SKUS
from feedback.models import Comment, ProductReview, SalesChannelReview
from infra.caching.versions import cache_namespace_bump
from marketing.models import BannerGroup
from shipping.models import PostalCode, ShippingRow

from .catalog import (
    TOP_SKU,
    add_categories,
    add_products,
    subtree_category,
    visible_categories,
)
from .feedback import (
    STORE_CHANNEL_DOMAIN,
    add_comments,
    add_product_reviews,
    add_store_reviews,
    customers_get,
)

ROOT = Path(__file__).resolve().parents[2]
SEED = 20260901
MARKER_TABLE = "bench_dataset"
QUOTE_POSTAL_CODE = ("BRA", "01310100")  # the São Paulo storage's street (demo postal code)


@dataclass(frozen=True)
class Size:
    """Totals in the database after building (demo rows count towards them)."""

    categories: int = 2000
    products: int = 20000  # main products (their variations come on top)
    # The first main products (by id, the demo's included): product reviews and comments,
    # carts and quotes fall on them, as when the store had 1,000 products, so those rows
    # keep their meaning; the rest make the catalogue a large store's (listing, search).
    regular_products: int = 1000
    reviews: int = 5000  # approved product reviews
    top_reviews: int = 299  # approved reviews of the top product
    store_reviews: int = 300  # approved reviews of the channel serving 127.0.0.1
    comments: int = 2000  # every comment: replies and pending ones included
    top_comments: int = 150  # comments (questions and replies) on the top product


FULL = Size()


def fingerprint(*, size: Size, seed: int) -> str:
    """What the data set depends on: when any of it changes, the database is rebuilt."""
    digest = hashlib.sha256(json.dumps([asdict(size), seed]).encode())
    sources = sorted(Path(__file__).parent.glob("*.py"))
    sources += sorted((ROOT / "demo").rglob("*.py")) + sorted((ROOT / "demo/data").glob("*"))
    sources += sorted(ROOT.glob("*/migrations/0*.py"))
    for path in sources:
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def marker_read() -> str | None:
    """The fingerprint of the data set in the database (None: none was built there)."""
    if MARKER_TABLE not in connection.introspection.table_names():
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT value FROM bench_dataset WHERE name = %s", ["fingerprint"])
        row = cursor.fetchone()
    return row[0] if row else None


def marker_write(value: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS bench_dataset "
            "(name VARCHAR(50) PRIMARY KEY, value VARCHAR(200) NOT NULL)"
        )
        cursor.execute("DELETE FROM bench_dataset WHERE name = %s", ["fingerprint"])
        cursor.execute(
            "INSERT INTO bench_dataset (name, value) VALUES (%s, %s)", ["fingerprint", value]
        )


def describe() -> dict:
    """Sizes counted in the database, and the records the benchmark aims at."""
    top = Product.objects.filter(sku=TOP_SKU).first()
    cart = Product.objects.filter(sku=UPSELL_SKUS["cart-trigger"]).first()
    cart_variation = cart and cart.variations.active().order_by("id").first()
    country, code = QUOTE_POSTAL_CODE
    postal = PostalCode.objects.filter(country=country, code=code).exists()
    urls = Category.objects.values_list("url", flat=True)
    return {
        "fingerprint": marker_read(),
        "counts": {
            "categories": Category.objects.count(),
            "categories_inactive": Category.objects.filter(active=False).count(),
            "categories_visible": len(visible_categories()),
            "category_levels": len({url.count("/") for url in urls}),
            "products": Product.objects.filter(parent=None).count(),
            "variations": Product.objects.exclude(parent=None).count(),
            "product_medias": ProductMedia.objects.count(),
            "stock_rows": Stock.objects.count(),
            "product_reviews_approved": ProductReview.objects.public().count(),
            "product_reviews_all": ProductReview.objects.count(),
            "top_product_reviews_approved": (
                ProductReview.objects.public().filter(product=top).count()
            ),
            "store_reviews_approved": SalesChannelReview.objects.public()
            .filter(sales_channel__domain=STORE_CHANNEL_DOMAIN)
            .count(),
            "comments": Comment.objects.count(),
            "comment_replies": Comment.objects.exclude(parent=None).count(),
            "top_product_comments_public": Comment.objects.public().filter(product=top).count(),
            "postal_codes": PostalCode.objects.count(),
            "shipping_rows": ShippingRow.objects.count(),
        },
        "targets": {
            "top_product": top and top.pk,
            "subtree_category": subtree_category(),
            "cart_product": cart and cart.pk,
            "cart_variation": cart_variation and cart_variation.pk,
            "banner_codes": list(
                BannerGroup.objects.order_by("id").values_list("code", flat=True)[:2]
            ),
            "postal": list(QUOTE_POSTAL_CODE) if postal else None,
        },
    }


def _rng(seed: int, section: str) -> random.Random:
    """One generator per section, so one section's draws never shift another's."""
    return random.Random(f"{seed}:{section}")


def build(*, size: Size = FULL, seed: int = SEED, stdout=None) -> dict:
    """Load the demo store, grow it to `size` (deterministically from `seed`), mark it,
    and return `describe()`."""
    out = stdout or StringIO()

    def timed(label, step, *args, **kwargs):
        began = time.perf_counter()
        result = step(*args, **kwargs)
        out.write(f"  {label}: {time.perf_counter() - began:.1f} s\n")
        return result

    timed("demo store (seed_demo)", call_command, "seed_demo", stdout=StringIO())
    with transaction.atomic():
        count = size.categories - Category.objects.count()
        timed("categories", add_categories, count=count, rng=_rng(seed, "categories"))
        existing = Product.objects.filter(parent=None).count()
        regular = size.regular_products - existing
        count = size.products - existing
        timed("products", add_products, count=count, regular=regular, rng=_rng(seed, "products"))
        top = Product.objects.get(sku=TOP_SKU)
        rng = _rng(seed, "feedback")
        count = max(size.top_reviews, size.reviews // 10)
        customers = timed("customers", customers_get, count=count, rng=rng)
        for label, step, total, on_top in (
            ("product reviews", add_product_reviews, size.reviews, size.top_reviews),
            ("store reviews", add_store_reviews, size.store_reviews, None),
            ("comments", add_comments, size.comments, size.top_comments),
        ):
            top_share = (
                {}
                if on_top is None
                else {"on_top": on_top, "top": top, "regular": size.regular_products}
            )
            timed(label, step, total=total, rng=rng, customers=customers, **top_share)
        marker_write(fingerprint(size=size, seed=seed))
    if connection.vendor == "postgresql":  # planner statistics, as autovacuum keeps them
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    # Bulk inserts send no signals: refresh the cached reads ourselves.
    cache_namespace_bump(CATEGORY_CACHE)
    cache_namespace_bump(PRICE_RULE_CACHE)
    cache_namespace_bump(PRODUCTS_CACHE, CATALOGUE_CACHE)
    return describe()
