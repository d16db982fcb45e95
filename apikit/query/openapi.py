"""OpenAPI description of the list query parameters of an endpoint (`list_query_parameters`)."""

from __future__ import annotations

from .condition import OPERATORS
from .spec import DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, MAX_ORDER_FIELDS, ListSpec
from .values import DECIMAL, INT_MAX, INT_MIN, MAX_STR_LENGTH

# A bare (eq) condition value of each field type, as values.py coerces it.
CONDITION_VALUE_SCHEMAS = {
    "int": {"type": "integer", "minimum": INT_MIN, "maximum": INT_MAX},
    "str": {"type": "string", "maxLength": MAX_STR_LENGTH},
    "bool": {"type": "boolean"},
    "decimal": {"type": "string", "pattern": f"^{DECIMAL.pattern}$"},
    "datetime": {"type": "string", "format": "date-time"},
    "date": {"type": "string", "format": "date"},
}


def list_query_parameters(
    spec: ListSpec, *, max_limit: int = MAX_LIMIT, limit: bool = True
) -> list:
    """OpenAPI query parameters for a list endpoint, for ``@extend_schema(parameters=...)``.

    ``fields`` and ``order`` are documented as comma-separated arrays and ``condition``
    as a bracket (deepObject) object; the JSON encodings are described in the text.
    ``limit=False`` leaves `limit` out, for an endpoint that answers a single register.
    """
    # Imported here: list specs are declared in selectors, which must not need the schema app.
    from drf_spectacular.utils import OpenApiParameter

    filterable = [name for name, item in spec.fields.items() if item.filter]
    orderable = [name for name, item in spec.fields.items() if item.order]
    limit_parameter = OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": max_limit, "default": DEFAULT_LIMIT},
        description=f"Registers per page, 1 to {max_limit} (default {DEFAULT_LIMIT}).",
    )
    return [
        *([limit_parameter] if limit else []),
        OpenApiParameter(
            "offset",
            {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0},
            description=f"Registers to skip, 0 to {MAX_OFFSET} (default 0).",
        ),
        OpenApiParameter(
            "fields",
            {"type": "array", "items": {"type": "string", "enum": sorted(spec.output_fields)}},
            style="form",
            explode=False,
            description="Only these keys in each register: `fields=id,name`, "
            '`fields[]=id&fields[]=name` or `fields=["id","name"]`.',
        ),
        OpenApiParameter(
            "condition",
            {
                "type": "object",
                "properties": {
                    name: dict(CONDITION_VALUE_SCHEMAS[spec.fields[name].type])
                    for name in filterable
                },
                "additionalProperties": False,
            },
            style="deepObject",
            explode=True,
            description=(
                f"Filters on {', '.join(filterable) or 'nothing'}: a JSON object "
                '(`condition={"score":5,"createdAt":{"gte":"2026-01-01"}}`) or brackets '
                "(`condition[score]=5&condition[createdAt][gte]=2026-01-01`). Operators: "
                f"{', '.join(OPERATORS)}; a bare value means eq."
            ),
        ),
        OpenApiParameter(
            "order",
            {
                "type": "array",
                "items": {
                    "type": "string",
                    "enum": [f"{sign}{name}" for name in orderable for sign in ("", "-")],
                },
                "maxItems": MAX_ORDER_FIELDS,
            },
            style="form",
            explode=False,
            description=(
                f"Sort by {', '.join(orderable) or 'nothing'}: `order=-createdAt,score`, "
                '`order=[{"field":"createdAt","direction":"desc"}]` or '
                "`order[0][field]=createdAt&order[0][direction]=desc`. Default: "
                f"{','.join(spec.default_order)}; id is always the last tie-breaker."
            ),
        ),
    ]
