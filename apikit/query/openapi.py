"""OpenAPI description of a list's query parameters, from its FilterSet and paginator."""

from __future__ import annotations

from typing import Any

from .filters import MAX_ORDER_FIELDS, OPERATORS, ConditionFilter, ListFilterSet
from .pagination import ListPagination
from .values import DECIMAL, INT_MAX, INT_MIN, MAX_STR_LENGTH

# A bare (eq) condition value of each field type, as values.py coerces it.
CONDITION_VALUE_SCHEMAS: dict[str, dict[str, Any]] = {
    "int": {"type": "integer", "minimum": INT_MIN, "maximum": INT_MAX},
    "str": {"type": "string", "maxLength": MAX_STR_LENGTH},
    "bool": {"type": "boolean"},
    "decimal": {"type": "string", "pattern": f"^{DECIMAL.pattern}$"},
    "datetime": {"type": "string", "format": "date-time"},
    "date": {"type": "string", "format": "date"},
}


def list_query_parameters(
    filterset: type[ListFilterSet], *, max_limit: int = ListPagination.max_limit, limit: bool = True
) -> list:
    """OpenAPI query parameters for a list endpoint, for ``@extend_schema(parameters=...)``.

    ``fields`` and ``order`` are documented as comma-separated arrays and ``condition``
    as a bracket (deepObject) object with each filter's type; the JSON encodings are
    described in the text. ``limit=False`` leaves `limit` out (an endpoint that answers a
    single register).
    """
    # Imported here: the list declarations must not need the schema app.
    from drf_spectacular.utils import OpenApiParameter

    condition = {
        name.partition(".")[0]: dict(CONDITION_VALUE_SCHEMAS[item.extra["kind"]])
        for name, item in filterset.base_filters.items()
        if isinstance(item, ConditionFilter) and name.endswith(".eq")
    }
    orderable = list(filterset.base_filters["order"].param_map)
    default_limit, max_offset = ListPagination.default_limit, ListPagination.max_offset
    limit_parameter = OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": max_limit, "default": default_limit},
        description=f"Registers per page, 1 to {max_limit} (default {default_limit}).",
    )
    return [
        *([limit_parameter] if limit else []),
        OpenApiParameter(
            "offset",
            {"type": "integer", "minimum": 0, "maximum": max_offset, "default": 0},
            description=f"Registers to skip, 0 to {max_offset} (default 0).",
        ),
        OpenApiParameter(
            "fields",
            {"type": "array", "items": {"type": "string", "enum": sorted(filterset.output_fields)}},
            style="form",
            explode=False,
            description="Only these keys in each register: `fields=id,name`, "
            '`fields[]=id&fields[]=name` or `fields=["id","name"]`.',
        ),
        OpenApiParameter(
            "condition",
            {"type": "object", "properties": condition, "additionalProperties": False},
            style="deepObject",
            explode=True,
            description=(
                f"Filters on {', '.join(condition) or 'nothing'}: a JSON object "
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
                f"{','.join(filterset.default_order)}; id is always the last tie-breaker."
            ),
        ),
    ]
