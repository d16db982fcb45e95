"""Filtering, ordering and sparse fields of the lists (DESIGN §5), as DRF filter backends.

A list's `FilterSet` (this module's, not django-filter's; ``<app>/api/filters.py``) names
its filterable API names in ``Meta.fields`` order, each a typed filter on an ORM path
(declared, or the ``Meta.model`` field its camelCase name spells: ``createdAt`` is
``created_at``); the view sets ``filterset_class``, ``ordering_fields`` (API name -> ORM
path, `orm_paths`) and ``ordering``.
"""

from __future__ import annotations

import copy
import math
import re
from datetime import UTC, date, datetime, time
from decimal import Decimal
from functools import cached_property
from typing import Any, ClassVar

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from rest_framework.exceptions import ValidationError
from rest_framework.filters import BaseFilterBackend, OrderingFilter

from infra.ids import MAX_ID

from .querystring import (
    MAX_LIST_LENGTH,
    clip,
    condition_data,
    decoded,
    indexed_list,
    invalid,
    order_entries,
    parse_json,
    query_items,
    strings,
)

OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "startsWith", "isNull")
LOOKUPS = {op: op.lower() for op in OPERATORS} | {"eq": "exact", "ne": "exact", "nin": "in"}
LOOKUPS |= {"contains": "icontains", "startsWith": "istartswith"}  # ignore case
TEXT_OPERATORS = ("contains", "startsWith")
MAX_STR_LENGTH, MAX_ORDER_FIELDS = 255, 5
INTEGER = re.compile(r"[+-]?[0-9]{1,20}")
DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,18}(?:\.[0-9]{0,10})?|\.[0-9]{1,10})")
DATE_TIME = "an ISO 8601 date-time (e.g. 2026-01-31T12:00:00-03:00) or a date"


def orm_path(api_name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", api_name).lower()


def orm_paths(*api_names: str) -> dict[str, str]:
    return {name: orm_path(name) for name in api_names}


class InvalidValue(Exception):
    """A value that cannot be coerced; the message completes "The <field> ..."."""


def text_matching(value: Any, pattern: re.Pattern[str], problem: str) -> str:
    text = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
    if not pattern.fullmatch(text):
        raise InvalidValue(problem)
    return text


class Filter:
    """One filterable API name on the ORM path `field_name`; `coerce` types an operand."""

    schema: ClassVar[dict[str, Any]]
    text = False  # contains and startsWith
    description = ""  # the schema's, when the name does not say it all

    def __init__(self, field_name: str | None = None) -> None:
        self.field_name = field_name

    @staticmethod
    def coerce(value: Any) -> Any:
        raise NotImplementedError

    def q(self, operator: str, value: Any) -> Q:
        q = Q(**{f"{self.field_name}__{LOOKUPS[operator]}": value})
        return ~q if operator in ("ne", "nin") else q


class NumberFilter(Filter):
    schema = {"type": "integer", "minimum": -MAX_ID - 1, "maximum": MAX_ID}  # a bigint

    @staticmethod
    def coerce(value: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        number = int(text_matching(value, INTEGER, "must be an integer"))
        if not -MAX_ID - 1 <= number <= MAX_ID:
            raise InvalidValue("must be an integer within the signed 64-bit range")
        return number


class CharFilter(Filter):
    schema, text = {"type": "string", "maxLength": MAX_STR_LENGTH}, True

    @staticmethod
    def coerce(value: Any) -> str:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise InvalidValue("must be a string")
        value = str(value)
        if len(value) > MAX_STR_LENGTH:
            raise InvalidValue(f"must be at most {MAX_STR_LENGTH} characters")
        if "\x00" in value:
            raise InvalidValue("must not contain NUL characters")
        try:
            value.encode("utf-8")  # PostgreSQL refuses lone surrogates
        except UnicodeEncodeError:
            raise InvalidValue("must be valid Unicode text") from None
        return value


class BooleanFilter(Filter):
    schema = {"type": "boolean"}

    @staticmethod
    def coerce(value: Any) -> bool:
        if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
            return bool(value)
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
            return value.lower() in ("true", "1")
        raise InvalidValue("must be a boolean (true or false)")


class DecimalFilter(Filter):
    schema = {"type": "string", "pattern": f"^{DECIMAL.pattern}$"}

    @staticmethod
    def coerce(value: Any) -> Decimal:
        if isinstance(value, float) and math.isfinite(value):
            value = format(Decimal(repr(value)), "f")
        return Decimal(text_matching(value, DECIMAL, "must be a decimal number"))


class DateTimeFilter(Filter):
    schema = {"type": "string", "format": "date-time"}

    @staticmethod
    def coerce(value: Any) -> datetime:
        """A date is the start of that day; without an offset, the store's time zone."""
        try:
            parsed = parse_datetime(value) if isinstance(value, str) and len(value) <= 64 else 0
            if parsed is None and (day := parse_date(value)) is not None:
                parsed = datetime.combine(day, time.min)
            if not isinstance(parsed, datetime):
                raise InvalidValue(f"must be {DATE_TIME}")
            if timezone.is_naive(parsed):
                parsed = timezone.make_aware(parsed, timezone.get_current_timezone())
            return parsed.astimezone(UTC)  # out of range: refused now, not in the query
        except (ValueError, OverflowError):
            raise InvalidValue(f"must be {DATE_TIME}") from None


class DateFilter(Filter):
    schema = {"type": "string", "format": "date"}

    @staticmethod
    def coerce(value: Any) -> date:
        try:
            if isinstance(value, str) and len(value) <= 32 and (day := parse_date(value)):
                return day
        except ValueError:
            pass
        raise InvalidValue("must be an ISO 8601 date (e.g. 2026-01-31)")


MODEL_FIELDS: dict[str, type[Filter]] = {"BooleanField": BooleanFilter, "CharField": CharFilter}
MODEL_FIELDS |= {"DateTimeField": DateTimeFilter, "DateField": DateFilter}
MODEL_FIELDS |= {"DecimalField": DecimalFilter, "TextField": CharFilter}


def value_list(value: Any, operator: str) -> list:
    if isinstance(value, str) and not value.strip().startswith("["):
        value = [part.strip() for part in value.split(",") if part.strip()]
    try:
        value = parse_json(value, name="condition") if isinstance(value, str) else value
    except ValidationError:
        raise InvalidValue("must be a JSON array or comma-separated values") from None
    try:
        value = indexed_list(value, name="condition")
    except ValidationError:
        raise InvalidValue("must be a list of values") from None
    if len(value) > MAX_LIST_LENGTH:
        raise InvalidValue(f"must have at most {MAX_LIST_LENGTH} values")
    if any(isinstance(item, dict | list) or item is None for item in value):
        raise InvalidValue(f"{operator} must be a list of plain values")
    return value


class FilterSet:
    """This project's FilterSet, not django-filter's: the `condition` whitelist of a list.

    Errors name ``condition`` or ``condition.<name>``. Each class gets its own copies of
    the filters it declares or inherits (as Django forms copy `base_fields`): a subclass
    never shares, or changes, its parent's.
    """

    filters: ClassVar[dict[str, Filter]]

    class Meta:
        model: Any = None
        fields: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        declared = {
            name: copy.deepcopy(item)
            for klass in reversed(cls.__mro__)
            for name, item in vars(klass).items()
            if isinstance(item, Filter)
        }
        cls.filters = {}
        for name in cls.Meta.fields:  # a wrong declaration fails at import
            if name not in declared:
                field = cls.Meta.model._meta.get_field(orm_path(name))
                declared[name] = MODEL_FIELDS.get(field.get_internal_type(), NumberFilter)()
            cls.filters[name] = declared[name]
            declared[name].field_name = declared[name].field_name or orm_path(name)

    def __init__(self, data: dict[str, Any], queryset: QuerySet) -> None:
        self.data, self.queryset = data, queryset

    def is_valid(self) -> bool:
        return not self.errors

    @cached_property
    def errors(self) -> dict[str, list[str]]:
        """Unknown names and operators first, then bad values; each in the order sent."""
        errors: dict[str, list[str]] = {}
        pairs = []
        for key, value in self.data.items():
            name, _, operator = key.rpartition("__")
            problem, item = None, self.filters.get(name)
            if item is None:
                problem = f"cannot filter by '{clip(name)}' (allowed: {', '.join(self.filters)})"
            elif operator == "":
                problem = "must name at least one operator"
            elif operator in TEXT_OPERATORS and not item.text:
                problem = f"cannot use {operator}: it applies to text fields only"
            elif operator not in OPERATORS:
                problem = f"has an unknown operator '{clip(operator)}' (use {', '.join(OPERATORS)})"
            else:
                pairs.append((name, item, operator, value))
            where = "condition" if item is None else f"condition.{name}"
            if problem and f"The {where} field {problem}." not in errors.get(where, ()):
                errors.setdefault(where, []).append(f"The {where} field {problem}.")
        self.conditions: list[Q] = []
        self.terms: list[tuple[str, Filter, str, Any]] = []  # (name, filter, operator, operand)
        for name, item, operator, value in pairs:
            try:
                operand = self.operand(item, operator, value)
                self.conditions.append(item.q(operator, operand))
                self.terms.append((name, item, operator, operand))
            except InvalidValue as exc:
                key = f"condition.{name}"
                errors.setdefault(key, []).append(f"The {key} field {exc}.")
        return errors

    @staticmethod
    def operand(item: Filter, operator: str, value: Any) -> Any:
        if operator == "isNull":
            return BooleanFilter.coerce(value)
        if operator in ("in", "nin"):
            return [item.coerce(each) for each in value_list(value, operator)]
        if isinstance(value, dict | list) or value is None:
            raise InvalidValue(f"{operator} must be a single value")
        return item.coerce(value)

    @property
    def qs(self) -> QuerySet:
        return self.queryset.filter(*self.conditions) if self.is_valid() else self.queryset


def operand_schema(item: Filter) -> dict:
    """A field of `condition`: a bare value (eq) or an object of operators, typed so that a
    generated client can send each one (`{"score": {"gte": 4}}`)."""
    value = dict(item.schema)
    operators: dict[str, Any] = {}
    for operator in OPERATORS:
        if operator in ("in", "nin"):
            operators[operator] = {"type": "array", "items": value, "maxItems": MAX_LIST_LENGTH}
        elif operator == "isNull":
            operators[operator] = {"type": "boolean"}
        elif operator not in TEXT_OPERATORS or item.text:
            operators[operator] = value
    by_operator = {
        "type": "object",
        "properties": operators,
        "additionalProperties": False,
        "minProperties": 1,
    }
    described = {"description": item.description} if item.description else {}
    return {**described, "oneOf": [value, by_operator]}


def schema_parameter(name: str, schema: dict, description: str, **style: Any) -> dict:
    return {"name": name, "in": "query", "description": description, "schema": schema, **style}


class ConditionFilter(BaseFilterBackend):
    """`condition` through the view's `filterset_class`: 422 on an unknown name or a bad value."""

    def filter_queryset(self, request: Any, queryset: QuerySet, view: Any) -> QuerySet:
        data = condition_data(query_items(request).get("condition"))
        filterset = view.filterset_class(data, queryset)
        if not filterset.is_valid():
            raise ValidationError(filterset.errors)
        view.condition_terms = filterset.terms  # what apikit.generics.QueryPlan binds
        return filterset.qs

    def get_schema_operation_parameters(self, view: Any) -> list[dict]:
        filters = view.filterset_class.filters
        described = f"Filters on {', '.join(filters) or 'nothing'}: a JSON object "
        described += '(`condition={"score":5,"createdAt":{"gte":"2026-01-01"}}`) or brackets '
        described += "(`condition[score]=5&condition[createdAt][gte]=2026-01-01`). Operators: "
        described += f"{', '.join(OPERATORS)}; a bare value means eq."
        properties = {name: operand_schema(item) for name, item in filters.items()}
        schema = {"type": "object", "properties": properties, "additionalProperties": False}
        return [schema_parameter("condition", schema, described, style="deepObject", explode=True)]


class StrictOrdering(OrderingFilter):
    """`order` by the view's `ordering_fields` (API name -> ORM path), unknown names refused;
    `id` ends every order (pages never overlap), a repeated name keeps its first direction."""

    ordering_param = "order"

    def filter_queryset(self, request: Any, queryset: QuerySet, view: Any) -> QuerySet:
        view.query_ordering = ordering = self.get_ordering(request, queryset, view)
        return queryset.order_by(*ordering)

    def get_ordering(self, request: Any, queryset: QuerySet, view: Any) -> list[str]:
        entries = order_entries(query_items(request).get("order"))
        allowed: dict[str, str] = view.ordering_fields
        if unknown := list(dict.fromkeys(clip(name) for name, _ in entries if name not in allowed)):
            names = ", ".join(unknown[:10])
            raise invalid("order", f"field cannot sort by {names} (allowed: {', '.join(allowed)})")
        if len({name for name, _ in entries}) > MAX_ORDER_FIELDS:
            raise invalid("order", f"field may have at most {MAX_ORDER_FIELDS} fields")
        arguments = [("-" if desc else "") + allowed[name] for name, desc in entries]
        order_by: dict[str, str] = {}
        for argument in arguments or view.ordering:
            order_by.setdefault(argument.lstrip("-"), argument)
            if argument.lstrip("-") == "id":
                return list(order_by.values())
        return [*order_by.values(), "id"]

    def get_schema_operation_parameters(self, view: Any) -> list[dict]:
        names, paths = list(view.ordering_fields), {v: k for k, v in view.ordering_fields.items()}
        default = ",".join(arg[: arg.count("-")] + paths[arg.lstrip("-")] for arg in view.ordering)
        described = f"Sort by {', '.join(names) or 'nothing'}: `order=-createdAt,score`, "
        described += '`order=[{"field":"createdAt","direction":"desc"}]` or '
        described += "`order[0][field]=createdAt&order[0][direction]=desc`. Default: "
        described += f"{default}; id is always the last tie-breaker."
        enum = [f"{sign}{name}" for name in names for sign in ("", "-")]
        schema = {"type": "array", "items": {"type": "string", "enum": enum}, "maxItems": 5}
        return [schema_parameter("order", schema, described, style="form", explode=False)]


class SparseFields(BaseFilterBackend):
    """`fields`: only these keys in each register (`view.sparse_fields`; None keeps all)."""

    def filter_queryset(self, request: Any, queryset: QuerySet, view: Any) -> QuerySet:
        names = strings(decoded(query_items(request).get("fields"), "fields"), name="fields")
        allowed = view.output_fields()
        if unknown := [clip(name) for name in dict.fromkeys(names or ()) if name not in allowed]:
            listed = f"{', '.join(unknown[:10])} (allowed: {', '.join(sorted(allowed))})"
            raise invalid("fields", f"field has unknown names: {listed}")
        view.sparse_fields = tuple(dict.fromkeys(names)) if names else None
        return queryset

    def get_schema_operation_parameters(self, view: Any) -> list[dict]:
        described = "Only these keys in each register: `fields=id,name`, "
        described += '`fields[]=id&fields[]=name` or `fields=["id","name"]`.'
        enum = sorted(view.output_fields())
        schema = {"type": "array", "items": {"type": "string", "enum": enum}}
        return [schema_parameter("fields", schema, described, style="form", explode=False)]
