"""List query parameters: limit, offset, fields, condition, order (DESIGN §5).

One pass over the query string (`querystring.collect`) decodes each parameter from its own
items (bracket or JSON forms); the values then go to the list's django-filter FilterSet
(filters.py: a filter per field and operator, an ordering filter) and to `ListPagination`
(DRF's LimitOffsetPagination). In a view::

    query = parse_list_query(request.query_params, REVIEW_LIST)   # 422 on bad input
    page = list_page(reviews, query, lambda rows: ReviewSerializer(rows, many=True).data)
    # {"registers": [...], "pagination": {"limit": 10, "offset": 0, "pages": 3, "registers": 25}}

with ``REVIEW_LIST = list_filterset(fields={"score": ListField("score", "int", order=True),
...}, output_fields=..., default_order=("-createdAt",))`` in <app>/api/lists.py, and
``parameters=list_query_parameters(REVIEW_LIST)`` in its schema. Encodings and caps:
docs/decisions.md. Errors: one ``ValidationError`` keyed ``limit``, ``offset``, ``fields``,
``order``, ``condition`` or ``condition.<field>``. Keep ListField paths single-valued
(``tags__name`` would repeat rows).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from django.db.models import Q, QuerySet
from rest_framework.exceptions import ValidationError

from ..querystring import MAX_LIST_LENGTH, clip, collect, decoded, indexed_list, strings
from .filters import (
    MAX_CONDITIONS,
    NULL,
    OPERATORS,
    TEXT_OPERATORS,
    ListField,
    ListFilterSet,
    list_filterset,
)
from .openapi import list_query_parameters
from .pagination import DEFAULT_LIMIT, MAX_LIMIT, ListPagination
from .values import InvalidValue

__all__ = ["ListField", "ListFilterSet", "ListQuery", "list_filterset", "list_page"]
__all__ += ["list_query_parameters", "parse_list_query", "sparse"]


@dataclass(frozen=True)
class ListQuery:
    limit: int
    offset: int
    fields: tuple[str, ...] | None  # None = all keys
    filter: Q = field(default_factory=Q)  # AND of all conditions (Q() when none)
    order_by: tuple[str, ...] = ("id",)  # ORM order_by arguments, ending with "id"


def _fields(items: list | None, filterset: type[ListFilterSet]) -> tuple[str, ...] | None:
    names = strings(*decoded(items, "fields"), name="fields")
    if not names:
        return None
    allowed = filterset.output_fields
    unknown = [clip(name) for name in dict.fromkeys(names) if name not in allowed]
    if unknown:
        raise InvalidValue(
            f"has unknown names: {', '.join(unknown[:10])} (allowed: {', '.join(sorted(allowed))})"
        )
    return tuple(dict.fromkeys(names))


def _conditions(items: list | None, filterset: type[ListFilterSet], errors: dict) -> dict:
    """FilterSet data ``{"<apiName>.<operator>": value}`` from `condition`, any encoding;
    names and operators the FilterSet does not declare go into `errors`."""
    raw = decoded(items, "condition")[0]
    if raw is None or raw == "":
        return {}
    if not isinstance(raw, dict):
        raise InvalidValue("must be a JSON object")
    too_many = InvalidValue(f"may have at most {MAX_CONDITIONS} conditions")
    if len(raw) > MAX_CONDITIONS:
        raise too_many
    filterable = [name for name, item in filterset.list_fields.items() if item.filter]
    pairs: list[tuple[str, str, Any]] = []
    for name, value in raw.items():
        if name not in filterable:
            errors.setdefault("condition", []).append(
                f"The condition field cannot filter by '{clip(name)}' "
                f"(allowed: {', '.join(filterable)})."
            )
        elif not isinstance(value, dict):  # a bare value means eq, a list means in
            pairs.append((name, "in" if isinstance(value, list) else "eq", value))
        elif not value:
            errors[f"condition.{name}"] = [
                f"The condition.{name} field must name at least one operator."
            ]
        else:
            pairs.extend((name, str(operator), operand) for operator, operand in value.items())
    if len(pairs) > MAX_CONDITIONS:
        errors.setdefault("condition", []).append(f"The condition field {too_many}.")
        return {}
    data: dict[str, Any] = {}
    for name, operator, operand in pairs:
        if operand is None and operator in ("eq", "ne"):
            operator, operand = "isNull", operator == "eq"
        if f"{name}.{operator}" in filterset.base_filters:
            data[f"{name}.{operator}"] = NULL if operand is None else operand
            continue
        problem = (
            f"cannot use {operator}: it applies to text fields only"
            if operator in TEXT_OPERATORS
            else f"has an unknown operator '{clip(operator)}' (use {', '.join(OPERATORS)})"
        )
        errors.setdefault(f"condition.{name}", []).append(f"The condition.{name} field {problem}.")
    return data


def _order(items: list | None) -> list[tuple[str, bool]]:
    """[(api name, descending)] from any accepted encoding of `order`."""
    raw = decoded(items, "order")[0]
    if isinstance(raw, dict):
        raw = [raw] if "field" in raw else indexed_list(raw, name="order")
    raw = [] if raw is None else [raw] if isinstance(raw, str) else raw
    if not isinstance(raw, list):
        raise InvalidValue("must be a list of fields")
    entries: list[tuple[str, bool]] = []
    for item in raw:
        if isinstance(item, str):
            for part in filter(None, (part.strip() for part in item.split(","))):
                entries.append((part.lstrip("+-").strip(), part.startswith("-")))
        elif isinstance(item, dict):
            name, direction = item.get("field"), item.get("direction", "asc")
            if not isinstance(name, str) or not name:
                raise InvalidValue("entries must name a field")
            if not isinstance(direction, str) or direction.lower() not in ("asc", "desc"):
                raise InvalidValue("direction must be asc or desc")
            if set(item) - {"field", "direction"}:
                raise InvalidValue("entries may only have field and direction")
            entries.append((name, direction.lower() == "desc"))
        else:
            raise InvalidValue("must be a list of fields")
        if len(entries) > MAX_LIST_LENGTH:  # a guard on repeats; distinct fields: the form
            raise InvalidValue(f"may have at most {MAX_LIST_LENGTH} entries")
    return entries


def parse_list_query(
    params: Any,
    filterset: type[ListFilterSet],
    *,
    default_limit: int = DEFAULT_LIMIT,
    max_limit: int = MAX_LIMIT,
) -> ListQuery:
    """Read limit, offset, fields, condition and order in one pass over `params`; raise one
    ValidationError listing every bad parameter (rendered as 422 VALIDATION_ERROR)."""
    names = ("limit", "offset", "fields", "condition", "order")  # also the order of errors
    items = collect(params, names)
    errors: dict[str, list[str]] = {}

    def read(name: str, parse: Callable[..., Any], *args: Any) -> Any:
        try:
            return parse(items.get(name), *args)
        except ValidationError as exc:
            errors.update(cast(dict, exc.detail))
        except InvalidValue as exc:
            errors[name] = [f"The {name} field {exc}."]
        return None

    paginator = ListPagination(default_limit=default_limit, max_limit=max_limit)
    read("limit", paginator.read_limit)
    read("offset", paginator.read_offset)
    fields = read("fields", _fields, filterset)
    data = read("condition", _conditions, filterset, errors) or {}
    order = read("order", _order)
    bound = filterset({**data, "order": order} if order else data)
    for name, messages in bound.errors.items():
        key = "order" if name == "order" else f"condition.{name.partition('.')[0]}"
        errors.setdefault(key, []).extend(f"The {key} field {message}." for message in messages)
    if errors:
        keys = sorted(errors, key=lambda key: names.index(key.partition(".")[0]))
        raise ValidationError({key: [str(message) for message in errors[key]] for key in keys})
    return ListQuery(
        limit=paginator.limit,
        offset=paginator.offset,
        fields=fields,
        filter=bound.condition(),
        order_by=bound.order_by(),
    )


def sparse(rows: list[dict], fields: tuple[str, ...] | None) -> list[dict]:
    """Keep only `fields` keys of each row (in the row's own key order); None keeps all."""
    if fields is None:
        return rows
    wanted = set(fields)
    return [{key: value for key, value in row.items() if key in wanted} for row in rows]


def list_page(queryset: QuerySet, query: ListQuery, serialize: Callable[[list], Any]) -> dict:
    """The page container for `query` over `queryset`: one COUNT query plus one page query.

    ``serialize`` gets the list of model objects of the page and returns a list of dicts.
    """
    paginator = ListPagination(limit=query.limit, offset=query.offset)
    rows = paginator.paginate_queryset(queryset.filter(query.filter).order_by(*query.order_by))
    return paginator.get_paginated_data(sparse(list(serialize(rows)), query.fields) if rows else [])
