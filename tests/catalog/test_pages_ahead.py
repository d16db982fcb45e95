"""Product pages rendered ahead (catalog.api.ahead; docs/caching.md, "Pages rendered ahead"):
upkeep renders every page for each origin, a GET serves the row of its key while every
version it was rendered with is current, and only upkeep writes the rows."""

import pickle
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from catalog.api.ahead import render_ahead
from catalog.models import ProductPageAhead, Stock
from tests.catalog.factories import (
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    VariationFactory,
)
from tests.helpers import cold_caches

pytestmark = pytest.mark.django_db

ORIGIN = "http://testserver"  # the test client's host


@pytest.fixture(autouse=True)
def origin(settings):
    settings.PAGES_AHEAD_ORIGINS = [ORIGIN]


@pytest.fixture
def products():
    """Two products with pages (one with a variation: three pages) and one inactive."""
    shown = []
    for number in (1, 2):
        product = ProductFactory(name=f"Caneca {number}", sku=f"CANECA-{number}")
        ProductPriceFactory(product=product, sale_price=Decimal("50.00"), comparison_price=0)
        StockFactory(product=product, available=3)
        shown.append(product)
    variation = VariationFactory(parent=shown[0])
    ProductPriceFactory(product=variation, sale_price=Decimal("55.00"), comparison_price=0)
    ProductFactory(name="Fora de linha", active=False)
    return [*shown, variation]


def _page(api_client, product_id: int):
    response = api_client.get(f"/publics/products/{product_id}")
    assert response.status_code == 200, response.content
    return response


def test_upkeep_renders_every_page_and_a_get_serves_it_with_one_query(
    api_client, products, django_assert_num_queries
):
    # given the pages as the requests render them, then every cache forgotten
    live = {p.pk: _page(api_client, p.pk) for p in products}
    cold_caches()
    # when upkeep renders every page ahead
    done = render_ahead()
    assert (done.pages, done.rendered, done.current, done.left) == (3, 3, 0, 0)
    assert set(ProductPageAhead.objects.values_list("product_id", flat=True)) == {
        p.pk for p in products
    }
    # then a process that kept nothing answers each page from its row: one SELECT, no view
    cold_caches()
    for product in products:
        with django_assert_num_queries(1):
            response = _page(api_client, product.pk)
        assert response["X-Cache"] == "hit"
        assert response.content == live[product.pk].content
        assert response["ETag"] == live[product.pk]["ETag"]
    # and the compressed variant is the same answer's
    cold_caches()
    gzip = api_client.get(f"/publics/products/{products[0].pk}", HTTP_ACCEPT_ENCODING="gzip")
    assert gzip["X-Cache"] == "hit" and gzip["Content-Encoding"] == "gzip"


def test_only_the_asked_origin_s_rows_answer(api_client, products, settings):
    settings.PAGES_AHEAD_ORIGINS = ["https://api.loja.example"]
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "api.loja.example"]
    render_ahead()
    cold_caches()
    assert _page(api_client, products[0].pk)["X-Cache"] == "miss"  # http://testserver: none
    cold_caches()
    response = api_client.get(
        f"/publics/products/{products[0].pk}", headers={"host": "api.loja.example"}, secure=True
    )
    assert response.status_code == 200 and response["X-Cache"] == "hit"
    assert response.json()["name"] == "Caneca 1"


def test_a_changed_page_is_rendered_by_the_request_and_again_by_the_next_pass(api_client, products):
    render_ahead()
    # when one product's stock changes (its page and its main product's depend on it)
    stock = Stock.objects.get(product=products[1])
    stock.available = 9
    stock.save()
    cold_caches()
    # then its next answer is rendered, not the row's
    response = _page(api_client, products[1].pk)
    assert response["X-Cache"] == "miss"
    assert response.json()["stock"]["availableStock"] == 9
    # and the answer it rendered is kept: the stale row is passed over for the cache's
    response = _page(api_client, products[1].pk)
    assert response["X-Cache"] == "hit" and response.json()["stock"]["availableStock"] == 9
    # and the next pass renders that page only
    done = render_ahead()
    assert (done.rendered, done.current) == (1, 2)
    cold_caches()
    response = _page(api_client, products[1].pk)
    assert response["X-Cache"] == "hit" and response.json()["stock"]["availableStock"] == 9
    # a renamed product retires every product page (the `products` namespace): all again
    products[0].name = "Caneca nova"
    products[0].save()
    cold_caches()
    assert _page(api_client, products[0].pk).json()["name"] == "Caneca nova"
    assert render_ahead().rendered == 3


def test_a_get_writes_no_row(api_client, products):
    cold_caches()
    _page(api_client, products[0].pk)
    assert not ProductPageAhead.objects.exists()


def test_rows_of_pages_gone_and_of_older_releases_go(api_client, products, settings):
    render_ahead()
    ProductPageAhead.objects.create(
        key="answer:older:1",
        product=products[0],
        release="older",
        answer=b"",
        dependencies=[],
        rendered_at=timezone.now() - timedelta(days=2),
    )
    ProductPageAhead.objects.create(  # a rolling deploy's other release, still serving
        key="answer:other:1",
        product=products[0],
        release="other",
        answer=b"",
        dependencies=[],
        rendered_at=timezone.now(),
    )
    products[1].active = False
    products[1].save()
    done = render_ahead()
    # the older release's row, and the deactivated product's page and summary
    assert done.removed == 3 and (done.pages, done.summaries) == (2, 2)
    assert set(ProductPageAhead.objects.values_list("release", "product_id")) == {
        (settings.RELEASE, products[0].pk),
        (settings.RELEASE, products[2].pk),
        ("other", products[0].pk),
    }
    settings.PAGES_AHEAD_ORIGINS = []  # no origin: every row of this release goes
    assert render_ahead().removed == 4


def test_a_pass_out_of_time_leaves_the_rest_to_the_next(products):
    done = render_ahead(seconds=0)
    assert (done.rendered, done.summaries_rendered, done.left) == (0, 0, 6)  # 3 pages, 3 summaries
    done = render_ahead()
    assert (done.rendered, done.summaries_rendered, done.left) == (3, 3, 0)


def test_an_unreadable_row_is_a_miss_never_an_error(api_client, products):
    render_ahead()
    ProductPageAhead.objects.update(answer=b"not a pickle")
    cold_caches()
    assert _page(api_client, products[0].pk)["X-Cache"] == "miss"


def test_the_command_renders_every_page_and_says_so(products, capsys, settings):
    call_command("render_pages_ahead")
    out = capsys.readouterr().out
    assert "3 page(s) for http://testserver; 3 rendered, 0 still current" in out
    settings.PAGES_AHEAD_ORIGINS = []
    with pytest.raises(CommandError, match="PAGES_AHEAD_ORIGINS"):
        call_command("render_pages_ahead")


def test_an_origin_this_instance_does_not_serve_fails_the_command_and_says_why(products, settings):
    settings.PAGES_AHEAD_ORIGINS = ["http://elsewhere.example"]  # not in ALLOWED_HOSTS: 400
    done = render_ahead()
    assert (done.rendered, done.failed, done.failed_status) == (0, 3, 400)
    with pytest.raises(CommandError, match="3 page\\(s\\) answered 400"):
        call_command("render_pages_ahead")
    # no page is kept (the summaries, rendered without a request, are: no client asks them)
    assert {
        key.split(":")[0] for key in ProductPageAhead.objects.values_list("key", flat=True)
    } == {"summary"}


@pytest.fixture
def rendered(monkeypatch):
    """The product ids whose summaries requests render (not read from a row)."""
    from catalog.api import fragments

    seen: list[int] = []
    render = fragments.summary_parts

    def spy(pids, **kwargs):
        seen.extend(pids)
        return render(pids, **kwargs)

    monkeypatch.setattr(fragments, "summary_parts", spy)
    return seen


def test_a_listing_takes_its_summaries_from_the_rows_while_they_are_current(
    api_client, products, rendered
):
    live = api_client.get("/publics/products?order=name")
    assert live.status_code == 200
    listed = {r["id"] for r in live.json()["data"]["registers"]}
    assert listed == {products[0].pk, products[1].pk}
    render_ahead()
    # a process that kept nothing reads the summaries rendered ahead: the same bytes
    cold_caches()
    rendered.clear()
    response = api_client.get("/publics/products?order=name")
    assert response.content == live.content
    assert not listed.intersection(rendered)
    # a stock change keeps the rows (the stock is read apart) and shows the new stock
    stock = Stock.objects.get(product=products[0])
    stock.available = 11
    stock.save()
    cold_caches()
    shown = api_client.get("/publics/products?order=name").json()["data"]["registers"]
    assert [r["stock"] for r in shown if r["id"] == products[0].pk] == [11]
    assert not listed.intersection(rendered)
    # a renamed product retires every row (the `products` namespace): the request renders
    products[1].name = "Caneca renomeada"
    products[1].save()
    cold_caches()
    shown = api_client.get("/publics/products?order=name").json()["data"]["registers"]
    assert "Caneca renomeada" in [r["name"] for r in shown]
    assert listed <= set(rendered)
    # and the next pass renders them again, from which the next process reads them
    assert render_ahead().summaries_rendered == 3
    cold_caches()
    rendered.clear()
    again = api_client.get("/publics/products?order=name")
    assert again.json()["data"]["registers"] == shown
    assert not listed.intersection(rendered)


def test_an_unreadable_or_foreign_summary_row_is_rendered_again(api_client, products):
    live = api_client.get("/publics/products?order=name").content
    render_ahead()
    rows = ProductPageAhead.objects.filter(key__startswith="summary:")
    assert rows.count() == 3
    rows.filter(product=products[0]).update(answer=b"not a pickle")
    rows.filter(product=products[1]).update(answer=pickle.dumps(((0, 0), b"{}", b"")))  # stale
    cold_caches()
    assert api_client.get("/publics/products?order=name").content == live
