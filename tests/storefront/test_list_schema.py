"""The OpenAPI description of the four lists stays what it was before they moved onto DRF's
generic views (issue 21): parameters and responses, envelope and page components inlined,
compared with the snapshot taken before the change (list_schema.json)."""

import json
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command

pytestmark = pytest.mark.django_db

SNAPSHOT = Path(__file__).with_name("list_schema.json")
LIST_OPERATIONS = (
    "/review/product",
    "/review/sales-channel",
    "/publics/products/comments",
    "/cart/upsell/{locationId}",
    "/publics/products",  # issue 32
)
# Registers and the upsell are the serializers' business, not the list stack's: kept as refs.
NOT_INLINED = {"ProductReview", "SalesChannelReview", "Comment", "Upsell", "ListedProduct"}


def list_operations(schema: dict) -> dict:
    def inline(node):
        if isinstance(node, list):
            return [inline(item) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref", "")
        if ref and ref.rpartition("/")[2] not in NOT_INLINED:
            _hash, _components, kind, name = ref.split("/")  # schemas or headers
            return inline(schema["components"][kind][name])
        return {key: inline(value) for key, value in node.items()}

    return {
        path: inline(
            {key: schema["paths"][path]["get"].get(key) for key in ("parameters", "responses")}
        )
        for path in LIST_OPERATIONS
    }


def test_the_list_operations_are_documented_as_before(tmp_path):
    path = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(path))
    now = list_operations(yaml.safe_load(path.read_text()))
    before = json.loads(SNAPSHOT.read_text())
    for operation in LIST_OPERATIONS:
        assert now[operation] == before[operation], operation


if __name__ == "__main__":  # the snapshot: python -m tests.storefront.test_list_schema FILE
    import sys

    schema = yaml.safe_load(Path(sys.argv[1]).read_text())
    SNAPSHOT.write_text(json.dumps(list_operations(schema), indent=1, sort_keys=True) + "\n")
