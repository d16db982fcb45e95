"""apikit.context: the one per-request state the HTTP layer shares. No module hands another
an attribute set on a request or a response; `early_answers` hands `cached_answers` the
answer key, `conditional_response` hands it the rendered answer, list parameters are parsed
once, all through the context."""

import re
from pathlib import Path

import pytest
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from apikit import caching, querystring
from apikit.caching import cached_answers, conditional_response
from apikit.context import current, scope
from tests.catalog.factories import ProductFactory
from tests.feedback.factories import ProductReviewFactory

pytestmark = pytest.mark.cache

ROOT = Path(__file__).resolve().parents[2]
APPS = ("apikit", "infra", "storefront", "catalog", "marketing", "shipping", "feedback")
HANDED_OVER = re.compile(
    r"\b(request|response)\.(rendered_answer|answer_lookup|_list_items|_sales_channel)\b"
    r"|customer_token_rejected = True  # type: ignore"
)


def test_no_app_module_hands_state_over_on_a_request_or_response():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if HANDED_OVER.search(line)
    ]
    assert found == []


class Answer(APIView):
    calls = 0

    def get(self, request):
        Answer.calls += 1
        return conditional_response(request, {"status": True, "calls": Answer.calls})


class OtherResponse(APIView):
    def get(self, request):
        conditional_response(request, {"status": True})  # rendered, then not returned
        return conditional_response(request, {"status": False}).__class__(b"{}")


def test_a_view_called_without_the_middleware_still_keeps_its_answer():
    view = cached_answers(Answer.as_view(), namespaces=("context-test",))
    factory = APIRequestFactory()
    first = view(factory.get("/context-test", HTTP_HOST="testserver"))
    again = view(factory.get("/context-test", HTTP_HOST="testserver"))
    assert (first["X-Cache"], again["X-Cache"]) == ("miss", "hit")
    assert again.content == first.content
    assert current() is None  # the context opened for the call is closed


def test_only_the_answer_the_view_returns_is_kept():
    view = cached_answers(OtherResponse.as_view(), namespaces=("context-test-other",))
    factory = APIRequestFactory()
    assert view(factory.get("/context-other", HTTP_HOST="testserver"))["X-Cache"] == "miss"
    assert view(factory.get("/context-other", HTTP_HOST="testserver"))["X-Cache"] == "miss"


def test_scope_reuses_the_open_context():
    with scope() as outer, scope() as inner:
        assert inner is outer is current()
    assert current() is None


@pytest.mark.django_db
def test_a_miss_computes_its_answer_key_once_and_parses_list_parameters_once(
    api_client, monkeypatch
):
    product = ProductFactory()
    ProductReviewFactory(product=product)
    lookups, parses = [], []
    lookup, collect = caching._lookup, querystring.collect
    monkeypatch.setattr(caching, "_lookup", lambda *a: lookups.append(1) or lookup(*a))
    monkeypatch.setattr(querystring, "collect", lambda *a: parses.append(1) or collect(*a))

    response = api_client.get(
        "/review/product", {"condition[productId]": product.pk, "order[0][field]": "score"}
    )

    assert (response.status_code, response["X-Cache"]) == (200, "miss")
    assert len(lookups) == 1  # early_answers' key, reused by cached_answers
    assert len(parses) == 1  # condition, order and fields read one parse
