"""The load benchmark's data set (bench/dataset): built at a tiny size on the test
database, it has the sizes asked for, the shapes the benchmark relies on, and every
request of the benchmark's table answers it correctly (one request each, no load)."""

import gzip
import json
from io import StringIO

import pytest

from bench.dataset.build import build, describe, fingerprint, marker_read
from bench.dataset.catalog import NOUNS, QUALIFIERS, TOP_SKU, visible_categories
from bench.targets import GZIP_ROWS, GZIP_SUFFIX, targets
from catalog.models import Category, Product, ProductDescription, ProductPrice, Stock, Storage
from feedback.models import Comment, ProductReview, SalesChannelReview
from tests.bench.conftest import SEED, TINY

pytestmark = pytest.mark.django_db


def test_the_data_set_has_the_sizes_asked_for(dataset):
    top = Product.objects.get(sku=TOP_SKU)

    assert Category.objects.count() == TINY.categories
    assert Product.objects.filter(parent=None).count() == TINY.products
    assert ProductReview.objects.public().count() == TINY.reviews
    assert ProductReview.objects.public().filter(product=top).count() == TINY.top_reviews
    assert (
        SalesChannelReview.objects.public().filter(sales_channel__domain="127.0.0.1").count()
        == TINY.store_reviews
    )
    assert Comment.objects.count() == TINY.comments
    assert Comment.objects.filter(product=top).count() == TINY.top_comments
    assert dataset["counts"]["top_product_reviews_approved"] == TINY.top_reviews


def test_the_new_categories_are_a_tree_several_levels_deep_with_hidden_nodes(dataset):
    names = {f"{noun} {qualifier}" for noun in NOUNS for qualifier in QUALIFIERS}
    new = Category.objects.filter(name__in=names)

    assert max(url.count("/") for url in new.values_list("url", flat=True)) >= 3
    assert len(visible_categories()) < Category.objects.count()
    for category in new.select_related("parent"):
        parent_url = category.parent.url if category.parent else ""
        assert category.url == f"{parent_url}/{category.slug}"


def test_every_new_product_is_sellable_and_shown_complete(dataset):
    new = Product.objects.filter(sku__startswith="BENCH-")
    mains = new.filter(parent=None)

    assert new.exclude(parent=None).exists()  # some have variations
    assert ProductPrice.objects.filter(product__in=new).count() == new.count()
    assert ProductDescription.objects.filter(product__in=mains).count() == mains.count()
    assert not mains.filter(medias=None).exists()
    assert not mains.filter(main_category__active=False).exists()
    top = mains.get(sku=TOP_SKU)
    assert set(
        Stock.objects.filter(product=top, available__gt=0).values_list("storage", flat=True)
    ) == set(Storage.objects.values_list("id", flat=True))


def test_products_have_attribute_values_brands_and_several_categories(dataset):
    mains = Product.objects.filter(sku__startswith="BENCH-", parent=None)
    linked = Product.categories.through.objects.filter(product__in=mains)
    valued = Product.attribute_values.through.objects.filter(
        product__in=mains, attributevalue__attribute__filterable=True
    )

    assert linked.count() > 2 * mains.count()  # the leaf, its parent and some others
    assert valued.values("product").distinct().count() > mains.count() * 0.8
    assert mains.values("brand").distinct().count() > 30
    assert len({p.created_at for p in mains}) > mains.count() * 0.9  # -createdAt means much


def test_reviews_and_comments_stay_on_the_regular_products(dataset):
    regular = list(Product.objects.filter(parent=None).order_by("id").values_list("id", flat=True))[
        : TINY.regular_products
    ]
    reviewed = set(ProductReview.objects.values_list("product_id", flat=True))
    commented = set(Comment.objects.values_list("product_id", flat=True))

    assert reviewed and commented
    assert reviewed | commented <= set(regular)


def test_replies_answer_a_top_level_comment_of_the_same_product(dataset):
    replies = Comment.objects.exclude(parent=None).select_related("parent")

    assert replies.exists()
    for reply in replies:
        assert reply.parent.parent_id is None
        assert reply.parent.product_id == reply.product_id
        assert reply.created_at >= reply.parent.created_at


def test_the_database_is_marked_and_building_again_adds_nothing(dataset, settings, tmp_path):
    assert marker_read() == fingerprint(size=TINY, seed=SEED)
    assert marker_read() != fingerprint(size=TINY, seed=SEED + 1)
    settings.DATA_DIR, settings.MEDIA_ROOT = tmp_path, tmp_path / "media"

    again = build(size=TINY, seed=SEED, stdout=StringIO())

    assert again["counts"] == dataset["counts"]


def test_every_row_of_the_benchmark_answers_right_on_the_data_set(dataset, api_client, settings):
    settings.ROOT_URLCONF = "bench.urls"  # the constant view of the baseline row
    rows = targets(describe())

    for row in rows:
        extra = {"HTTP_ACCEPT_ENCODING": row.accept_encoding} if row.accept_encoding else {}
        response = api_client.generic(
            row.method,
            row.path,
            data=row.body,
            content_type="application/json",
            HTTP_HOST="127.0.0.1",
            **extra,
        )
        assert 200 <= response.status_code < 300, (row.name, response.status_code)
        body = response.content
        if response.get("Content-Encoding") == "gzip":  # a gzip row's answer of 1 KiB or more
            body = gzip.decompress(body)
        assert row.check(json.loads(body)) is None, row.name


def test_the_gzip_rows_follow_their_plain_rows_and_ask_gzip(dataset):
    rows = targets(describe())
    names = [row.name for row in rows]

    gzip_rows = [row for row in rows if row.accept_encoding]
    assert {row.plain_row for row in gzip_rows} == set(GZIP_ROWS) & set(names)
    assert "product reviews, 100 of 299" in names
    for row in gzip_rows:
        plain = rows[names.index(row.name) - 1]
        assert (row.accept_encoding, row.plain_row, row.name) == (
            "gzip",
            plain.name,
            plain.name + GZIP_SUFFIX,
        )
        assert (row.path, row.method, row.runs) == (plain.path, plain.method, [])
