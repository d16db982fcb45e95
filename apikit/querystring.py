"""The one decoder of array and object parameters in a query string (DESIGN §4, §5).

Reads a Django ``QueryDict`` or a plain dict in one pass (`collect`), then each parameter
from its own items (`decoded`): bracket keys (``a[b][c]=1``, ``x[]=p``, ``o[0][f]=1``) become
nested dicts and lists, a JSON string (``condition={"score":5}``) is decoded, and lists of
strings come in any encoding (``codes[]=a``, ``codes=a&codes=b``, ``codes=a,b``,
``codes=["a","b"]``)::

    >>> from django.http import QueryDict
    >>> json_or_nested(QueryDict("c[score][gte]=4"), "c"), string_list(QueryDict("c=a, b,"), "c")
    ({'score': {'gte': '4'}}, ['a', 'b'])

No ORM here. Every problem is a ``ValidationError({name: [message]})`` naming the field
(rendered as 422 VALIDATION_ERROR); nothing else is ever raised, whatever the input.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import ValidationError

MAX_DEPTH = 5  # bracket segments after the base key, and nesting of a JSON value
MAX_KEY_LENGTH = 200
MAX_LIST_LENGTH = 100
MAX_JSON_LENGTH = 20_000

_KEY = re.compile(r"([^\[\]]+)((?:\[[^\[\]]*\])*)")
_SEGMENT = re.compile(r"\[([^\[\]]*)\]")
_INDEX = re.compile(r"[0-9]{1,9}")


class _Obj(dict):
    """A dict built from bracket keys (as opposed to a value the client sent)."""


class _Arr(list):
    """A list built from ``name[]`` keys."""


def _error(name: str, message: str) -> ValidationError:
    return ValidationError({name: [message]})


def clip(text: str) -> str:
    """A client-supplied name, shortened for use in an error message."""
    text = str(text)
    return text if len(text) <= 50 else text[:47] + "..."


def _base_of(key: str) -> str:
    return re.split(r"[\[\]]", key, maxsplit=1)[0] or key


def _items(params: Any) -> list[tuple[str, Any, bool]]:
    """(key, value, raw) triples: raw is True for a value taken as-is from a plain dict.

    From a QueryDict, one value is a string and a repeated key a list of strings.
    """
    if params is None:
        return []
    if hasattr(params, "lists"):
        return [
            (str(key), values[0] if len(values) == 1 else list(values), False)
            for key, values in params.lists()
        ]
    if isinstance(params, Mapping):
        return [(str(key), value, True) for key, value in params.items()]
    raise ValidationError({"non_field_errors": ["The query parameters could not be read."]})


def _split_key(key: str) -> tuple[str, list[str]]:
    """``a[b][]`` -> ("a", ["b", ""]); malformed or too deep keys are a ValidationError."""
    base = clip(_base_of(key))
    if len(key) > MAX_KEY_LENGTH:
        raise _error(base, f"The {base} parameter name is longer than {MAX_KEY_LENGTH} characters.")
    match = _KEY.fullmatch(key)
    if match is None:
        raise _error(base, f"The {base} parameter name '{clip(key)}' is malformed.")
    segments = _SEGMENT.findall(match.group(2))
    if len(segments) > MAX_DEPTH:
        raise _error(base, f"The {base} parameter is nested deeper than {MAX_DEPTH} levels.")
    if "" in segments[:-1]:
        raise _error(base, f"The {base} parameter may use [] only as its last bracket.")
    return match.group(1), segments


def _build(items: list[tuple[str, Any, bool]]) -> dict:
    root = _Obj()
    for key, value, raw in items:
        base, segments = _split_key(key)
        path = [base, *segments]
        node: Any = root
        for index, segment in enumerate(path[:-1]):
            expected = _Arr if path[index + 1] == "" else _Obj
            child = node.get(segment)
            if child is None:
                child = expected()
                node[segment] = child
            elif type(child) is not expected:
                raise _error(base, f"The {clip(base)} parameter is given in conflicting forms.")
            node = child
        last = path[-1]
        if last == "":
            node.extend(value if isinstance(value, list) else [value])
        elif last in node:
            raise _error(base, f"The {clip(base)} parameter is given in conflicting forms.")
        elif raw and segments and isinstance(value, list):
            node[last] = value[0] if len(value) == 1 else list(value)
        else:
            node[last] = value
    return root


def _plain(value: Any) -> Any:
    if isinstance(value, _Obj):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, _Arr):
        return [_plain(item) for item in value]
    return value


def parse_nested(params: Any) -> dict:
    """Every parameter, bracket keys as nested dicts and lists (``a[0][f]=1`` keeps "0" as
    a key: see `indexed_list`); malformed, too deep or conflicting keys are refused."""
    return _plain(_build(_items(params)))


def _depth_exceeds(value: Any, limit: int) -> bool:
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def _reject_constant(constant: str) -> Any:
    raise ValueError(f"{constant} is not allowed")


def parse_json(text: str, *, name: str) -> Any:
    """Decode a JSON parameter value; invalid, too long or too deep JSON is a ValidationError."""
    if len(text) > MAX_JSON_LENGTH:
        raise _error(name, f"The {name} field is longer than {MAX_JSON_LENGTH} characters.")
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise _error(name, f"The {name} field is not valid JSON.") from None
    if _depth_exceeds(value, MAX_DEPTH):
        raise _error(name, f"The {name} field is nested deeper than {MAX_DEPTH} levels.")
    return value


def _looks_like_json(value: Any) -> bool:
    return isinstance(value, str) and value.strip()[:1] in ("[", "{")


def collect(params: Any, names: tuple[str, ...]) -> dict[str, list[tuple[str, Any, bool]]]:
    """One pass over the parameters: the items of each of `names` that is present.

    An item belongs to `name` when its key is `name` or starts with ``name[``; other keys
    are never parsed (a malformed ``utm[x`` of another parameter is not an error here).
    """
    found: dict[str, list[tuple[str, Any, bool]]] = {}
    for item in _items(params):
        base = item[0].partition("[")[0]
        if base in names:
            found.setdefault(base, []).append(item)
    return found


def decoded(items: list[tuple[str, Any, bool]] | None, name: str) -> tuple[Any, bool]:
    """(value, is_structured) of one parameter from its `collect` items; (None, False) when
    absent. is_structured is True when the value came from JSON (a JSON string or a plain
    dict value), so its strings are not split on commas."""
    if not items:
        return None, False
    value = _plain(_build(items)).get(name)
    plain_key = next((raw for key, _, raw in items if key == name), None)
    if _looks_like_json(value):
        return parse_json(value, name=name), True
    if plain_key and not isinstance(value, str):
        if isinstance(value, float) and not math.isfinite(value):
            raise _error(name, f"The {name} field must be a finite number.")
        return value, True
    return value, False


def json_or_nested(params: Any, name: str) -> Any:
    """`name` as JSON or brackets: ``c={"a":1}`` -> {"a": 1}; ``c[a]=1`` -> {"a": "1"};
    ``c=-a`` -> "-a"; absent -> None."""
    return decoded(collect(params, (name,)).get(name), name)[0]


def indexed_list(value: Any, *, name: str) -> list:
    """A list as is; {"0": x, "1": y} (from ``name[0]=x&name[1]=y``) as [x, y], by index."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and all(
        isinstance(key, str) and _INDEX.fullmatch(key) for key in value
    ):
        return [value[key] for key in sorted(value, key=int)]
    raise _error(name, f"The {name} field must be a list.")


def string_list(params: Any, name: str) -> list[str] | None:
    """The list of strings for `name`, in any of the supported encodings; None when absent.

    Comma-separated parts are trimmed and empty ones dropped; JSON elements may be strings
    or numbers (kept as strings). More than 100 elements is a ValidationError.
    """
    return strings(*decoded(collect(params, (name,)).get(name), name), name=name)


def strings(value: Any, structured: bool, *, name: str) -> list[str] | None:
    """`string_list` of an already `decoded` value."""
    if value is None:
        return None
    if isinstance(value, dict):
        value = indexed_list(value, name=name)
    elements = value if isinstance(value, list) else [value]
    result: list[str] = []
    for element in elements:
        plain = isinstance(element, str | int | float) and not isinstance(element, bool)
        if not plain or (isinstance(element, float) and not math.isfinite(element)):
            raise _error(name, f"The {name} field must be a list of strings.")
        if isinstance(element, str) and not structured:
            result.extend(part.strip() for part in element.split(",") if part.strip())
        else:
            result.append(str(element))
        if len(result) > MAX_LIST_LENGTH:
            raise _error(name, f"The {name} field may have at most {MAX_LIST_LENGTH} elements.")
    return result
