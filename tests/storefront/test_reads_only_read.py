"""Reads only read (issue 31 item 3): every public GET/HEAD route of the URLconf, requested
under the write guard (tests/write_guard.py; tests/conftest.py puts every other GET of the
suite under it too), writes nothing to the database, including a quote that asks a live
carrier and learns an unknown postal code from the provider: what those record is written
after the answer (infra.deferred). And a quote is served from a read-only database."""

import re
from decimal import Decimal

import pytest
from django.core import signing
from django.db import connections
from django.http import HttpResponse
from django.urls import URLPattern, URLResolver, get_resolver, path
from django.urls.resolvers import RegexPattern

from bench.fake_carrier import FakeCarrier
from catalog.restocks import VISIT_SALT, unsubscribe_token
from infra import circuit, deferred
from shipping import provider
from shipping.models import CarrierCall, CarrierIntegration, PostalCode, ShippingTableKind
from storefront.tokens import token_issue
from tests.catalog.factories import CategoryFactory, StockFactory
from tests.feedback.factories import CommentFactory, ProductReviewFactory, StaffReplyFactory
from tests.marketing.factories import BannerGroupFactory
from tests.shipping.factories import PostalCodeFactory, ShippingRowFactory, ShippingTableFactory
from tests.shipping.test_api_quote import brackets, priced_product, sao_paulo_storage
from tests.shipping.test_postal_provider import SE, FakeProvider
from tests.storefront.factories import CustomerFactory, PaymentOptionFactory
from tests.write_guard import is_public_read, is_write, no_writes

pytestmark = pytest.mark.django_db

QUOTE = "/publics/products/quote"

# The sample of each regex route (path() routes are filled from the store's records).
REGEX_SAMPLES = {
    "account/password-reset/?$": "/account/password-reset",
    "demo/storefront/?$": "/demo/storefront/",
    "health/?$": "/health",
    "media/(?P<path>.*)$": "/media/no-such-file.png",
    "": "/no-such-page",  # the catch-all (fallback.unknown_url)
}


def public_routes() -> list[tuple[str, URLPattern]]:
    """(route, its pattern) for every URL pattern outside the admin."""
    found = []

    def walk(patterns, prefix):
        for entry in patterns:
            route = prefix + _text(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route)
            elif is_public_read("GET", "/" + route):
                found.append((route, entry))

    walk(get_resolver().url_patterns, "")
    return found


def _text(pattern) -> str:
    text = str(pattern)
    return text.removeprefix("^") if isinstance(pattern, RegexPattern) else text


def sample_path(route: str, values: dict[str, str]) -> str:
    if route.removeprefix("api/v3/") in REGEX_SAMPLES:
        return REGEX_SAMPLES[route.removeprefix("api/v3/")]
    assert "(?P" not in route, f"add a sample of the regex route {route!r} to REGEX_SAMPLES"
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda match: values[match[1]], route)


@pytest.fixture
def store(settings):
    """A store with a record behind every public read."""
    settings.PASSWORD_RESET_DEMO_PAGE = True
    settings.STOREFRONT_DEMO_PAGE = True
    storage = sao_paulo_storage()
    product = priced_product("80.00", weight=Decimal("1.000"))
    StockFactory(product=product, storage=storage, available=5)
    ShippingRowFactory(table=ShippingTableFactory(label="Table"))
    PostalCodeFactory()  # 01310-100
    category = CategoryFactory()
    BannerGroupFactory()
    PaymentOptionFactory()
    review = ProductReviewFactory(product=product)
    StaffReplyFactory(parent=CommentFactory(product=product, message="Serve em pés largos?"))
    customer = CustomerFactory()
    token = token_issue(customer_id=customer.pk, password_hash=customer.password).token
    return {
        "values": {
            "categoryId": str(category.pk),
            "locationId": "cart",
            "countryCode": "BRA",
            "zipCode": "01310-100",
            "productId": str(product.pk),
            "token": unsubscribe_token("ana@example.com"),  # a back-in-stock e-mail's links
            "link": signing.dumps([1, product.pk], salt=VISIT_SALT),
            "reviewId": str(review.pk),
        },
        "query": {
            "products-quote": brackets([(product.pk, 1)], targetZipCode="01310-100"),
            "product-review-list": {"productId": product.pk},
            "product-comment-list": {"productId": product.pk},
            "product-comment-similar": {"q": "pés largos"},
        },
        "headers": {"HTTP_AUTHORIZATION": f"Bearer {token}"},
    }


def test_every_public_get_and_head_route_writes_nothing(api_client, store, monkeypatch):
    flush = deferred.flush
    monkeypatch.setattr(deferred, "flush", lambda: 0)  # (written after the walk, not inside)
    routes = public_routes()
    assert len(routes) > 30  # (both prefixes, with and without the slash)
    answered = {}
    for route, pattern in routes:
        url = sample_path(route, store["values"])
        params = store["query"].get(pattern.name or "", {})
        for method in (api_client.get, api_client.head):
            with no_writes(f"{method.__name__.upper()} {url}") as guard:
                response = method(url, params, **store["headers"])
            assert guard.writes == []
            assert response.status_code < 500, (url, response.content[:300])
            answered[url] = response.status_code
    # the samples reach the views, not only their 404s
    assert answered["/publics/products/quote"] == 200
    assert answered["/shipping/zipcode/consult/BRA/01310-100"] == 200
    assert answered["/publics/customers/me"] == 200
    assert answered["/notices/back-in-stock/unsubscribe/" + store["values"]["token"]] == 200
    assert answered["/notices/back-in-stock/visit/" + store["values"]["link"]] == 302
    assert flush() >= 1  # the visit recorded by the GET (HEAD records nothing)
    assert answered["/review/product"] == 200
    assert answered[f"/publics/products/{store['values']['productId']}/comments/similar"] == 200


def test_the_guard_sees_writes():
    assert is_write("INSERT INTO t VALUES (1)")
    assert is_write('  update "t" SET a = 1')
    assert is_write("DELETE FROM t")
    assert is_write("WITH x AS (DELETE FROM t RETURNING id) SELECT * FROM x")
    assert not is_write("SELECT a FROM t FOR UPDATE")
    assert not is_write("SAVEPOINT s1")
    assert not is_write("SELECT 'INSERT INTO' FROM t")
    with pytest.raises(AssertionError, match="wrote to the database"), no_writes("a test"):
        PostalCodeFactory()


def _writing_view(request):
    PostalCodeFactory(code="99999999")
    return HttpResponse("written")


urlpatterns = [path("writes", _writing_view), path("admin/writes", _writing_view)]


@pytest.mark.urls("tests.storefront.test_reads_only_read")
def test_the_suites_client_fails_a_public_get_that_writes(client):
    with pytest.raises(AssertionError, match="GET /writes wrote to the database"):
        client.get("/writes")
    assert not PostalCode.objects.exists()
    # a POST may write, and so may the admin's pages
    assert client.post("/writes").status_code == 200
    PostalCode.objects.all().delete()
    assert client.get("/admin/writes").status_code == 200


# --- A quote that records: a live carrier and an unknown postal code --------------------------


@pytest.fixture
def recording_quote(settings, monkeypatch):
    """A quote to an unknown code (the provider knows it) with a live carrier table."""
    fake = FakeProvider()
    fake.answer("01001000", SE)
    settings.POSTAL_CODE_PROVIDER_ENABLED = True
    settings.POSTAL_CODE_PROVIDER_URL = fake.url
    # deadlines far above the fakes' answers: a CI machine under load once missed 1.5 s
    settings.POSTAL_CODE_PROVIDER_TIMEOUT_MS = 10_000
    settings.CARRIER_TIMEOUT_MS = 10_000
    monkeypatch.setenv("FAKE_CARRIER_TOKEN", "test-token")
    for breaker in circuit._registry.values():
        breaker.reset()
    provider.breaker.reset()
    storage = sao_paulo_storage()
    product = priced_product(
        "80.00", weight=Decimal("1"), height=Decimal(10), width=Decimal(15), length=Decimal(20)
    )
    StockFactory(product=product, storage=storage, available=5)
    ShippingRowFactory(table=ShippingTableFactory(label="Table"))
    with FakeCarrier() as carrier:
        table = ShippingTableFactory(label="Melhor Envio", kind=ShippingTableKind.LIVE)
        CarrierIntegration.objects.create(
            table=table, base_url=carrier.url, token_variable="FAKE_CARRIER_TOKEN"
        )
        yield brackets([(product.pk, 1)], targetZipCode="01001-000", deliveryDates="true")
    fake.stop()


def without_ids(response) -> bytes:
    """The answer without its fresh quote ids (new in every answer)."""
    assert response.status_code == 200, response.content
    return re.sub(rb'"quoteId":"[^"]+"', b'"quoteId":""', response.content)


def test_a_quote_that_asks_a_carrier_and_learns_a_code_answers_first_then_writes(
    api_client, recording_quote, monkeypatch
):
    flush = deferred.flush
    monkeypatch.setattr(deferred, "flush", lambda: 0)  # (the conftest's after-request flush)

    with no_writes("the quote"):
        first = api_client.get(QUOTE, recording_quote)

    assert b'"SEDEX"' in first.content  # the carrier was asked
    assert not PostalCode.objects.exists() and not CarrierCall.objects.exists()
    assert deferred.pending() == 2
    assert flush() == 2
    assert PostalCode.objects.get(code="01001000").city == "São Paulo"
    assert CarrierCall.objects.count() == 1
    # the same quote from the stored code and the cached carrier answer: the same bytes
    again = api_client.get(QUOTE, recording_quote)
    assert without_ids(again) == without_ids(first)
    assert flush() == 0


def test_the_zipcode_consult_answers_the_same_bytes_before_and_after_the_code_is_stored(
    api_client, settings
):
    fake = FakeProvider()
    fake.answer("01001000", {**SE, "lat": "-23.5503", "lng": -46.6339})
    settings.POSTAL_CODE_PROVIDER_ENABLED = True
    settings.POSTAL_CODE_PROVIDER_URL = fake.url
    provider.breaker.reset()
    try:
        first = api_client.get("/shipping/zipcode/consult/BRA/01001-000")  # (flushed after)
        stored = PostalCode.objects.get(code="01001000")
        again = api_client.get("/shipping/zipcode/consult/BRA/01001000")
    finally:
        fake.stop()
    assert first.status_code == 200
    assert again.content == first.content
    assert stored.latitude == Decimal("-23.550300")
    assert fake.hits == ["01001000"]


def test_a_code_learned_but_not_yet_stored_is_not_asked_of_the_provider_again(
    api_client, settings, monkeypatch
):
    fake = FakeProvider()
    fake.answer("01001000", SE)
    settings.POSTAL_CODE_PROVIDER_ENABLED = True
    settings.POSTAL_CODE_PROVIDER_URL = fake.url
    provider.breaker.reset()
    monkeypatch.setattr(deferred, "flush", lambda: 0)  # (no flush between the requests)
    try:
        first = api_client.get("/shipping/zipcode/consult/BRA/01001-000")
        again = api_client.get("/shipping/zipcode/consult/BRA/01001000")
    finally:
        fake.stop()
    assert again.content == first.content
    assert fake.hits == ["01001000"]
    assert not PostalCode.objects.exists()


# --- A read-only database -------------------------------------------------------------------


def read_only(alias: str, on: bool) -> None:
    """The connection refuses writes (SQLite's query_only; PostgreSQL's read-only default)."""
    connection = connections[alias]
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"PRAGMA query_only = {int(on)}")
        else:
            cursor.execute(f"SET default_transaction_read_only = {'on' if on else 'off'}")


@pytest.mark.django_db(transaction=True, databases=["default", "replica1"])
def test_a_quote_is_served_from_a_read_only_replica(
    api_client, recording_quote, settings, monkeypatch
):
    # given reads routed to the replica, and both connections refusing any write
    settings.DATABASE_REPLICA_ALIASES = ["replica1"]
    settings.DATABASE_REPLICA_GRACE_SECONDS = 0
    from django.core.cache import cache

    cache.clear()  # (no recent change: the replica is picked)
    read_only("default", True)
    read_only("replica1", True)
    try:
        with pytest.raises(Exception, match=r"readonly|read-only|read only"):
            PostalCode.objects.create(country="BRA", code="99999999")  # (it does refuse)
        flush = deferred.flush
        monkeypatch.setattr(deferred, "flush", lambda: 0)  # (written below, once writable)
        response = api_client.get(QUOTE, recording_quote)
    finally:
        read_only("default", False)
        read_only("replica1", False)
    # then the quote answered in full (the carrier's services, the learned code's dates)
    assert response.status_code == 200, response.content
    assert b'"SEDEX"' in response.content
    # and what it recorded is written once the database takes writes again
    assert flush() == 2
    assert PostalCode.objects.filter(code="01001000").exists()
    assert CarrierCall.objects.count() == 1
