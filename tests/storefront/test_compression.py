"""Compressed answers (issue 33, item 2; apikit/compression.py): gzip (or Brotli when the
package is importable) for JSON answers of 1 KiB or more when Accept-Encoding accepts it,
Vary: Accept-Encoding, one ETag per encoding, a kept answer compressed once."""

import gzip
import json
import random
import types
from decimal import Decimal

import pytest
from django.http import HttpResponse, JsonResponse
from django.test import RequestFactory

from apikit import compression
from demo.feedback import DATA
from feedback.models import ProductReview
from storefront.models import Customer
from tests.catalog.factories import ProductFactory, ProductPriceFactory
from tests.feedback.factories import ProductReviewFactory

pytestmark = [pytest.mark.django_db, pytest.mark.cache]

ORIGIN = "https://loja.example"


@pytest.fixture
def hundred_reviews() -> str:
    """A product with 100 reviews written like the demo store's (the issue measured its page:
    104,508 bytes, 10,952 gzipped)."""
    product = ProductFactory(name="Caneca de cerâmica esmaltada")
    ProductPriceFactory(product=product, sale_price=Decimal("50.00"), comparison_price=0)
    rng = random.Random(33)
    texts = {int(score): texts for score, texts in DATA["review_texts"].items()}
    customers = Customer.objects.bulk_create(
        Customer(
            name=f"{rng.choice(DATA['first_names'])} {rng.choice(DATA['last_names'])}",
            email=f"cliente{n}@example.com",
        )
        for n in range(100)
    )
    ProductReview.objects.bulk_create(
        ProductReview(
            product=product,
            customer=customer,
            name=customer.name,
            email=customer.email,
            score=(score := rng.choice([5, 4, 3, 2, 1])),
            comment=rng.choice(texts[score]),
            recommended=score >= 3,
            active=True,
            masked=rng.random() < 0.15,
        )
        for customer in customers
    )
    return f"/review/product?condition%5BproductId%5D={product.pk}&limit=100"


def test_the_hundred_review_page_is_under_15_kb_gzipped_and_the_same_json(
    api_client, hundred_reviews
):
    plain = api_client.get(hundred_reviews)
    zipped = api_client.get(hundred_reviews, HTTP_ACCEPT_ENCODING="gzip, deflate, br")

    assert len(json.loads(plain.content)["data"]["registers"]) == 100
    assert len(plain.content) > 50_000 and "Content-Encoding" not in plain
    assert (zipped.status_code, zipped["Content-Encoding"]) == (200, "gzip")
    assert len(zipped.content) < 15_000
    assert zipped["Content-Length"] == str(len(zipped.content))
    assert gzip.decompress(zipped.content) == plain.content
    assert zipped["ETag"] == plain["ETag"][:-1] + '-gzip"'
    for response in (plain, zipped):
        assert "Accept-Encoding" in response["Vary"]


def test_a_hit_serves_the_bytes_compressed_when_the_answer_was_kept(
    api_client, hundred_reviews, monkeypatch
):
    miss = api_client.get(hundred_reviews, HTTP_ACCEPT_ENCODING="gzip")
    monkeypatch.setattr(compression, "compress", lambda *args: pytest.fail("compressed on a hit"))

    hit = api_client.get(hundred_reviews, HTTP_ACCEPT_ENCODING="gzip")
    plain_hit = api_client.get(hundred_reviews)

    assert (miss["X-Cache"], hit["X-Cache"], plain_hit["X-Cache"]) == ("miss", "hit", "hit")
    assert hit.content == miss.content and hit["ETag"] == miss["ETag"]
    assert hit["Content-Length"] == str(len(hit.content))
    assert gzip.decompress(hit.content) == plain_hit.content
    assert "Content-Encoding" not in plain_hit


def test_an_answer_is_compressed_once_by_the_first_request_that_asks(
    api_client, hundred_reviews, monkeypatch
):
    monkeypatch.setattr(compression, "brotli", None)
    compressed = []
    real_compress = compression.compress

    def counted(body: bytes, encoding: str) -> bytes:
        compressed.append(encoding)
        return real_compress(body, encoding)

    monkeypatch.setattr(compression, "compress", counted)

    plain_miss = api_client.get(hundred_reviews)
    asked_before = list(compressed)
    first = api_client.get(hundred_reviews, HTTP_ACCEPT_ENCODING="gzip")
    later = [api_client.get(hundred_reviews, HTTP_ACCEPT_ENCODING="gzip") for _ in range(3)]
    plain_hit = api_client.get(hundred_reviews)

    assert asked_before == []  # a client not asking for an encoding: nothing compressed
    assert compressed == ["gzip"]  # the first that asks compresses it, the answer keeps it
    assert [r["X-Cache"] for r in (plain_miss, first, *later)] == ["miss"] + ["hit"] * 4
    assert all(r.content == first.content and r["ETag"] == first["ETag"] for r in later)
    assert gzip.decompress(first.content) == plain_miss.content == plain_hit.content
    assert first["Content-Length"] == str(len(first.content))
    assert "Content-Encoding" not in plain_hit


@pytest.mark.parametrize("asked_with", ["gzip", "plain"])
def test_a_304_answers_if_none_match_with_either_etag_for_the_variant_asked(
    api_client, hundred_reviews, asked_with
):
    zipped = api_client.get(hundred_reviews, HTTP_ACCEPT_ENCODING="gzip")
    plain = api_client.get(hundred_reviews)
    etag = zipped["ETag"] if asked_with == "gzip" else plain["ETag"]

    not_modified = api_client.get(
        hundred_reviews, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=etag
    )
    plain_not_modified = api_client.get(hundred_reviews, HTTP_IF_NONE_MATCH=etag)

    assert (not_modified.status_code, not_modified["ETag"]) == (304, zipped["ETag"])
    assert not_modified.content == b"" and "Content-Encoding" not in not_modified
    assert (plain_not_modified.status_code, plain_not_modified["ETag"]) == (304, plain["ETag"])
    assert "Accept-Encoding" in not_modified["Vary"]


def test_an_other_etag_is_no_match(api_client, hundred_reviews):
    etag = api_client.get(hundred_reviews, HTTP_ACCEPT_ENCODING="gzip")["ETag"]

    response = api_client.get(
        hundred_reviews, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=etag[:-6] + 'x-gzip"'
    )

    assert response.status_code == 200


def test_head_has_the_headers_of_get_and_no_body(api_client, hundred_reviews):
    get = api_client.get(hundred_reviews, HTTP_ACCEPT_ENCODING="gzip")
    head = api_client.head(hundred_reviews, HTTP_ACCEPT_ENCODING="gzip")

    assert head.status_code == 200 and head.content == b""
    for name in ("Content-Encoding", "Content-Length", "ETag", "Vary"):
        assert head[name] == get[name]


@pytest.mark.parametrize(
    ("accept_encoding", "encoding"),
    [
        ("gzip", "gzip"),
        ("GZIP;q=0.5, identity", "gzip"),
        ("gzip;q=0", None),
        ("gzip;q=0.000", None),
        ("*", "gzip"),
        ("*;q=0", None),
        ("*, gzip;q=0", None),
        ("identity", None),
        ("deflate, br", None),  # no brotli here (see the next test)
        ("gzip;q=nonsense", None),
        ("", None),
        (",,;", None),
    ],
)
def test_accept_encoding_is_read_with_its_q_values(accept_encoding, encoding, monkeypatch):
    monkeypatch.setattr(compression, "brotli", None)
    request = RequestFactory().get("/", HTTP_ACCEPT_ENCODING=accept_encoding)

    assert compression.chosen_encoding(request) == encoding


def fake_brotli() -> types.ModuleType:
    module = types.ModuleType("brotli")
    module.compress = lambda body, quality: b"BR:" + body[:10]  # type: ignore[attr-defined]
    return module


@pytest.mark.parametrize(
    ("accept_encoding", "encoding"),
    [("gzip, br", "br"), ("br;q=0.5, gzip", "gzip"), ("*", "br"), ("br;q=0, *", "gzip")],
)
def test_brotli_is_preferred_when_the_package_is_importable(
    api_client, hundred_reviews, monkeypatch, accept_encoding, encoding
):
    monkeypatch.setattr(compression, "brotli", fake_brotli())

    miss = api_client.get(hundred_reviews, HTTP_ACCEPT_ENCODING=accept_encoding)
    hit = api_client.get(hundred_reviews, HTTP_ACCEPT_ENCODING=accept_encoding)

    for response in (miss, hit):
        assert response["Content-Encoding"] == encoding
        assert response["ETag"].endswith(f'-{encoding}"')
    assert hit.content == miss.content
    if encoding == "br":
        assert hit.content.startswith(b"BR:")


def test_an_answer_under_1_kib_is_not_compressed_but_varies(api_client):
    product = ProductFactory()
    ProductReviewFactory(product=product)
    url = f"/review/product?condition%5BproductId%5D={product.pk}"
    plain = api_client.get(url)

    response = api_client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_ORIGIN=ORIGIN)

    assert len(plain.content) < 1024
    assert "Content-Encoding" not in response and response.content == plain.content
    assert response["ETag"] == plain["ETag"]
    assert "Accept-Encoding" in response["Vary"]


def test_vary_keeps_origin_from_cors(api_client, hundred_reviews, settings):
    settings.CORS_ALLOWED_ORIGINS = [ORIGIN]

    for accept_encoding in ("gzip", "gzip"):  # the miss, then the hit
        response = api_client.get(
            hundred_reviews, HTTP_ACCEPT_ENCODING=accept_encoding, HTTP_ORIGIN=ORIGIN
        )
        vary = {part.strip().lower() for part in response["Vary"].split(",")}
        assert {"origin", "accept-encoding"} <= vary
        assert response["Content-Encoding"] == "gzip"


def middleware_answer(response: HttpResponse, accept_encoding: str = "gzip") -> HttpResponse:
    request = RequestFactory().get("/", HTTP_ACCEPT_ENCODING=accept_encoding)
    return compression.compressed_answers(lambda _: response)(request)  # type: ignore[return-value]


def test_an_answer_not_kept_is_compressed_per_response():
    payload = {"error": {"message": "x" * 2000}}

    response = middleware_answer(JsonResponse(payload, status=400))

    assert (response.status_code, response["Content-Encoding"]) == (400, "gzip")
    assert json.loads(gzip.decompress(response.content)) == payload


def test_an_encoded_streaming_or_non_json_answer_is_left_alone():
    encoded = HttpResponse(
        b"x" * 2000, content_type="application/json", headers={"Content-Encoding": "br"}
    )
    html = HttpResponse(b"x" * 2000, content_type="text/html")

    assert middleware_answer(encoded).content == b"x" * 2000
    assert "Content-Encoding" not in middleware_answer(html)
    assert "Vary" not in middleware_answer(html)
