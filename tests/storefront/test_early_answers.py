"""Kept answers leave from `apikit.caching.early_answers`, above the per-user middleware
(sessions, the admin's language, CSRF, authentication, messages): a hit carries the bytes and
the headers of the miss that rendered it, CORS included, and runs none of those middleware
(issue 19)."""

from decimal import Decimal

import pytest
from django.contrib.sessions.middleware import SessionMiddleware

from tests.catalog.factories import (
    CategoryFactory,
    PriceRuleFactory,
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
)
from tests.feedback.factories import CommentFactory, ProductReviewFactory
from tests.marketing.factories import UpsellFactory
from tests.shipping.factories import PostalCodeFactory, ShippingRowFactory, ShippingTableFactory

pytestmark = [pytest.mark.django_db, pytest.mark.cache]

ORIGIN = "https://loja.example"


@pytest.fixture
def urls(media_root, settings) -> dict[str, str]:
    settings.CORS_ALLOWED_ORIGINS = [ORIGIN]
    product = ProductFactory(name="Caneca")
    ProductPriceFactory(product=product, sale_price=Decimal("50.00"), comparison_price=0)
    storage = StorageFactory()
    StockFactory(product=product, storage=storage, available=7)
    ShippingRowFactory(table=ShippingTableFactory(storages=[storage]))
    ProductReviewFactory(product=product, active=True)
    CommentFactory(product=product, active=True)
    cart = ProductFactory()
    UpsellFactory(product=product, price_rule=PriceRuleFactory(trigger="upsell", value=0))
    PostalCodeFactory(country="BRA", code="01310100", city="São Paulo")
    category = CategoryFactory()
    return {
        "reviews": f"/review/product?condition[productId]={product.pk}",
        "comments": f"/publics/products/comments?condition[productId]={product.pk}",
        "subtree": f"/publics/products/categories/{category.pk}/tree",
        "zipcode": "/shipping/zipcode/consult/BRA/01310-100",
        "card flags": "/api/v3/publics/payments/card-flags/",
        "upsell": f"/cart/upsell/cart?variationMap[{cart.pk}]=",
        "quote": (
            "/publics/products/quote?targetCountryCode=BRA&targetZipCode=20040-002"
            f"&items[0][productId]={product.pk}&items[0][quantity]=1"
        ),
    }


def headers(response) -> dict[str, str]:
    return {
        name: value
        for name, value in response.headers.items()
        if name not in ("Date", "X-Cache") and not (name == "ETag" and "quote" in response.url)
    }


@pytest.mark.parametrize(
    "name", ["reviews", "comments", "subtree", "zipcode", "card flags", "upsell", "quote"]
)
def test_a_hit_has_the_bytes_and_headers_of_its_miss(api_client, urls, name):
    miss = api_client.get(urls[name], HTTP_ORIGIN=ORIGIN)
    miss.url = urls[name]
    hit = api_client.get(urls[name], HTTP_ORIGIN=ORIGIN)
    hit.url = urls[name]

    assert (miss.status_code, miss["X-Cache"], hit["X-Cache"]) == (200, "miss", "hit")
    assert headers(hit) == headers(miss)
    assert hit["Access-Control-Allow-Origin"] == ORIGIN
    assert hit["Content-Length"] == str(len(hit.content))
    if name != "quote":  # each quote has new quote ids
        assert hit.content == miss.content


def test_a_not_modified_hit_has_the_headers_of_a_not_modified_miss(api_client, urls):
    etag = api_client.get(urls["zipcode"])["ETag"]

    hit = api_client.get(urls["zipcode"], HTTP_IF_NONE_MATCH=etag)

    assert (hit.status_code, hit["X-Cache"], hit["Content-Length"]) == (304, "hit", "0")
    assert hit["X-Frame-Options"] == "DENY" and hit["ETag"] == etag


def test_a_hit_runs_none_of_the_per_user_middleware(api_client, urls, monkeypatch):
    calls = []
    original = SessionMiddleware.process_request
    monkeypatch.setattr(
        SessionMiddleware,
        "process_request",
        lambda self, request: calls.append(request.path) or original(self, request),
    )
    assert api_client.get(urls["reviews"])["X-Cache"] == "miss"
    assert len(calls) == 1

    assert api_client.get(urls["reviews"])["X-Cache"] == "hit"
    assert len(calls) == 1  # the session middleware never saw the hit


def test_a_kept_answer_is_never_served_to_an_unlisted_host(api_client, urls):
    assert api_client.get(urls["zipcode"])["X-Cache"] == "miss"
    assert api_client.get(urls["zipcode"])["X-Cache"] == "hit"

    refused = api_client.get(urls["zipcode"], HTTP_HOST="evil.example")

    assert refused.status_code == 400 and "X-Cache" not in refused
    assert refused.json()["status"] is False


def _routes(patterns, prefix: str = ""):
    """(route text, pattern) of every URL pattern, includes walked."""
    from django.urls.resolvers import URLResolver

    for pattern in patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, text)
        else:
            yield text, pattern


def test_no_route_tells_one_number_from_another():
    # early_answers resolves a path with each all-digit segment read as 0 (one resolution for
    # every product page): right only while no route has a segment of fixed digits and every
    # converter takes any digits as it takes 0
    import re

    from django.urls import get_resolver
    from django.urls.converters import get_converters

    routes = list(_routes(get_resolver().url_patterns))
    assert len(routes) > 50
    for text, _ in routes:
        assert not re.search(r"(^|/|\^)[0-9]+(/|\$|$|\?)", text), text
    converters = get_converters()
    assert set(converters) == {"int", "path", "slug", "str", "uuid"}  # Django's own only


def test_every_product_page_shares_one_resolution(api_client):
    from apikit import caching

    caching._policy_of_shape.cache_clear()
    for number in (1, 22, 333, 4444):
        caching._policy_of(f"/publics/products/{number}")
    info = caching._policy_of_shape.cache_info()
    assert (info.misses, info.hits) == (1, 3)
    assert caching._policy_of("/publics/products/5") is caching._policy_of("/publics/products/x")
