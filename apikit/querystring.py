"""The one decoder of the contract's query encodings (DESIGN §4, §5): bracket keys
(``a[b][c]=1``, ``x[]=p``, ``o[0][f]=1``) become nested dicts and lists, a value starting
with ``[`` or ``{`` is JSON. No ORM here; every problem is a ``ValidationError({name: [...]})``.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from typing import Any

from rest_framework.exceptions import ValidationError

from .context import current

MAX_DEPTH = 5  # bracket segments after the base key, and nesting of a JSON value
MAX_KEY_LENGTH = 200
MAX_LIST_LENGTH = 100
MAX_JSON_LENGTH = 20_000
MAX_CONDITIONS = 20
LIST_PARAMETERS = ("limit", "offset", "fields", "condition", "order")  # also the error order

_KEY = re.compile(r"([^\[\]]+)((?:\[[^\[\]]*\])*)")
_SEGMENT = re.compile(r"\[([^\[\]]*)\]")
_INDEX = re.compile(r"[0-9]{1,9}")
INFINITE = (math.inf, -math.inf)  # what JSON's 1e999 becomes

Items = list[tuple[str, Any]]  # (key, a string or, for a repeated key, a list of strings)


class _Obj(dict):
    """A dict built from bracket keys (not a value the client sent)."""


class _Arr(list):
    """A list built from ``name[]`` keys."""


def invalid(name: str, message: str) -> ValidationError:
    return ValidationError({name: [f"The {name} {message}."]})


def clip(text: str) -> str:
    return text if len(text) <= 50 else text[:47] + "..."


def collect(params: Any, names: tuple[str, ...]) -> dict[str, Items]:
    """The items of each of `names` in the QueryDict `params` (keys `name` or ``name[...``);
    other keys are never parsed."""
    found: dict[str, Items] = {}
    for key, values in params.lists():
        if (base := key.partition("[")[0]) in names:
            found.setdefault(base, []).append((key, values[0] if len(values) == 1 else values))
    return found


def query_items(request: Any) -> dict[str, Items]:
    """The list parameters of a DRF request, parsed once per request (apikit.context)."""
    params = request.query_params
    context = current()
    if context is not None and context.list_items is not None and context.list_items[0] is params:
        return context.list_items[1]
    items = collect(params, LIST_PARAMETERS)
    if context is not None:
        context.list_items = (params, items)
    return items


def _bracketed(items: Items, name: str) -> Any:
    conflict = invalid(name, "parameter is given in conflicting forms")
    root = _Obj()
    for key, value in items:
        if len(key) > MAX_KEY_LENGTH:
            raise invalid(name, f"parameter name is longer than {MAX_KEY_LENGTH} characters")
        if (match := _KEY.fullmatch(key)) is None:
            raise invalid(name, f"parameter name '{clip(key)}' is malformed")
        path = [name, *_SEGMENT.findall(match.group(2))]
        if len(path) > MAX_DEPTH + 1:
            raise invalid(name, f"parameter is nested deeper than {MAX_DEPTH} levels")
        if "" in path[1:-1]:
            raise invalid(name, "parameter may use [] only as its last bracket")
        node: Any = root
        for segment, after in itertools.pairwise(path):
            kind = _Arr if after == "" else _Obj
            if type(node := node.setdefault(segment, kind())) is not kind:
                raise conflict
        if path[-1] == "":
            node.extend(value if isinstance(value, list) else [value])
        elif path[-1] in node:
            raise conflict
        else:
            node[path[-1]] = value
    return root.get(name)


def _too_deep(value: Any, depth: int = 0) -> bool:
    if not isinstance(value, dict | list):
        return False
    children = value.values() if isinstance(value, dict) else value
    return depth >= MAX_DEPTH or any(_too_deep(child, depth + 1) for child in children)


def _no_constant(constant: str) -> Any:
    raise ValueError(f"{constant} is not allowed")


def parse_json(text: str, *, name: str) -> Any:
    if len(text) > MAX_JSON_LENGTH:
        raise invalid(name, f"field is longer than {MAX_JSON_LENGTH} characters")
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise invalid(name, "field is not valid JSON") from None
    if _too_deep(value):
        raise invalid(name, f"field is nested deeper than {MAX_DEPTH} levels")
    return value


def decoded(items: Items | None, name: str) -> tuple[Any, bool]:
    """(value, came from JSON) of one parameter from its `collect` items."""
    if not items:
        return None, False
    value = items[0][1] if len(items) == 1 and items[0][0] == name else _bracketed(items, name)
    if isinstance(value, str) and value.strip()[:1] in ("[", "{"):
        return parse_json(value, name=name), True
    return value, False


def json_or_nested(params: Any, name: str) -> Any:
    """`name` as JSON or brackets: ``c={"a":1}`` -> {"a": 1}; ``c[a]=1`` -> {"a": "1"}."""
    return decoded(collect(params, (name,)).get(name), name)[0]


def indexed_list(value: Any, *, name: str) -> list:
    """A list as is; {"0": x, "1": y} (from ``name[0]=x&name[1]=y``) as [x, y], by index."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and all(_INDEX.fullmatch(key) for key in value):
        return [value[key] for key in sorted(value, key=int)]
    raise invalid(name, "field must be a list")


def string_list(params: Any, name: str) -> list[str] | None:
    """The strings of `name` in any encoding (``c[]=a``, ``c=a&c=b``, ``c=a,b``, ``c=["a"]``),
    trimmed, empty ones dropped; None when absent."""
    return strings(decoded(collect(params, (name,)).get(name), name), name=name)


def strings(value_and_json: tuple[Any, bool], *, name: str) -> list[str] | None:
    value, structured = value_and_json
    if value is None:
        return None
    result: list[str] = []
    for item in indexed_list(value, name=name) if isinstance(value, dict | list) else [value]:
        if isinstance(item, bool) or not isinstance(item, str | int | float) or item in INFINITE:
            raise invalid(name, "field must be a list of strings")
        if isinstance(item, str) and not structured:
            result.extend(part.strip() for part in item.split(",") if part.strip())
        else:
            result.append(str(item))
        if len(result) > MAX_LIST_LENGTH:
            raise invalid(name, f"field may have at most {MAX_LIST_LENGTH} elements")
    return result


def condition_data(items: Items | None, name: str = "condition") -> dict[str, Any]:
    """Flat filter data: ``{"score__eq": 5, ...}``; a bare value is eq, a list in, null with
    eq/ne isNull; ``{"score": {}}`` gives ``score__``."""
    raw = decoded(items, name)[0]
    if raw is None or raw == "":
        return {}
    if not isinstance(raw, dict):
        raise invalid(name, "field must be a JSON object")
    data: dict[str, Any] = {}
    for field, value in raw.items():
        operators = (
            value if isinstance(value, dict) else {"in" if isinstance(value, list) else "eq": value}
        )
        for operator, operand in operators.items() or [("", None)]:
            if operand is None and operator in ("eq", "ne"):
                operator, operand = "isNull", operator == "eq"
            data[f"{field}__{operator}"] = operand
    if len(raw) > MAX_CONDITIONS or len(data) > MAX_CONDITIONS:
        raise invalid(name, f"field may have at most {MAX_CONDITIONS} conditions")
    return data


def order_entries(items: Items | None, name: str = "order") -> list[tuple[str, bool]]:
    """[(API name, descending)] from ``-createdAt,score``, a JSON list of names or of
    ``{"field", "direction"}`` objects, or ``order[0][field]=...``."""
    raw = decoded(items, name)[0]
    if isinstance(raw, dict):
        raw = [raw] if "field" in raw else indexed_list(raw, name=name)
    raw = [] if raw is None else [raw] if isinstance(raw, str) else raw
    if not isinstance(raw, list):
        raise invalid(name, "field must be a list of fields")
    entries: list[tuple[str, bool]] = []
    for item in raw:
        if isinstance(item, str):
            parts = filter(None, (part.strip() for part in item.split(",")))
            entries.extend((part.lstrip("+-").strip(), part.startswith("-")) for part in parts)
        elif isinstance(item, dict):
            field, direction = item.get("field"), item.get("direction", "asc")
            if not isinstance(field, str) or not field:
                raise invalid(name, "field entries must name a field")
            if not isinstance(direction, str) or direction.lower() not in ("asc", "desc"):
                raise invalid(name, "field direction must be asc or desc")
            if set(item) - {"field", "direction"}:
                raise invalid(name, "field entries may only have field and direction")
            entries.append((field, direction.lower() == "desc"))
        else:
            raise invalid(name, "field must be a list of fields")
        if len(entries) > MAX_LIST_LENGTH:  # a guard on repeats; distinct fields: the filter
            raise invalid(name, f"field may have at most {MAX_LIST_LENGTH} entries")
    return entries
