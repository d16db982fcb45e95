"""The OpenAPI schema generates without warnings and documents every public endpoint."""

import pytest
import yaml
from django.core.management import call_command

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
    v3 = [p for p in paths if p.startswith("/api/v3/")]
    assert all(p.endswith("/publics/template/banners") for p in v3)


def test_schema_and_docs_are_served(api_client):
    response = api_client.get("/api/schema/")
    assert response.status_code == 200
    docs = api_client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger-ui" in html and "cdn" not in html.lower()
