"""The lists' generic view and paginator (DESIGN §5): a list declares its queryset,
serializer, `filterset_class`, `ordering_fields` and `pagination_class`; one 422 names every
bad parameter; the answer has ETag and 304, one COUNT query and one page query.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from django.db import connections
from django.db.models import QuerySet, prefetch_related_objects
from django.db.models.query import ModelIterable, RawQuerySet
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.metadata import SimpleMetadata
from rest_framework.pagination import LimitOffsetPagination

from infra.queries import Statement, Statements, learn_statement

from .caching import conditional_response
from .filters import (
    INTEGER,
    ConditionFilter,
    InvalidValue,
    SparseFields,
    StrictOrdering,
    schema_parameter,
    text_matching,
)
from .querystring import LIST_PARAMETERS, invalid, query_items
from .responses import envelope, rendered_rows

Term = tuple[str, Any, str, Any]  # (API name, its filters.Filter, operator, operand)


def _operands(terms: list[Term]) -> list[Any]:
    return [
        value
        for _, _, operator, operand in terms
        for value in (operand if operator in ("in", "nin") else [operand])
    ]


def _with_operands(terms: list[Term], values: list[int]) -> list[Term]:
    """`terms` with their operands replaced, in order, by `values`."""
    replaced, rest = [], iter(values)
    for name, item, operator, operand in terms:
        if operator in ("in", "nin"):
            operand = [next(rest) for _ in operand]
        else:
            operand = next(rest)
        replaced.append((name, item, operator, operand))
    return replaced


@dataclass(frozen=True)
class QueryPlan:
    """A list's page and count statements for one query shape (the conditions' names and
    operators, the order, the database), compiled once: the ORM builds and compiles them on
    the shape's first request; later pages bind the operands to Django's SQL and the rows
    are its model instances (`RawQuerySet`, with the queryset's prefetches)."""

    page: Statement
    count: Statement

    @staticmethod
    def learn(base: QuerySet, terms: list[Term], ordering: list[str]) -> QueryPlan | None:
        def filtered(values: list[int]) -> QuerySet:
            bound = _with_operands(terms, values)
            return base.filter(*[item.q(operator, value) for _, item, operator, value in bound])

        def page_sql(values: list[int]) -> tuple[str, tuple]:
            query = filtered(values).order_by(*ordering).query
            return query.get_compiler(using=base.db).as_sql()

        def count_sql(values: list[int]) -> tuple[str, tuple]:
            query = filtered(values).order_by().query
            sql, params = query.get_compiler(using=base.db).as_sql()
            return f"SELECT COUNT(*) FROM ({sql}) subquery", params  # noqa: S608 (Django's SQL)

        kinds = (int,) * len(_operands(terms))
        page, count = learn_statement(page_sql, kinds), learn_statement(count_sql, kinds)
        return QueryPlan(page, count) if page and count else None

    def rows(self, queryset: QuerySet, operands: list[int], offset: int, limit: int) -> list:
        connection = connections[queryset.db]
        sql = f"{self.page.sql} {connection.ops.limit_offset_sql(offset, offset + limit)}"
        raw = RawQuerySet(sql, queryset.model, params=self.page.bound(operands), using=queryset.db)
        rows = list(raw)
        if lookups := cast(Any, queryset)._prefetch_related_lookups:  # (Django's own)
            prefetch_related_objects(rows, *lookups)
        return rows

    def total(self, queryset: QuerySet, operands: list[int]) -> int:
        with connections[queryset.db].cursor() as cursor:
            cursor.execute(self.count.sql, self.count.bound(operands))
            return cast(int, cursor.fetchone()[0])


class QueryPlans:
    """The plans of the lists' query shapes (`infra.queries.Statements`: the most recently
    used kept, a shape that cannot be planned remembered as None)."""

    def __init__(self) -> None:
        self._plans = Statements(size=512)

    def get(self, view: Any, queryset: QuerySet) -> tuple[QueryPlan | None, list[int]]:
        """The plan of the view's query and the request's operands (None: build the page with
        the ORM, as for every query that is not plain, or whose operands are not integers)."""
        terms: list[Term] | None = getattr(view, "condition_terms", None)
        ordering: list[str] | None = getattr(view, "query_ordering", None)
        if terms is None or ordering is None or not plain(queryset):
            return None, []
        operands = _operands(terms)
        if any(type(value) is not int for value in operands):
            return None, []
        shape = tuple(
            (name, operator, len(operand) if operator in ("in", "nin") else -1)
            for name, _, operator, operand in terms
        )
        key = (type(view), queryset.db, shape, tuple(ordering))
        plan = self._plans.get(key, lambda: QueryPlan.learn(view.get_queryset(), terms, ordering))
        return plan, operands

    def clear(self) -> None:
        self._plans.clear()


def plain(queryset: QuerySet) -> bool:
    """A queryset of model instances without joined rows, deferred fields or extras."""
    query = queryset.query
    return (
        queryset._iterable_class is ModelIterable
        and not query.select_related
        and not cast(Any, queryset)._known_related_objects
        and query.deferred_loading == (frozenset(), True)
        and not query.extra
        and not query.combinator
        and not query.distinct
    )


QUERY_PLANS = QueryPlans()


class ListPagination(LimitOffsetPagination):
    """`limit` and `offset`, strict (a bad value is refused, not clamped); the page container
    ``{"registers": [...], "pagination": {"limit", "offset", "pages", "registers"}}``."""

    default_limit, max_limit, max_offset = 10, 100, 10_000_000
    limit: int
    offset: int
    count: int
    envelope = False  # the success envelope around the page

    def bounded(self, request: Any, name: str, default: int, low: int, high: int) -> int:
        items = query_items(request).get(name)
        if not items:
            return default
        if len(items) > 1 or items[0][0] != name:
            raise invalid(name, "field must be a single integer, not a list or object")
        if isinstance(value := items[0][1], list):
            raise invalid(name, "field must be given once")
        try:
            number = int(text_matching(value, INTEGER, ""))
            if low <= number <= high:
                return number
        except InvalidValue:
            pass
        raise invalid(name, f"field must be an integer from {low} to {high}")

    def get_limit(self, request: Any) -> int:
        return self.bounded(request, "limit", self.default_limit, 1, self.max_limit)

    def get_offset(self, request: Any) -> int:
        return self.bounded(request, "offset", 0, 0, self.max_offset)

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> list:
        """A COUNT query only when the page does not tell the count."""
        self.limit, self.offset = self.get_limit(request), self.get_offset(request)
        plan: QueryPlan | None = None
        operands: list[int] = []
        if view is not None and view.compiled_queries:
            plan, operands = QUERY_PLANS.get(view, queryset)
        if plan is not None:
            rows = plan.rows(queryset, operands, self.offset, self.limit)
        else:
            rows = list(queryset[self.offset : self.offset + self.limit])
        if len(rows) < self.limit and (rows or not self.offset):
            self.count = self.offset + len(rows)
        elif plan is not None:
            self.count = plan.total(queryset, operands)
        else:
            self.count = self.get_count(queryset)
        return rows

    def page(self, registers: list) -> dict:
        pages = math.ceil(self.count / self.limit)
        pagination = {"limit": self.limit, "offset": self.offset, "pages": pages}
        page = {"registers": registers, "pagination": {**pagination, "registers": self.count}}
        return envelope(page) if self.envelope else page

    def get_paginated_response_schema(self, schema: dict) -> dict:
        counts = {"limit": {}, "offset": {}, "pages": {"description": "ceil(registers / limit)"}}
        counts["registers"] = {"description": "Total number of records."}
        pagination = {name: {"type": "integer", **more} for name, more in counts.items()}
        pagination_schema = {"type": "object", "properties": pagination, "required": list(counts)}
        page = {
            "type": "object",
            "properties": {"registers": schema, "pagination": pagination_schema},
            "required": ["pagination", "registers"],
        }
        if not self.envelope:
            return page
        status = {"type": "boolean", "description": "Always true."}
        properties = {"status": status, "data": page}
        return {"type": "object", "properties": properties, "required": ["status", "data"]}

    def get_schema_operation_parameters(self, view: Any) -> list[dict]:
        limit = {"type": "integer", "minimum": 1, "maximum": self.max_limit}
        offset = {"type": "integer", "minimum": 0, "maximum": self.max_offset, "default": 0}
        per_page = f"Registers per page, 1 to {self.max_limit} (default {self.default_limit})."
        return [
            schema_parameter("limit", {**limit, "default": self.default_limit}, per_page),
            schema_parameter(
                "offset", offset, f"Registers to skip, 0 to {self.max_offset} (default 0)."
            ),
        ]


class EnvelopedPagination(ListPagination):
    envelope = True


class ListMetadata(SimpleMetadata):
    """OPTIONS as for any view: the serializer describes the registers, not a request body."""

    def determine_actions(self, request: Any, view: Any) -> dict:
        return {}


LIST_FILTERS = (SparseFields, ConditionFilter, StrictOrdering)


def list_query(view: Any, request: Any, queryset: QuerySet, pages: ListPagination) -> QuerySet:
    """`queryset` with the list parameters applied: `limit` and `offset` checked, then the
    view's `filter_backends` (`fields`, `condition`, `order`); one 422 names every bad one."""
    errors: dict[str, list[str]] = {}
    for check in (pages.get_limit, pages.get_offset):
        try:
            check(request)
        except ValidationError as exc:
            errors.update(cast(dict, exc.detail))
    for backend in view.filter_backends:
        try:
            queryset = backend().filter_queryset(request, queryset, view)
        except ValidationError as exc:
            errors.update(cast(dict, exc.detail))
    if errors:
        rank = {name: index for index, name in enumerate(LIST_PARAMETERS)}
        raise ValidationError(  # a view's own parameter (the listing's `q`) after them
            dict(sorted(errors.items(), key=lambda item: rank.get(item[0].partition(".")[0], 99)))
        )
    return queryset


class ListView(ListAPIView):
    """GET: the page of `get_queryset()` the query asks for, rendered by `registers`."""

    filter_backends = LIST_FILTERS
    pagination_class = ListPagination
    ordering: tuple[str, ...] = ("-created_at",)  # ORM paths; "id" always ends the order
    sparse_fields: tuple[str, ...] | None = None
    metadata_class = ListMetadata
    # Pages from compiled statements (QueryPlan): only for a `get_queryset()` that reads
    # nothing from the request (the plan is kept per view, not per request).
    compiled_queries = False

    @property
    def pages(self) -> ListPagination:
        return cast(ListPagination, self.paginator)

    @classmethod
    @cache
    def output_fields(cls) -> frozenset[str]:
        return frozenset(cast(Any, cls.serializer_class)().fields)

    def filter_queryset(self, queryset: QuerySet) -> QuerySet:
        return list_query(self, self.request, queryset, self.pages)

    def registers(self, rows: list) -> Any:
        """The page's rows as dicts (override to attach what the serializer needs)."""
        return rendered_rows(self.get_serializer_class(), rows)

    def list(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        rows = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        registers = self.registers(rows) if rows else []
        if wanted := self.sparse_fields:  # in the serializer's key order
            registers = [
                {key: value for key, value in row.items() if key in wanted} for row in registers
            ]
        return conditional_response(request, self.pages.page(registers), max_age=0)
