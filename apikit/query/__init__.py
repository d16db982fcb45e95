"""List query parameters: limit, offset, fields, condition, order (DESIGN §5).

Each list endpoint declares a whitelist (`ListSpec`) of API field names with their ORM
paths and types; `parse_list_query` turns the query string into a `ListQuery` (a ``Q``
filter and ``order_by`` arguments built only from that whitelist), and `list_page`
returns the page container. Usage in a selector/view::

    REVIEW_LIST = ListSpec(
        fields={
            "id": ListField("id", "int", order=True),
            "score": ListField("score", "int", order=True),
            "customerName": ListField("customer_name", "str"),
            "createdAt": ListField("created_at", "datetime", order=True),
        },
        output_fields=frozenset({"id", "score", "customerName", "comment", "createdAt"}),
        default_order=("-createdAt",),
    )

    query = parse_list_query(request.query_params, REVIEW_LIST)   # 422 on bad input
    page = list_page(
        ProductReview.objects.public(),
        query,
        lambda rows: ReviewSerializer(rows, many=True).data,
    )
    return success(page)
    # {"registers": [...], "pagination": {"limit": 10, "offset": 0, "pages": 3, "registers": 25}}

The accepted encodings and limits (bracket and JSON forms, operators, caps) are written
once, in docs/decisions.md, "List query toolkit". The query string is read in one pass
(`querystring.collect`); each parameter is then decoded from its own items.

Errors are one ``ValidationError`` with a key per parameter (``limit``, ``offset``,
``fields``, ``order``, ``condition`` or ``condition.<field>``).

OpenAPI: ``@extend_schema(parameters=list_query_parameters(REVIEW_LIST), ...)`` documents
the five parameters with the spec's names.

Note: a ListField path across a multi-valued relation (``tags__name``) can repeat rows;
keep whitelisted paths single-valued.

Modules: spec (declarations, limits), values (type coercion), condition, order, openapi.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from rest_framework.exceptions import ValidationError

from ..querystring import clip, collect, decoded, strings
from .condition import OPERATORS, parse_condition
from .openapi import list_query_parameters
from .order import parse_order
from .spec import (
    DEFAULT_LIMIT,
    MAX_CONDITIONS,
    MAX_LIMIT,
    MAX_OFFSET,
    MAX_ORDER_FIELDS,
    FieldType,
    ListField,
    ListQuery,
    ListSpec,
)
from .values import INTEGER, InvalidValue

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_CONDITIONS",
    "MAX_LIMIT",
    "MAX_OFFSET",
    "MAX_ORDER_FIELDS",
    "OPERATORS",
    "FieldType",
    "ListField",
    "ListQuery",
    "ListSpec",
    "list_page",
    "list_query_parameters",
    "parse_list_query",
    "sparse",
]


_PARAMETERS = ("limit", "offset", "fields", "condition", "order")


def _bounded_int(items: list | None, name: str, default: int, low: int, high: int) -> int:
    """`name` from its `collect` items: one plain integer from `low` to `high`."""
    if not items:
        return default
    if any(key != name for key, _, _ in items):
        raise InvalidValue(f"The {name} field must be a single integer, not a list or object.")
    _, value, raw = items[0]
    if value is None:  # a plain dict's None, as if absent
        return default
    if not raw and isinstance(value, list):
        raise InvalidValue(f"The {name} field must be given once.")
    message = f"The {name} field must be an integer from {low} to {high}."
    if isinstance(value, bool):
        raise InvalidValue(message)
    if isinstance(value, str):
        if not INTEGER.fullmatch(value):
            raise InvalidValue(message)
        value = int(value)
    if not isinstance(value, int) or not low <= value <= high:
        raise InvalidValue(message)
    return value


def _parse_fields(items: list | None, spec: ListSpec, errors: dict[str, list[str]]):
    try:
        names = strings(*decoded(items, "fields"), name="fields")
    except ValidationError as exc:
        errors.update(exc.detail)
        return None
    if not names:
        return None
    names = list(dict.fromkeys(names))
    unknown = [clip(name) for name in names if name not in spec.output_fields]
    if unknown:
        allowed = ", ".join(sorted(spec.output_fields))
        errors["fields"] = [
            f"The fields field has unknown names: {', '.join(unknown[:10])} (allowed: {allowed})."
        ]
        return None
    return tuple(names)


def parse_list_query(
    params: Any,
    spec: ListSpec,
    *,
    default_limit: int = DEFAULT_LIMIT,
    max_limit: int = MAX_LIMIT,
) -> ListQuery:
    """Read limit, offset, fields, condition and order in one pass over `params`; raise one
    ValidationError listing every bad parameter (rendered as 422 VALIDATION_ERROR)."""
    items = collect(params, _PARAMETERS)  # a ValidationError when params is not a mapping
    errors: dict[str, list[str]] = {}
    limit, offset = default_limit, 0
    try:
        limit = _bounded_int(items.get("limit"), "limit", default_limit, 1, max_limit)
    except InvalidValue as exc:
        errors["limit"] = [str(exc)]
    try:
        offset = _bounded_int(items.get("offset"), "offset", 0, 0, MAX_OFFSET)
    except InvalidValue as exc:
        errors["offset"] = [str(exc)]
    fields = _parse_fields(items.get("fields"), spec, errors)
    condition = parse_condition(items.get("condition"), spec, errors)
    order_by = parse_order(items.get("order"), spec, errors)
    if errors:
        raise ValidationError({key: [str(message) for message in errors[key]] for key in errors})
    return ListQuery(limit=limit, offset=offset, fields=fields, filter=condition, order_by=order_by)


def sparse(rows: list[dict], fields) -> list[dict]:
    """Keep only `fields` keys of each row (in the row's own key order); None keeps all."""
    if fields is None:
        return rows
    wanted = set(fields)
    return [{key: value for key, value in row.items() if key in wanted} for row in rows]


def list_page(queryset: QuerySet, query: ListQuery, serialize: Callable[[list], list]) -> dict:
    """The page container for `query` over `queryset`: one COUNT query plus one page query.

    ``serialize`` gets the list of model objects of the page and returns a list of dicts.
    """
    queryset = queryset.filter(query.filter).order_by(*query.order_by)
    total = queryset.count()
    if query.offset < total:
        objects = list(queryset[query.offset : query.offset + query.limit])
        registers = sparse(list(serialize(objects)), query.fields)
    else:
        registers = []
    return {
        "registers": registers,
        "pagination": {
            "limit": query.limit,
            "offset": query.offset,
            "pages": math.ceil(total / query.limit) if total else 0,
            "registers": total,
        },
    }
