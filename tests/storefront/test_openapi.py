"""The OpenAPI schema generates without warnings and documents every public endpoint."""

import pytest
import yaml
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator

from apikit.schema import SERVERS, SchemaView
from catalog.models import Category, Product

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema_file(tmp_path_factory, django_db_blocker):
    path = tmp_path_factory.mktemp("schema") / "schema.yaml"
    with django_db_blocker.unblock():
        call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    return yaml.safe_load(path.read_text())


def test_schema_generates_with_warnings_as_errors(schema_file):
    assert schema_file["openapi"].startswith("3.")


def test_schema_documents_each_public_path_once(schema_file):
    paths = set(schema_file["paths"])
    assert not [p for p in paths if p.endswith("/") and p != "/"]
    # Every path at its canonical form; the contract's /api/v3 path is there too (issue 33),
    # as a copy of the canonical one with its own operation id.
    assert [p for p in paths if p.startswith("/api/v3/")] == ["/api/v3/publics/template/banners"]
    canonical = schema_file["paths"]["/publics/template/banners"]["get"]
    prefixed = schema_file["paths"]["/api/v3/publics/template/banners"]["get"]
    assert prefixed["operationId"] == f"api_v3_{canonical['operationId']}"
    assert {**prefixed, "operationId": None} == {**canonical, "operationId": None}
    assert schema_file["servers"] == [{"url": "/", "description": SERVERS[0]["description"]}]


def test_schema_lists_health(schema_file, api_client):
    operation = schema_file["paths"]["/health"]["get"]
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(body["required"]) == {"status", "database", "cache", "cacheBreaker"}
    assert "503" in operation["responses"]
    # What the schema documents is what the endpoint answers.
    answer = api_client.get("/health").json()
    assert set(answer) == set(body["properties"])
    assert answer["status"] in body["properties"]["status"]["enum"]


def test_schema_paths_are_served_with_and_without_the_v3_prefix(api_client):
    for prefix in ("", "/api/v3"):
        response = api_client.get(f"{prefix}/publics/template/banners?codes=none")
        assert response.status_code == 404
        assert response.json()["data"]["errorCode"] == "SERVICE_STORE_BANNER_GROUP_NOT_FOUND"


def test_schema_and_docs_are_served(api_client):
    response = api_client.get("/api/schema/")
    assert response.status_code == 200
    docs = api_client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger-ui" in html and "cdn" not in html.lower()


def test_the_served_schema_is_built_once_per_language_and_format(api_client, monkeypatch):
    # given a count of the generator's builds, from an empty store of built documents
    monkeypatch.setattr(SchemaView, "kept", {})
    builds = []
    original = SchemaGenerator.get_schema
    monkeypatch.setattr(
        SchemaGenerator,
        "get_schema",
        lambda self, **kwargs: builds.append(1) or original(self, **kwargs),
    )
    # when clients ask again and again, with any version and languages the API does not speak
    first = api_client.get("/api/schema/")
    for query in ("", "?version=%3Cscript%3E", "?lang=zz", "?lang=en", "?x=1"):
        again = api_client.get(f"/api/schema/{query}")
        assert again.content == first.content
        assert again["Content-Type"] == "application/vnd.oai.openapi; charset=utf-8"
        assert again["Content-Disposition"] == 'inline; filename="Storefront API.yaml"'
    as_json = api_client.get("/api/schema/?format=json")
    portuguese = api_client.get("/api/schema/?lang=pt-br")
    api_client.get("/api/schema/?lang=pt")

    # then one build per language and format, the version never echoed
    assert len(builds) == 3
    assert as_json["Content-Type"] == "application/vnd.oai.openapi+json"
    assert as_json.json()["info"]["version"] == "3.0.0"
    assert yaml.safe_load(first.content)["info"]["version"] == "3.0.0"
    assert portuguese.content != first.content


def parameter(schema_file, path, name, method="get"):
    operation = schema_file["paths"][path][method]
    return next(p["schema"] for p in operation["parameters"] if p["name"] == name)


def test_parameters_document_the_values_the_api_accepts(schema_file):
    # Generated requests (schemathesis) only get past validation when these are precise.
    condition = parameter(schema_file, "/review/product", "condition")["properties"]
    # A field is a bare value (eq) or an object of operators (issue 33).
    score, by_operator = condition["score"]["oneOf"]
    assert score["type"] == "integer"
    assert by_operator["properties"]["gte"] == score
    assert by_operator["properties"]["in"]["items"] == score
    assert condition["recommended"]["oneOf"][0] == {"type": "boolean"}
    assert condition["createdAt"]["oneOf"][0] == {"type": "string", "format": "date-time"}
    category_id = parameter(
        schema_file, "/publics/products/categories/{categoryId}/tree", "categoryId"
    )
    assert category_id["minimum"] == 1
    quote = "/publics/products/quote"
    assert parameter(schema_file, quote, "targetCountryCode")["pattern"] == "^[A-Za-z]{3}$"
    assert parameter(schema_file, quote, "tradePolicyId")["minimum"] == 1
    cart = parameter(schema_file, "/cart/upsell/{locationId}", "variationMap")
    assert cart["additionalProperties"]["minimum"] == 0


def test_upsell_documents_offset_but_no_limit(schema_file):
    # The upsell answer is one offer: a page size would be ignored, so it is not offered.
    names = {
        p["name"] for p in schema_file["paths"]["/cart/upsell/{locationId}"]["get"]["parameters"]
    }
    assert {"offset", "condition", "order", "fields"} <= names
    assert "limit" not in names
    assert parameter(schema_file, "/review/product", "limit")["maximum"] == 100


@pytest.mark.parametrize(
    "path",
    [
        "/publics/products/interests",
        "/publics/products/{productId}/comments",
        "/publics/customers",
        "/publics/customers/login",
    ],
)
def test_throttled_operations_document_their_rate_limit_headers(schema_file, path):
    for status, response in schema_file["paths"][path]["post"]["responses"].items():
        headers = response.get("headers", {})
        assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(headers), (
            f"{path} {status} lacks the RateLimit headers"
        )


def test_the_quote_documents_explain_and_its_optional_explanations(schema_file):
    quote = "/publics/products/quote"
    assert parameter(schema_file, quote, "explain")["type"] == "boolean"
    components = schema_file["components"]["schemas"]
    group = components["QuoteGroup"]
    assert "explanation" in group["properties"]
    assert "explanation" not in group.get("required", [])
    verdict = components["TableVerdict"]["properties"]
    assert verdict["reasons"]["items"] == {"$ref": "#/components/schemas/QuoteTableRejectionEnum"}
    rejections = components["QuoteTableRejectionEnum"]["enum"]
    assert "postal_code_out_of_every_row" in rejections
    assert "explanation" not in components["QuoteResponse"].get("required", [])


# --- issue 33: what client generators need --------------------------------------------------


def nodes(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from nodes(value)


def test_every_nullable_has_a_type_beside_it(schema_file):
    # OpenAPI 3.0 reads `nullable` only with `type` (redocly's nullable-type-sibling).
    untyped = [node for node in nodes(schema_file) if node.get("nullable") and "type" not in node]
    assert untyped == []
    product = schema_file["components"]["schemas"]["Comment"]["properties"]["product"]
    assert product["type"] == "object" and product["nullable"] is True
    assert product["allOf"] == [{"$ref": "#/components/schemas/ProductSummary"}]


@pytest.mark.parametrize(
    ("component", "optional"),
    [
        ("InterestCreateRequest", {"phone", "message"}),
        ("ProductReviewWriteRequest", {"comment", "recommended", "masked"}),
        ("ReviewWriteRequest", {"comment", "recommended", "masked"}),
    ],
)
def test_optional_request_fields_have_no_default_that_generators_read_as_required(
    schema_file, component, optional
):
    schema = schema_file["components"]["schemas"][component]
    assert not optional & set(schema.get("required", ()))
    for name in optional:
        field = schema["properties"][name]
        assert "default" not in field  # openapi-typescript: a default makes it required
        assert "Default: " in field["description"]


def test_every_get_that_answers_a_304_says_so_with_its_cache_headers(schema_file):
    conditional = {
        path
        for path, item in schema_file["paths"].items()
        if "get" in item and "304" in item["get"]["responses"]
    }
    assert conditional == {
        "/cart/upsell/{locationId}",
        "/publics/payments/card-flags",
        "/publics/products/categories/{categoryId}/tree",
        "/publics/products/categories/tree",
        "/publics/products/comments",
        "/publics/products/{productId}/comments/similar",  # issue 34
        "/publics/products",  # issue 32
        "/publics/products/{productId}",
        "/publics/products/suggest",
        "/publics/template/banners",
        "/api/v3/publics/template/banners",
        "/review/product",
        "/review/sales-channel",
        "/shipping/zipcode/consult/{countryCode}/{zipCode}",
    }
    for path in conditional:
        responses = schema_file["paths"][path]["get"]["responses"]
        for status in ("200", "304"):
            assert set(responses[status]["headers"]) >= {"ETag", "Cache-Control"}, (path, status)
    # The quote is kept but never revalidated: new quote ids in each answer.
    quote = schema_file["paths"]["/publics/products/quote"]["get"]["responses"]
    assert "304" not in quote and "Cache-Control" in quote["200"]["headers"]
    # The signed-in customer is never kept by any cache either.
    me = schema_file["paths"]["/publics/customers/me"]["get"]["responses"]
    assert "304" not in me and "no-store" in me["200"]["headers"]["Cache-Control"]["description"]


@pytest.mark.django_db
def test_the_gets_said_conditional_answer_a_304_and_the_quote_does_not(api_client):
    # given the demo store (what `make run` serves)
    from io import StringIO

    call_command("seed_demo", stdout=StringIO())
    product = Product.objects.get(sku="DEMO-0014").pk
    trigger = Product.objects.get(sku="DEMO-0001").pk  # of the cart's upsell offer
    category = Category.objects.filter(active=True).order_by("pk").first().pk
    urls = [
        f"/cart/upsell/cart?variationMap%5B{trigger}%5D=0",
        "/publics/payments/card-flags",
        f"/publics/products/categories/{category}/tree",
        "/publics/products/categories/tree",
        f"/publics/products/comments?condition%5BproductId%5D={product}",
        f"/publics/products/{product}",
        "/publics/products?limit=2",
        "/publics/products/suggest?q=cami",
        "/api/v3/publics/template/banners?codes=home-main",
        "/review/product?condition%5Bscore%5D%5Bgte%5D=4",
        "/review/sales-channel",
        "/shipping/zipcode/consult/BRA/01310-100",
    ]
    for url in urls:
        # when each is asked again with its ETag
        first = api_client.get(url)
        assert first.status_code == 200, url
        again = api_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        # then it answers 304 with its cache headers
        assert again.status_code == 304, url
        assert again["ETag"] == first["ETag"] and again["Cache-Control"], url
    quote = api_client.get(
        "/publics/products/quote?targetZipCode=01310-100&targetCountryCode=BRA"
        f"&items%5B0%5D%5BproductId%5D={product}&items%5B0%5D%5Bquantity%5D=1"
    )
    assert quote.status_code == 200 and quote["Cache-Control"] == "no-store"
    assert "ETag" not in quote


def _operation(schema_file, path):
    operation = schema_file["paths"][path]["get"]
    return operation, {p["name"]: p for p in operation.get("parameters", [])}


def test_the_catalogue_operations_document_every_parameter_facet_and_error(schema_file, api_client):
    # issue 32: the product page, the listing and suggest, checked against what they answer
    from tests.catalog.factories import ProductFactory

    product = ProductFactory()
    listing, listed = _operation(schema_file, "/publics/products")
    page, paged = _operation(schema_file, "/publics/products/{productId}")
    suggest, suggested = _operation(schema_file, "/publics/products/suggest")
    assert set(listed) == {"limit", "offset", "fields", "condition", "order", "q"}
    assert set(paged) == {"productId", "fields"}
    assert set(suggested) == {"q"} and suggested["q"]["required"]
    # every condition with its operators; each is accepted, and another name is a 422
    conditions = listed["condition"]["schema"]["properties"]
    operators = {
        name: next(o for o in spec["oneOf"] if o.get("type") == "object")["properties"]
        for name, spec in conditions.items()
    }
    assert {name: sorted(ops) for name, ops in operators.items()} == {
        "categoryId": ["eq", "in"],
        "brandId": ["eq", "in"],
        "attributeValueId": ["eq", "in"],
        "price": ["eq", "gt", "gte", "lt", "lte"],
        "inStock": ["eq"],
        "sealId": ["eq", "in"],
    }
    for name, ops in operators.items():
        value = "true" if name == "inStock" else "1"
        for op in ops:
            query = f"condition[{name}][{op}]={value}"
            assert api_client.get(f"/publics/products?{query}").status_code == 200, query
    assert api_client.get("/publics/products?condition[stock]=1").status_code == 422
    # fields: every documented name is a key of a register (and of the page), and back; the
    # opt-in verifiedReviews is a key only when `fields` names it
    register = api_client.get("/publics/products").json()["data"]["registers"][0]
    assert set(listed["fields"]["schema"]["items"]["enum"]) == {*register, "verifiedReviews"}
    body = api_client.get(f"/publics/products/{product.pk}").json()
    assert set(paged["fields"]["schema"]["items"]["enum"]) == {*body, "verifiedReviews"}
    opted = api_client.get("/publics/products?fields=id,verifiedReviews").json()
    assert set(opted["data"]["registers"][0]) == {"id", "verifiedReviews"}
    assert set(listed["order"]["schema"]["items"]["enum"]) >= {
        *("name", "-name", "price", "-price", "-createdAt", "-score", "relevance")
    }
    # every facet, as answered
    components = schema_file["components"]["schemas"]
    facets = components["Facets"]
    answered = api_client.get("/publics/products").json()["data"]["facets"]
    assert set(facets["required"]) == set(facets["properties"]) == set(answered)
    assert set(components["Counted"]["properties"]) == {"id", "name", "count"}
    assert set(components["AttributeFacet"]["properties"]) == {"id", "name", "values"}
    assert set(components["AttributeValueFacet"]["properties"]) == {"id", "label", "count"}
    assert set(components["PriceFacet"]["properties"]) == {"min", "max"}
    # every error each answers
    for operation, codes in (
        (listing, {"200", "304", "422", "500", "503"}),
        (page, {"200", "304", "404", "422", "500", "503"}),
        (suggest, {"200", "304", "422", "500", "503"}),
    ):
        assert set(operation["responses"]) == codes
    assert "SERVICE_STORE_PRODUCT_NOT_FOUND" in page["responses"]["404"]["description"]
