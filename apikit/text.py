"""Characters the service refuses in request text (PostgreSQL refuses NUL and lone surrogates,
and no field has a use for control characters): C0 controls and DEL in the path and query
(`RequestGuardMiddleware`); NUL, C0 controls but tab, LF and CR, and lone surrogates in JSON
strings (the JSON parser). Each check returns {"<field>": ["<message>"]}, empty when fine.
"""

import re
from typing import Any
from urllib.parse import parse_qsl, unquote

URL_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
JSON_FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
MAX_NAME = 50
MAX_ERRORS = 10


def _printable(name: str) -> str:
    shown = URL_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", name)
    return shown[:MAX_NAME] or "query"


def check_path(path: str) -> dict[str, list[str]]:
    if URL_CONTROL.search(path):
        return {"path": ["The path must not contain control characters."]}
    return {}


def check_query_string(query_string: str) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    if not URL_CONTROL.search(unquote(query_string)):  # the usual case: no split
        return errors
    for key, value in parse_qsl(query_string, keep_blank_values=True):
        if URL_CONTROL.search(key) or URL_CONTROL.search(value):
            name = _printable(key)
            errors.setdefault(name, [f"The {name} field must not contain control characters."])
            if len(errors) >= MAX_ERRORS:
                break
    return errors


def check_json_strings(data: Any) -> dict[str, list[str]]:
    """Every string (keys too) of a parsed JSON document; paths as `items.0.name`."""
    errors: dict[str, list[str]] = {}
    stack = [("", data)]
    while stack and len(errors) < MAX_ERRORS:
        path, value = stack.pop()
        if isinstance(value, str):
            if JSON_FORBIDDEN.search(value):
                name = path or "body"
                errors[name] = [
                    f"The {name} field must not contain control characters or invalid Unicode."
                ]
        elif isinstance(value, dict):
            for key, item in value.items():
                key = str(key)
                child = f"{path}.{key}" if path else key
                if JSON_FORBIDDEN.search(key):
                    name = _printable(JSON_FORBIDDEN.sub("?", child))
                    errors[name] = [
                        f"The {name} field name must not contain control characters "
                        "or invalid Unicode."
                    ]
                    continue
                stack.append((child, item))
        elif isinstance(value, list):
            for index in range(len(value) - 1, -1, -1):
                stack.append((f"{path}.{index}" if path else str(index), value[index]))
    return errors
