"""The OpenAPI schema documents the real shape of the upsell product's staff-managed
fields (issue 12): summaries, seals, filters and banner groups, not bare lists."""

import pytest
import yaml
from django.core.management import call_command

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schemas(tmp_path_factory, django_db_blocker):
    path = tmp_path_factory.mktemp("schema") / "schema.yaml"
    with django_db_blocker.unblock():
        call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    return yaml.safe_load(path.read_text())["components"]["schemas"]


def items_ref(schema: dict) -> str:
    assert schema["type"] == "array"
    return schema["items"]["$ref"].rsplit("/", 1)[-1]


def test_the_upsell_product_documents_each_staff_managed_field(schemas):
    product = schemas["UpsellProduct"]["properties"]

    assert items_ref(product["indicatedProducts"]) == "ProductSummary"
    assert items_ref(product["relatedProducts"]) == "ProductSummary"
    assert items_ref(product["seals"]) == "Seal"
    assert items_ref(product["filters"]) == "Filter"
    assert items_ref(product["bannerGroups"]) == "BannerGroup"
    assert "active ones only" in product["relatedProducts"]["description"]


def test_seal_and_filter_shapes(schemas):
    seal = schemas["Seal"]["properties"]
    assert set(seal) == {"id", "name", "image", "width", "height", "scheduling"}
    assert seal["image"]["format"] == "uri"
    assert seal["scheduling"]["nullable"] is True
    assert set(schemas["SealScheduling"]["properties"]) == {"startDate", "endDate"}
    assert set(schemas["Filter"]["properties"]) == {"attributeId", "name", "values"}
    assert items_ref(schemas["Filter"]["properties"]["values"]) == "AttributeValue"
