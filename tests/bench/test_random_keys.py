"""The load benchmark's random-key rows: the path lists drawn from the tiny data set
(bench/paths.py) cover what they should and every path answers right; the churn process
saves stock with signals (bench/churn.py); the wrk script draws random paths and counts
X-Cache headers (bench/wrk.lua, run by wrk against a small local server); the report's hit
ratio and churn verdicts (bench/report.py)."""

import json
import math
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

import pytest

from bench import live_carrier, wrk
from bench import paths as bench_paths
from bench.churn import churn
from bench.fake_carrier import FakeCarrier
from bench.report import churn_report, hit_ratio
from bench.targets import CHURN_GOAL, GZIP_SUFFIX, LIVE_ROW, RANDOM_ROWS, random_targets
from catalog.models import Product, Stock
from catalog.selectors import product_namespaces
from demo.marketing import UPSELL_SKUS
from feedback.models import Comment, ProductReview
from infra.caching.versions import namespace_versions
from shipping.models import (
    CarrierIntegration,
    PostalCode,
    ShippingRow,
    ShippingTable,
    ShippingTableKind,
)
from tests.bench.conftest import SEED

pytestmark = pytest.mark.django_db

QUOTES = CARTS = SIMILAR = 60


@pytest.fixture(scope="module")
def manifest(dataset, tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench-paths")
    return bench_paths.write(folder, seed=SEED, quotes=QUOTES, carts=CARTS, similar=SIMILAR)


def lines(manifest, key) -> list[str]:
    with open(manifest["rows"][key]["file"]) as file:
        return file.read().splitlines()


def pages(counts) -> int:
    return sum(math.ceil(total / 20) for total in counts)


def test_the_lists_cover_what_each_row_asks_for(manifest, dataset):
    counts = dataset["counts"]
    reviews = set(ProductReview.objects.public().values_list("product_id", flat=True))
    review_totals = [ProductReview.objects.public().filter(product_id=pk).count() for pk in reviews]
    comments = set(Comment.objects.public().values_list("product_id", flat=True))
    comment_totals = [Comment.objects.public().filter(product_id=pk).count() for pk in comments]

    assert len(lines(manifest, "quote")) == QUOTES
    assert len(lines(manifest, "upsell")) == CARTS
    assert len(lines(manifest, "subtree")) == counts["categories_visible"]
    assert len(lines(manifest, "reviews")) == pages(review_totals)
    assert len(lines(manifest, "comments")) == pages(comment_totals)
    assert len(lines(manifest, "zipcode")) == PostalCode.objects.count()
    assert len(lines(manifest, "similar")) == SIMILAR
    assert {key for _, key in RANDOM_ROWS} == set(manifest["rows"])
    shown = Product.objects.filter(active=True, show_in_site=True).exclude(parent__active=False)
    assert len(lines(manifest, "product-page")) == shown.count()
    for key in ("listing", "search", "suggest"):
        assert len(lines(manifest, key)) == bench_paths.CATALOGUE_PATHS
    for key, row in manifest["rows"].items():
        assert row["paths"] == len(lines(manifest, key))
        assert all("[" not in path and "]" not in path for path in lines(manifest, key))


def test_catalogue_searches_are_catalogue_words_a_fifth_with_a_typo(manifest):
    vocabulary = set(bench_paths.search_vocabulary())
    texts = [path.split("q=")[1].split("&")[0] for path in lines(manifest, "search")]
    typed = texts[4::5]
    plain = [text for n, text in enumerate(texts) if n % 5 != 4]

    assert set(plain) <= vocabulary
    assert all(len(text) >= 5 for text in typed)
    assert sum(text not in vocabulary for text in typed) > 0.9 * len(typed)  # (rarely another)
    prefixes = [path.split("q=")[1] for path in lines(manifest, "suggest")]
    assert all(3 <= len(p) <= 5 for p in prefixes)
    assert all(any(word.startswith(p) for word in vocabulary) for p in prefixes[:200])


def test_listings_name_visible_categories_with_their_totals(manifest):
    totals = bench_paths.category_totals()
    listed = lines(manifest, "listing")
    with_category = [path for path in listed if "categoryId" in path]

    assert len(with_category) == len(listed) * 4 // 5
    assert sum("attributeValueId" in path for path in listed) == len(listed) * 2 // 5
    for path in with_category[:50]:
        category = int(path.split("categoryId%5D=")[1].split("&")[0])
        assert totals[category] > 0


def test_quotes_go_inside_a_brazilian_row_with_1_to_3_items(manifest):
    for path in lines(manifest, "quote"):
        query = dict(part.split("=") for part in unquote(path.split("?", 1)[1]).split("&"))
        code = query["targetZipCode"]
        items = [key for key in query if key.endswith("[productId]")]

        assert len(code) == 8 and code.isdigit()
        assert ShippingRow.objects.covering(code).filter(table__country="BRA").exists()
        assert 1 <= len(items) <= 3
        assert all(1 <= int(query[key.replace("productId", "quantity")]) <= 3 for key in items)


def test_every_cart_holds_the_trigger_and_never_the_offered_product(manifest, dataset):
    trigger = dataset["targets"]["cart_product"]
    offered = Product.objects.get(sku=UPSELL_SKUS["cart-offer"]).pk
    for path in lines(manifest, "upsell"):
        cart = dict(part.split("=") for part in unquote(path.split("?", 1)[1]).split("&"))
        products = {int(key[len("variationMap[") : -1]) for key in cart}

        assert trigger in products
        assert offered not in products
        assert len(cart) <= 4


def test_similar_texts_are_words_of_a_question_of_the_product(manifest):
    for path in lines(manifest, "similar"):
        where, query = path.split("?q=")
        product = int(where.split("/")[3])
        words = unquote(query).split()
        messages = Comment.objects.public().questions().filter(product_id=product)

        assert 1 <= len(words) <= 4
        assert any(
            set(words) <= set(message.split())
            for message in messages.values_list("message", flat=True)
        )
    found = [s["expect"]["found"] for s in manifest["rows"]["similar"]["samples"]]
    assert len(found) == 5


def test_the_same_database_gives_the_same_lists(manifest, tmp_path):
    again = bench_paths.write(tmp_path, seed=SEED, quotes=QUOTES, carts=CARTS, similar=SIMILAR)

    for key in manifest["rows"]:
        assert lines(again, key) == lines(manifest, key)
        assert again["rows"][key]["samples"] == manifest["rows"][key]["samples"]


def test_every_sample_and_the_first_paths_answer_right(manifest, api_client, monkeypatch):
    monkeypatch.setenv(live_carrier.TOKEN_VARIABLE, "bench-token")
    with FakeCarrier(delay=0.05) as carrier:
        for row in random_targets(manifest):
            if row.live:  # the last row: its live table added as bench/run.py does
                live_carrier.add(carrier.url)
            with open(row.paths_file) as file:
                first = [(path, None) for path in file.read().splitlines()[:15]]
            for path, check in row.samples + first:
                response = api_client.get(path, HTTP_HOST="127.0.0.1")

                assert response.status_code == 200, (row.name, path, response.status_code)
                assert response["X-Cache"] in ("hit", "miss"), (row.name, path)
                if check is not None:
                    assert check(json.loads(response.content)) is None, (row.name, path)
        assert row.name == LIVE_ROW and carrier.calls
        live_carrier.remove()
    assert not ShippingTable.objects.filter(kind=ShippingTableKind.LIVE).exists()
    assert not CarrierIntegration.objects.exists()


def test_the_churn_rows_are_the_reviews_and_comments_again(manifest):
    rows = random_targets(manifest)
    churned = [row for row in rows if row.group == "churn"]

    assert [row.without_churn for row in churned] == [
        "product reviews, every product's pages",
        "product comments, every product's pages",
    ]
    assert all(row.paths_file for row in rows)


def test_the_random_review_and_comment_rows_have_gzip_copies(manifest):
    rows = {row.name: row for row in random_targets(manifest)}

    for name in (
        "product reviews, every product's pages",
        "product comments, every product's pages",
    ):
        copy = rows[name + GZIP_SUFFIX]
        assert (copy.accept_encoding, copy.plain_row, copy.group) == ("gzip", name, "random")
        assert copy.paths_file == rows[name].paths_file
    assert not any(row.accept_encoding for row in rows.values() if row.group == "churn")


def test_churn_saves_stock_at_its_rate_with_signals_and_stops_by_itself(dataset):
    stocked = product_namespaces(Stock.objects.values_list("product_id", flat=True).distinct())
    before = namespace_versions(tuple(stocked))

    done = churn(rate=40, seconds=0.5, seed=1)

    assert 15 <= done["saves"] <= 21 and done["errors"] == 0
    after = namespace_versions(tuple(stocked))
    assert after != before  # signals fired: the saved products' own versions moved


def test_churn_stops_when_asked(dataset):
    done = churn(rate=40, seconds=30, seed=1, stopping=lambda: True)

    assert done["saves"] == 0 and done["seconds"] < 1


# --- the wrk script ------------------------------------------------------------------


class _Answers(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    seen: list[str] = []

    def do_GET(self):
        self.seen.append(self.path)
        body = b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if self.path != "/c":  # /c: an answer without the header (not counted)
            self.send_header("X-Cache", "hit" if self.path == "/a" else "miss")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed")
@pytest.mark.parametrize("count_cache", [True, False])
def test_the_wrk_script_draws_random_paths_and_counts_x_cache(tmp_path, count_cache):
    listed = tmp_path / "paths.txt"
    listed.write_text("/a\n/b\n/c\n")
    _Answers.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Answers)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        run = wrk.run(
            shutil.which("wrk"),
            f"http://127.0.0.1:{server.server_port}/never",
            seconds=1,
            connections=2,
            threads=1,
            timeout=2,
            paths_file=str(listed),
            count_cache=count_cache,
        )
    finally:
        server.shutdown()
        server.server_close()

    assert run.requests > 10 and run.errors == 0
    assert set(_Answers.seen) == {"/a", "/b", "/c"}
    assert run.paths == 3
    if count_cache:
        assert run.cache_hits + run.cache_misses + run.cache_uncounted == run.requests
        assert 0.2 < run.hit_ratio < 0.8  # /a over /a and /b
    else:
        assert (run.cache_hits, run.cache_misses, run.hit_ratio) == (0, 0, None)


# --- the report ----------------------------------------------------------------------


def _run(rps: float, hits: int = 0, misses: int = 0, counted: bool = True) -> wrk.WrkRun:
    return wrk.WrkRun(
        requests=int(rps),
        seconds=1.0,
        bytes=0,
        status_errors=0,
        socket_errors=0,
        p50_ms=1,
        p90_ms=1,
        p99_ms=1,
        max_ms=1,
        cache_hits=hits,
        cache_misses=misses,
        cache_counted=counted,
    )


def test_the_hit_ratio_counts_every_run_and_none_when_not_counted():
    assert hit_ratio([_run(10, 3, 1), _run(10, 1, 3)]) == 0.5
    assert hit_ratio([_run(10, counted=False)]) is None
    assert hit_ratio([]) is None


@pytest.mark.parametrize(("with_churn", "verdict"), [(80, "met"), (60, "not met")])
def test_a_churn_row_is_judged_against_its_runs_without_churn(with_churn, verdict):
    row = {
        "group": "churn",
        "rps": with_churn,
        "rps_without_churn": 100,
        "verdict": "-",
        "problem": None,
    }

    churn_report([row])

    assert row["x_without_churn"] == with_churn / 100
    assert row["goal_x_without_churn"] == CHURN_GOAL
    assert row["verdict"] == verdict
    assert "churn_note" not in row


def test_the_search_row_s_words_find_a_product_and_an_exact_sku_comes_first(dataset, api_client):
    # bench/search_bench.py --data-set measures the same on the 20,000-product data set
    from django.utils import timezone

    from catalog.search import parse
    from catalog.selectors.listing import catalogue_build

    drawn = bench_paths.search_words(
        bench_paths.search_vocabulary(), count=500, rng=bench_paths._rng(SEED, "search")
    )
    catalogue = catalogue_build(moment=timezone.now())
    found = [bool(catalogue.query().search(parse(text))[0:1]) for text, _ in drawn]
    assert sum(found) >= 0.98 * len(drawn)
    assert all(hit for hit, (_, typed) in zip(found, drawn, strict=True) if not typed)
    for product in catalogue.products[::10]:
        sku = product.searchable.sku
        body = api_client.get("/publics/products", {"q": sku}, HTTP_HOST="127.0.0.1").json()
        assert body["data"]["registers"][0]["id"] == product.id, sku
