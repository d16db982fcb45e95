"""The django-filter declarations of a list: `list_filterset` builds one `FilterSet` per list.

Each filterable API name gets one `ConditionFilter` per operator its type allows, named
``<apiName>.<operator>`` (``score.gte``: ``score__gte``; ``ne``/``nin`` exclude); the
``order`` filter is a `ListOrdering` (django-filter's OrderingFilter: API name -> ORM path,
unknown keys refused, ``id`` always the last key). Values are coerced by the form fields
of values.py, so a bad one is a form error of its filter.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar, Literal, NamedTuple, get_args

from django import forms
from django.db.models import Q, QuerySet
from django_filters import Filter, FilterSet, OrderingFilter

from ..querystring import clip
from .values import COERCE, InvalidValue, to_bool, value_list

FieldType = Literal["int", "str", "bool", "decimal", "datetime", "date"]

MAX_CONDITIONS = 20
MAX_ORDER_FIELDS = 5

OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "startsWith", "isNull")
# The ORM lookup of each operator (ne and nin exclude; text lookups ignore case).
LOOKUPS = {op: op.lower() for op in OPERATORS} | {"eq": "exact", "ne": "exact", "nin": "in"}
LOOKUPS |= {"contains": "icontains", "startsWith": "istartswith"}
TEXT_OPERATORS = ("contains", "startsWith")
NULL = object()  # an explicit JSON null: a form field would take None for "not sent"


class ListField(NamedTuple):
    path: str  # ORM path, e.g. "product_id", "created_at", "product__brand_id"
    type: FieldType
    filter: bool = True  # may appear in `condition`
    order: bool = False  # may appear in `order`


class SharedField(forms.Field):
    """A stateless form field: every form shares it instead of deep-copying it."""

    def __deepcopy__(self, memo: dict) -> SharedField:
        return self


class ConditionValueField(SharedField):
    """The value of one operator, coerced to the field's type (a list for in/nin)."""

    def __init__(self, *, kind: FieldType, operator: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind, self.operator = kind, operator

    def to_python(self, value: Any) -> Any:
        try:
            if self.operator == "isNull":
                return to_bool(value)
            if self.operator in ("in", "nin"):
                items = value_list(value)
                if any(isinstance(item, dict | list) or item is None for item in items):
                    raise InvalidValue(f"{self.operator} must be a list of plain values")
                return [COERCE[self.kind](item) for item in items]
            if isinstance(value, dict | list) or value is None or value is NULL:
                raise InvalidValue(f"{self.operator} must be a single value")
            return COERCE[self.kind](value)
        except InvalidValue as exc:
            raise forms.ValidationError(str(exc)) from None


class ConditionFilter(Filter):
    field_class = ConditionValueField

    def __init__(self, path: str, kind: FieldType, operator: str) -> None:
        super().__init__(
            path, LOOKUPS[operator], exclude=operator in ("ne", "nin"), kind=kind, operator=operator
        )

    def q(self, value: Any) -> Q:
        q = Q(**{f"{self.field_name}__{self.lookup_expr}": value})
        return ~q if self.exclude else q

    def filter(self, qs: QuerySet, value: Any) -> QuerySet:  # an empty `in` matches nothing
        return qs.filter(self.q(value))


class OrderValueField(SharedField):
    """[(api name, descending)]: every name orderable, at most MAX_ORDER_FIELDS distinct."""

    def __init__(self, *, choices: list, null_label: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.allowed = [value for value, _ in choices if not value.startswith("-")]

    def to_python(self, value: Any) -> Any:
        unknown = list(dict.fromkeys(clip(name) for name, _ in value if name not in self.allowed))
        if unknown:
            allowed = ", ".join(self.allowed)
            message = f"cannot sort by {', '.join(unknown[:10])} (allowed: {allowed})"
            raise forms.ValidationError(message)
        if len({name for name, _ in value}) > MAX_ORDER_FIELDS:
            raise forms.ValidationError(f"may have at most {MAX_ORDER_FIELDS} fields")
        return value


class ListOrdering(OrderingFilter):
    def __init__(self, fields: Mapping[str, str], default: tuple[str, ...]) -> None:
        super().__init__(fields=dict(fields))  # {ORM path: API name}
        self.field_class = OrderValueField
        self.default = default  # order_by arguments

    def order_by(self, entries: list[tuple[str, bool]]) -> tuple[str, ...]:
        """ORM order_by arguments (the default when none); "id" ends them (keys after a
        unique id would never apply) and a repeated path keeps its first direction."""
        arguments = [("-" if desc else "") + self.param_map[name] for name, desc in entries]
        order_by: dict[str, str] = {}
        for argument in arguments or self.default:
            path = argument.lstrip("-")
            order_by.setdefault(path, argument)
            if path in ("id", "pk"):
                return tuple(order_by.values())
        return (*order_by.values(), "id")

    def filter(self, qs: QuerySet, value: Any) -> QuerySet:
        return qs.order_by(*self.order_by(value))


class ListFilterSet(FilterSet):
    """A list's filters; bound to the decoded `condition` and `order` only (no queryset:
    the caller applies `condition()` and `order_by()` where it builds its query)."""

    list_fields: ClassVar[Mapping[str, ListField]]
    output_fields: ClassVar[frozenset[str]]
    default_order: ClassVar[tuple[str, ...]]  # API names

    def __init__(self, data: dict[str, Any]) -> None:
        self.is_bound, self.data, self.form_prefix, self.request = True, data, None, None
        self.filters = {name: self.base_filters[name] for name in data}  # only those sent

    def get_form_class(self) -> type[forms.Form]:
        return _form_class(tuple((name, item.field) for name, item in self.filters.items()))

    def condition(self) -> Q:
        """The AND of every valid condition."""
        result = Q()
        for name, value in self.form.cleaned_data.items():
            if isinstance(self.filters[name], ConditionFilter):
                result &= self.filters[name].q(value)
        return result

    def order_by(self) -> tuple[str, ...]:
        ordering = self.base_filters["order"]
        return ordering.order_by(self.form.cleaned_data.get("order", []))


@lru_cache(maxsize=512)  # a form class per set of fields sent (fields are shared)
def _form_class(fields: tuple[tuple[str, forms.Field], ...]) -> type[forms.Form]:
    return type("ListFilterForm", (forms.Form,), dict(fields))


def list_filterset(
    *,
    fields: Mapping[str, ListField],
    output_fields: frozenset[str],
    default_order: tuple[str, ...] = ("-createdAt",),
) -> type[ListFilterSet]:
    """The FilterSet of a list: `fields` whitelists condition and order (API name ->
    ListField), `output_fields` the keys `fields` may keep, `default_order` API names."""
    filters: dict[str, Filter] = {}
    for name, item in fields.items():
        # A wrong declaration is a programming error: fail at import, not per request.
        if item.type not in get_args(FieldType):
            raise ValueError(f"Field {name!r} has an unknown type {item.type!r}.")
        for operator in OPERATORS if item.filter else ():
            if item.type == "str" or operator not in TEXT_OPERATORS:
                filters[f"{name}.{operator}"] = ConditionFilter(item.path, item.type, operator)
    for name in default_order:
        if name.lstrip("-") not in fields:
            raise ValueError(f"default_order names {name!r}, which is not in fields.")
    default = tuple(
        name[: name.count("-")] + fields[name.lstrip("-")].path for name in default_order
    )
    orderable = {item.path: name for name, item in fields.items() if item.order}
    filters["order"] = ListOrdering(orderable, default)
    attrs = {
        "list_fields": fields,
        "output_fields": output_fields,
        "default_order": default_order,
        **filters,
    }
    return type("ListFilterSet", (ListFilterSet,), attrs)
