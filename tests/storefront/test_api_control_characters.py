"""Control characters are refused once, before any view (issue 11, item 4).

Path segments and query keys/values: every C0 control and DEL. JSON strings: NUL, the C0
controls other than tab/LF/CR, and lone surrogates. Always a 422 VALIDATION_ERROR in the
envelope, never a 500 (PostgreSQL refuses NUL in text: run these on PostgreSQL too).
"""

import json

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from catalog.models import ProductInterest
from feedback.models import Comment
from storefront.models import Customer
from tests.catalog.factories import CategoryFactory, ProductFactory
from tests.helpers import assert_error_envelope

pytestmark = pytest.mark.django_db

# Every public endpoint: (route name, method, path with sample path values).
READ_ENDPOINTS = {
    "payments-card-flags": "/publics/payments/card-flags",
    "category-tree": "/publics/products/categories/tree",
    "category-subtree": "/publics/products/categories/{id}/tree",
    "banner-groups": "/api/v3/publics/template/banners",
    "zipcode-consult": "/shipping/zipcode/consult/BRA/01310100",
    "products-quote": "/publics/products/quote",
    "cart-upsell": "/cart/upsell/cart",
    "product-review-list": "/review/product",
    "sales-channel-review-list": "/review/sales-channel",
    "product-comment-list": "/publics/products/comments",
    "product-comment-similar": "/publics/products/{id}/comments/similar",
    "product-list": "/publics/products",
    "product-page": "/publics/products/{id}",
    "product-suggest": "/publics/products/suggest",
    "customer-me": "/publics/customers/me",
    "health": "/health",
}
WRITE_ENDPOINTS = {
    "payments-conditions": "/publics/payments/conditions",
    "product-interests": "/publics/products/interests",
    "product-comment-create": "/publics/products/{id}/comments",
    "customer-register": "/publics/customers",
    "customer-login": "/publics/customers/login",
    "customer-password-reset": "/publics/customers/password-reset",
    "product-review-vote": "/review/product/{id}/votes",
    "customer-password-reset-confirm": "/publics/customers/password-reset/confirm",
}
ENDPOINTS = {**READ_ENDPOINTS, **WRITE_ENDPOINTS}

URL_CONTROLS = ["%00", "%01", "%08", "%09", "%0A", "%0D", "%1B", "%1F", "%7F"]
JSON_CONTROLS = ["\u0000", "\u0001", "\u0008", "\u000b", "\u001f", "\ud800", "\udfff"]


def named_routes(patterns=None, prefix="") -> set[str]:
    names = set()
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            if str(entry.pattern).startswith("admin"):
                continue
            names |= named_routes(entry.url_patterns)
        elif isinstance(entry, URLPattern) and entry.name:
            names.add(entry.name)
    return names


def test_the_endpoint_list_covers_every_public_route():
    # The home page, the icon, the demo's password-reset page and starter storefront and the
    # back-in-stock e-mails' links are pages for people, not API endpoints
    # (tests/storefront/test_pages.py, test_password_reset_page.py, test_starter_page.py,
    # tests/catalog/test_restocks.py); the request guards still cover them, as every path.
    pages = {
        "home",
        "favicon",
        "demo-password-reset",
        "demo-storefront",
        "back-in-stock-unsubscribe",
        "back-in-stock-visit",
    }
    # The order system's signed webhook checks its JSON after the signature (its hostile
    # bodies: tests/feedback/test_api_trust.py); the request guards cover its path too.
    signed = {"orders-webhook"}
    assert named_routes() - {"schema", "swagger-ui", *pages, *signed} == set(ENDPOINTS)


@pytest.fixture
def ids():
    return {"id": ProductFactory().pk, "category": CategoryFactory().pk}


def sample(path: str, ids) -> str:
    if "categories/{id}" in path:
        return path.format(id=ids["category"])
    return path.format(id=ids["id"])


def call(api_client, name, url, **extra):
    method = "post" if name in WRITE_ENDPOINTS else "get"
    return getattr(api_client, method)(url, **extra)


@pytest.mark.parametrize("control", URL_CONTROLS)
@pytest.mark.parametrize("name", sorted(ENDPOINTS))
def test_a_control_character_in_a_query_value_is_422_on_every_endpoint(
    api_client, ids, name, control
):
    url = sample(ENDPOINTS[name], ids) + f"?codes=home{control}main&limit=1"
    response = call(api_client, name, url)
    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert body["data"]["errors"] == {
        "codes": ["The codes field must not contain control characters."]
    }


@pytest.mark.parametrize("name", sorted(ENDPOINTS))
def test_a_control_character_in_a_query_key_is_422_naming_it_escaped(api_client, ids, name):
    url = sample(ENDPOINTS[name], ids) + "?condition%5Bid%00%5D=1"
    response = call(api_client, name, url)
    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert list(body["data"]["errors"]) == ["condition[id\\x00]"]


@pytest.mark.parametrize("control", URL_CONTROLS)
@pytest.mark.parametrize("name", sorted(ENDPOINTS))
def test_a_control_character_in_any_path_segment_is_422_on_every_endpoint(
    api_client, ids, name, control
):
    segments = sample(ENDPOINTS[name], ids).split("/")
    for index in range(1, len(segments)):
        poisoned = [*segments]
        poisoned[index] = poisoned[index] + control
        response = call(api_client, name, "/".join(poisoned))
        body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
        assert body["data"]["errors"] == {"path": ["The path must not contain control characters."]}


def test_the_upsell_location_with_nul_is_422_not_500(api_client):
    # The probe of the issue: PostgreSQL answered 500.
    assert_error_envelope(api_client.get("/cart/upsell/cart%00"), 422, "VALIDATION_ERROR")


def test_a_control_character_in_the_admin_search_is_422_too(api_client, admin_client):
    response = admin_client.get("/admin/catalog/product/?q=a%00b")
    assert_error_envelope(response, 422, "VALIDATION_ERROR")


def test_percent_encoded_text_without_controls_passes(api_client):
    response = api_client.get("/api/v3/publics/template/banners?codes=caf%C3%A9%20%2B%25")
    assert_error_envelope(response, 404, "SERVICE_STORE_BANNER_GROUP_NOT_FOUND")


# --- JSON bodies -----------------------------------------------------------------------


def valid_bodies(ids) -> dict[str, dict]:
    return {
        "payments-conditions": {"items": [{"reference": "a", "value": 10}]},
        "product-interests": {
            "productId": ids["id"],
            "origin": "notify-me",
            "name": "Maria Silva",
            "email": "maria@example.com",
            "phone": "",
            "message": "hello",
        },
        "product-comment-create": {
            "message": "Does it fit?",
            "customerName": "Ana Souza",
            "customerEmail": "ana@example.com",
        },
        "customer-register": {
            "name": "Ana Souza",
            "email": "ana@example.com",
            "password": "a long enough password 123",
        },
        "customer-login": {"email": "ana@example.com", "password": "whatever it is"},
        "product-review-vote": {"helpful": True, "voterToken": "a-voter-token"},
        "customer-password-reset": {"email": "ana@example.com"},
        "customer-password-reset-confirm": {
            "uid": "MQ",
            "token": "cmt9zk-abc",
            "password": "a long enough password 123",
        },
    }


def post_json(api_client, url, body):
    return api_client.post(url, json.dumps(body), content_type="application/json")


def written() -> tuple[int, int, int]:
    return Comment.objects.count(), ProductInterest.objects.count(), Customer.objects.count()


@pytest.mark.parametrize("control", JSON_CONTROLS)
@pytest.mark.parametrize("name", sorted(WRITE_ENDPOINTS))
def test_a_control_character_in_any_json_string_is_422_naming_the_field(
    api_client, ids, name, control
):
    url = sample(WRITE_ENDPOINTS[name], ids)
    body = valid_bodies(ids)[name]
    for field, value in body.items():
        if not isinstance(value, str):
            continue
        response = post_json(api_client, url, {**body, field: value + control})
        data = assert_error_envelope(response, 422, "VALIDATION_ERROR")["data"]
        assert list(data["errors"]) == [field]
        assert data["errors"][field][0].startswith(f"The {field} field must not contain")
    assert written() == (0, 0, 0)


@pytest.mark.parametrize("name", sorted(WRITE_ENDPOINTS))
def test_nested_strings_and_keys_are_checked_too(api_client, ids, name):
    url = sample(WRITE_ENDPOINTS[name], ids)
    body = {**valid_bodies(ids)[name], "extra": [{"deep": ["ok", "bad\u0000"]}]}
    data = assert_error_envelope(post_json(api_client, url, body), 422, "VALIDATION_ERROR")
    assert list(data["data"]["errors"]) == ["extra.0.deep.1"]
    body = {**valid_bodies(ids)[name], "ke\u0001y": 1}
    data = assert_error_envelope(post_json(api_client, url, body), 422, "VALIDATION_ERROR")
    assert list(data["data"]["errors"]) == ["ke?y"]


def test_a_top_level_json_string_with_nul_is_422_on_body(api_client):
    response = post_json(api_client, "/publics/payments/conditions", "a\u0000")
    data = assert_error_envelope(response, 422, "VALIDATION_ERROR")["data"]
    assert list(data["errors"]) == ["body"]


def test_tab_newline_and_carriage_return_are_allowed_in_json_strings(api_client, ids):
    body = {**valid_bodies(ids)["product-comment-create"], "message": "Line 1\r\n\tLine 2"}
    response = post_json(api_client, f"/publics/products/{ids['id']}/comments", body)
    assert response.status_code == 201, response.content
    assert Comment.objects.get().message == "Line 1\r\n\tLine 2"


@pytest.mark.parametrize("content_type", ["application/json", "text/plain", None])
def test_banner_codes_in_a_get_body_are_checked_whatever_the_content_type(api_client, content_type):
    body = json.dumps({"codes": ["home\u0000"]})
    extra = {"content_type": content_type} if content_type else {}
    response = api_client.generic("GET", "/api/v3/publics/template/banners", body, **extra)
    data = assert_error_envelope(response, 422, "VALIDATION_ERROR")["data"]
    assert list(data["errors"]) == ["codes.0"]
