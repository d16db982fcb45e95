"""A serializer's answer as one plain Python function: `renderer(SerializerClass)(row, **context)`
returns what `SerializerClass(row, context=context).data` holds, key for key and value for
value, in about a twentieth of the time (docs/decisions.md, "Session 12: each answer shape
declared once").

The class's fields are walked once, into Python source compiled once per class: a line per
field (its `source` path, dotted or `"*"`, read as DRF reads it; `None` kept as None), the
conversions of the supported kinds inlined (integers, text, floats, booleans, decimals with
their places and string coercion, dates and date-times in the current time zone, lists and
dicts of those), nested serializers and `many=True` as their own compiled functions. A field
or serializer of the app's own with its own `get_attribute` or `to_representation`, and a
`SerializerMethodField`, is called as DRF calls it. Any other kind is refused when the class
is compiled, naming the field: never a silently different answer.

The serializer instance is made once per class; its `context` reads the call's keywords.
"""

from __future__ import annotations

import contextvars
import decimal
from collections.abc import Callable, Iterator, Mapping
from keyword import iskeyword
from types import MethodType
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db.models.manager import BaseManager
from django.utils import timezone
from rest_framework import fields, serializers
from rest_framework.fields import SkipField, is_simple_callable
from rest_framework.settings import api_settings

Render = Callable[..., dict[str, Any]]


class Unsupported(TypeError):
    """A field the compiler cannot render as DRF does."""


_CALL: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar("render_context")


class _CallContext(Mapping[str, Any]):
    """The serializers' `context`: the keywords of the render under way."""

    def __getitem__(self, key: str) -> Any:
        return _CALL.get({})[key]

    def __iter__(self) -> Iterator[str]:
        return iter(_CALL.get({}))

    def __len__(self) -> int:
        return len(_CALL.get({}))


_COMPILED: dict[type, Callable[[Any], dict[str, Any]]] = {}


def _compiled(serializer_class: type[serializers.BaseSerializer]) -> Callable[[Any], dict]:
    """The class's render function (row -> dict), compiled on its first use."""
    top = _COMPILED.get(serializer_class)
    if top is None:
        if not issubclass(serializer_class, serializers.Serializer):
            raise Unsupported(f"{serializer_class.__name__} is not a Serializer")
        owner = next(k for k in serializer_class.__mro__ if "to_representation" in vars(k))
        if not _is_drf(owner):  # its fields are compiled: an override would be skipped
            raise Unsupported(
                f"{serializer_class.__name__} has its own to_representation "
                f"({owner.__name__}): not supported by apikit.compiled"
            )
        serializer = serializer_class(context=_CallContext())
        top = _COMPILED[serializer_class] = _Compiler().serializer(serializer)
    return top


def renderer(serializer_class: type[serializers.BaseSerializer]) -> Render:
    """`render(row, **context)`: `serializer_class(row, context=context).data` as a dict."""
    top = _compiled(serializer_class)

    def render(row: Any, **context: Any) -> dict[str, Any]:
        token = _CALL.set(context)
        try:
            return top(row)
        finally:
            _CALL.reset(token)

    return render


def render_many(
    serializer_class: type[serializers.BaseSerializer], rows: Any, **context: Any
) -> list:
    """`serializer_class(rows, many=True, context=context).data` as a list of dicts."""
    top = _compiled(serializer_class)
    token = _CALL.set(context)
    try:
        return [top(row) for row in rows]
    finally:
        _CALL.reset(token)


class _IsMapping(dict[type, bool]):
    """{type: whether DRF reads its values by key}, filled as types come."""

    def __missing__(self, kind: type) -> bool:
        self[kind] = answer = issubclass(kind, Mapping)
        return answer


# {function: is_simple_callable of a method bound to it} (its signature is the function's,
# worked out by `inspect` in some microseconds: a related manager's `all` is met per row).
_SIMPLE_METHODS: dict[Any, bool] = {}


def _simple(value: Any) -> bool:
    if type(value) is not MethodType:
        return is_simple_callable(value)
    simple = _SIMPLE_METHODS.get(value.__func__)
    if simple is None:
        if len(_SIMPLE_METHODS) > 1024:
            _SIMPLE_METHODS.clear()
        simple = _SIMPLE_METHODS[value.__func__] = is_simple_callable(value)
    return simple


def _call(value: Any, attr: str) -> Any:
    """A callable met on a source path: called when DRF would call it."""
    if not _simple(value):
        return value
    try:
        return value()
    except (AttributeError, KeyError) as exc:
        raise ValueError(f'Exception raised in callable attribute "{attr}"; {exc}') from exc


def _absent(field: fields.Field, row: Any) -> Any:
    """Field.get_attribute's answer to a missing key or attribute."""
    if field.default is not fields.empty:
        return field.get_default()
    if field.allow_null:
        return None
    return _SKIP if not field.required else field.get_attribute(row)  # raises DRF's error


_SKIP = object()


def _own(field: fields.Field, name: str) -> type:
    """The class that defines `field`'s method `name`."""
    return next(klass for klass in type(field).__mro__ if name in vars(klass))


def _is_drf(klass: type) -> bool:
    return klass.__module__.split(".")[0] == "rest_framework"


class _Compiler:
    def __init__(self) -> None:
        self.names: dict[str, Any] = {"_Skip": SkipField, "_absent": _absent, "_SKIP": _SKIP}
        self.names.update(_M=_IsMapping(), _call=_call, _ODNE=ObjectDoesNotExist)

    def bind(self, value: Any) -> str:
        name = f"_{len(self.names)}"
        self.names[name] = value
        return name

    def serializer(self, serializer: serializers.Serializer) -> Callable[[Any], dict]:
        lines = ["def render(row):", "    d = {}"]
        for field in serializer.fields.values():
            if field.write_only:
                continue
            f, key = self.bind(field), repr(field.field_name)
            try:
                value = self.value(field, "v")
            except Unsupported as exc:
                where = f"{type(serializer).__name__}.{field.field_name}"
                raise Unsupported(f"{where}: {exc}") from None
            if _own(field, "get_attribute") is not fields.Field:
                lines += [
                    f"    try: v = {f}.get_attribute(row)",
                    "    except _Skip: v = _SKIP",
                    "    if v is not _SKIP:",
                ]
            else:  # rest_framework.fields.get_attribute, step by step
                lines += ["    try:", "        v = row"]
                for attr in field.source_attrs:
                    name = f".{attr}" if attr.isidentifier() and not iskeyword(attr) else None
                    read = f"v{name}" if name else f"getattr(v, {attr!r})"
                    lines += [
                        f"        v = v[{attr!r}] if _M[v.__class__] else {read}",
                        f"        if callable(v): v = _call(v, {attr!r})",
                    ]
                lines += [
                    "    except _ODNE: v = None",
                    f"    except (KeyError, AttributeError): v = _absent({f}, row)",
                    "    if v is not _SKIP:",
                ]
            lines.append(f"        d[{key}] = None if v is None else {value}")
        namespace = dict(self.names)
        exec("\n".join([*lines, "    return d"]), namespace)  # noqa: S102  # our own source
        return namespace["render"]

    def value(self, field: Any, v: str) -> str:
        """An expression rendering the non-None value `v` as `field.to_representation` does."""
        f, owner = self.bind(field), _own(field, "to_representation")
        if isinstance(field, serializers.ListSerializer):
            if owner is not serializers.ListSerializer:
                return f"{f}.to_representation({v})"
            child = self.value(field.child, "x")
            manager = self.bind(BaseManager)
            return f"[{child} for x in ({v}.all() if isinstance({v}, {manager}) else {v})]"
        if isinstance(field, serializers.Serializer) and owner is serializers.Serializer:
            return f"{self.bind(self.serializer(field))}({v})"
        if isinstance(field, fields.SerializerMethodField):
            return f"{self.bind(getattr(field.parent, field.method_name))}({v})"
        if not _is_drf(owner) or owner in _AS_DRF:  # the app's own, or nothing to gain
            return f"{f}.to_representation({v})"
        if owner is fields.BigIntegerField:  # a string when coerced (COERCE_BIGINT_TO_STRING)
            coerce = getattr(field, "coerce_to_string", api_settings.COERCE_BIGINT_TO_STRING)
            return f"str({v})" if coerce else f"int({v})"
        if owner in _INLINE:
            return _INLINE[owner].format(v=v, f=f)
        if owner is fields.DecimalField:
            return f"{self.bind(_decimal(field))}({v})"
        if owner is fields.DateTimeField:
            return f"{self.bind(_datetime(field))}({v})"
        if owner is fields.ListField:
            return f"[None if x is None else {self.value(field.child, 'x')} for x in {v}]"
        if owner is fields.DictField:
            child = self.value(field.child, "x")
            return f"{{str(k): None if x is None else {child} for k, x in {v}.items()}}"
        raise Unsupported(f"{type(field).__name__} is not supported by apikit.compiled")


_INLINE = {
    fields.IntegerField: "int({v})",
    fields.CharField: "str({v})",
    fields.FloatField: "float({v})",
    fields.BooleanField: "({v} if {v}.__class__ is bool else {f}.to_representation({v}))",
}
# Kinds whose to_representation is the whole of what DRF does with the value.
_AS_DRF = {fields.ChoiceField, fields.DateField, fields.JSONField, fields.ReadOnlyField}


def _decimal(field: fields.DecimalField) -> Callable[[Any], Any]:
    """DecimalField.to_representation with its exponent and context made once."""
    if field.decimal_places is None or field.normalize_output or field.localize:
        return field.to_representation
    coerce = getattr(field, "coerce_to_string", api_settings.COERCE_DECIMAL_TO_STRING)
    exponent, context = decimal.Decimal(".1") ** field.decimal_places, decimal.getcontext().copy()
    if field.max_digits is not None:
        context.prec = field.max_digits
    rounding, Decimal = field.rounding, decimal.Decimal

    def render(value: Any) -> Any:
        if not isinstance(value, Decimal):
            value = Decimal(str(value).strip())
        quantized = value.quantize(exponent, rounding=rounding, context=context)
        return f"{quantized:f}" if coerce else quantized

    return render


def _datetime(field: fields.DateTimeField) -> Callable[[Any], Any]:
    """DateTimeField.to_representation: an aware value in ISO 8601 in the current time zone
    (the store's, unless a request activated another); the rest as DRF does."""
    iso = getattr(field, "format", api_settings.DATETIME_FORMAT)
    if not settings.USE_TZ or hasattr(field, "timezone") or str(iso).lower() != "iso-8601":
        return field.to_representation

    def render(value: Any) -> Any:
        if isinstance(value, str) or not value or timezone.is_naive(value):
            return field.to_representation(value)
        text = value.astimezone(timezone.get_current_timezone()).isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text

    return render
