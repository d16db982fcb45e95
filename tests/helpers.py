"""Assertions and response shapes shared by the API tests of every app."""

from django.core.cache import cache

from apikit.caching import RECENT_ANSWERS
from infra.caching.kept import kept_clear


def cold_caches() -> None:
    """Forget every cached value: the shared cache, recent answers and what this process
    keeps in memory (store-wide data), as a process that just started."""
    cache.clear()
    RECENT_ANSWERS.clear()
    kept_clear()


# The product summary (contract: Product summary) as the catalog renders it, key by key in
# order; the review list renders it with `productId` in place of `id`.
PRODUCT_SUMMARY_KEYS = (
    "id",
    "brandId",
    "brandName",
    "mainCategoryId",
    "mainCategoryName",
    "type",
    "name",
    "sku",
    "url",
    "comparisonPrice",
    "stock",
    "medias",
    "combination",
    "currentAttributes",
    "active",
)
# One media of a product (summary and full product).
PRODUCT_MEDIA_KEYS = frozenset(
    {
        "id",
        "type",
        "title",
        "alternativeText",
        "file",
        "originalFile",
        "size",
        "originalSize",
        "width",
        "height",
        "url",
    }
)


def assert_error_envelope(response, status_code: int, error_code: str) -> dict:
    """The error envelope {"status": false, "data": {"code", "errorCode", "message"}} with
    `status_code` and `error_code`, as JSON and without a traceback; the whole body."""
    assert response.status_code == status_code, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["status"] is False
    assert body["data"]["code"] == status_code
    assert body["data"]["errorCode"] == error_code
    assert isinstance(body["data"]["message"], str) and body["data"]["message"]
    assert "Traceback" not in response.content.decode()
    return body


def assert_error(response, status_code: int, error_code: str) -> dict:
    """As assert_error_envelope; the envelope's `data`."""
    return assert_error_envelope(response, status_code, error_code)["data"]
