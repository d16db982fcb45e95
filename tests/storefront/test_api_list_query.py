"""The list-query toolkit through HTTP, on a test-only customer list (query_urls.py)."""

import pytest

from tests.storefront.factories import CustomerFactory

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.storefront.query_urls")]


def test_a_page_comes_in_the_page_container(api_client):
    CustomerFactory.create_batch(3)
    response = api_client.get("/customers", {"limit": 2, "fields": "id,name"})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] is True
    assert body["data"]["pagination"] == {"limit": 2, "offset": 0, "pages": 2, "registers": 3}
    assert [set(row) for row in body["data"]["registers"]] == [{"id", "name"}, {"id", "name"}]


def test_bracket_condition_and_order_work_through_http(api_client):
    CustomerFactory(name="Ana")
    CustomerFactory(name="Bia")
    CustomerFactory(name="Caio", active=False)
    response = api_client.get(
        "/customers?condition[active]=true&order[0][field]=name&order[0][direction]=desc"
    )
    assert response.status_code == 200
    assert [row["name"] for row in response.json()["data"]["registers"]] == ["Bia", "Ana"]


@pytest.mark.parametrize("limit", ["0", "101", "abc", "1.5", "-3", "9" * 30])
def test_a_bad_limit_is_a_422_envelope(api_client, limit):
    response = api_client.get("/customers", {"limit": limit})
    assert response.status_code == 422
    assert response.json() == {
        "status": False,
        "data": {
            "code": 422,
            "errorCode": "VALIDATION_ERROR",
            "message": "The limit field must be an integer from 1 to 100.",
            "errors": {"limit": ["The limit field must be an integer from 1 to 100."]},
        },
    }


def test_a_bad_condition_is_a_422_envelope_naming_the_field(api_client):
    response = api_client.get("/customers", {"condition": '{"createdAt":{"gte":"soon"}}'})
    assert response.status_code == 422
    data = response.json()["data"]
    assert data["errorCode"] == "VALIDATION_ERROR"
    assert list(data["errors"]) == ["condition.createdAt"]
    assert data["errors"]["condition.createdAt"][0].startswith(
        "The condition.createdAt field must be an ISO 8601 date-time"
    )


@pytest.mark.parametrize(
    "query",
    [
        "condition[password]=x",
        "condition[name__startswith]=x",
        "condition=%7B%22id%22%3A",
        "condition=" + "%5B" * 5000,
        "order=password",
        "fields=password",
        "limit[0]=1",
        "condition[id][in]=" + ",".join(["1"] * 500),
        "condition[name]=" + "x" * 10_000,
        "condition[a[b=1",
    ],
)
def test_hostile_list_queries_are_422_never_500(api_client, settings, query):
    # The toolkit's own limits, tested past the URL cap (414 by default, test_request_guards).
    settings.MAX_URL_BYTES = 100_000
    response = api_client.get(f"/customers?{query}")
    assert response.status_code == 422
    assert response.json()["data"]["errorCode"] == "VALIDATION_ERROR"


def test_several_bad_parameters_are_reported_together(api_client):
    response = api_client.get("/customers?limit=0&offset=-1&order=nope")
    data = response.json()["data"]
    assert set(data["errors"]) == {"limit", "offset", "order"}
    assert data["message"].endswith("(and 2 more errors)")


def test_list_endpoint_query_count_does_not_grow_with_the_page(
    api_client, django_assert_max_num_queries
):
    CustomerFactory.create_batch(150)
    with django_assert_max_num_queries(2):
        response = api_client.get("/customers?limit=100")
    assert len(response.json()["data"]["registers"]) == 100


def test_openapi_parameters_describe_every_list_parameter():
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    # Given the OpenAPI schema of the test-only list
    schema = SchemaGenerator(urlconf="tests.storefront.query_urls").get_schema(public=True)
    validate_schema(schema)
    parameters = {p["name"]: p for p in schema["paths"]["/customers"]["get"]["parameters"]}
    # Then each list parameter is described with its whitelist
    assert set(parameters) == {"limit", "offset", "fields", "condition", "order"}
    assert parameters["condition"]["style"] == "deepObject"
    assert set(parameters["condition"]["schema"]["properties"]) == {
        "lastLogin",
        "createdOn",
        "id",
        "name",
        "active",
        "createdAt",
    }
    assert parameters["fields"]["schema"]["items"]["enum"] == ["createdAt", "email", "id", "name"]
    assert "-createdAt" in parameters["order"]["schema"]["items"]["enum"]
    assert "-createdOn" not in parameters["order"]["schema"]["items"]["enum"]
