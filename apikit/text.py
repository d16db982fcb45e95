"""Characters the service refuses in request text, in one place.

PostgreSQL refuses NUL in text and lone surrogates in UTF-8, and no field of the API has a
use for control characters, so they are refused before any view runs:

- path segments and query keys/values: every C0 control character and DEL
  (`check_path`, `check_query_string`, called by `RequestGuardMiddleware`);
- JSON strings (keys and values) of a request body: NUL and the C0 controls other than
  tab, line feed and carriage return, and lone surrogates (`check_json_strings`, called by
  the JSON parser).

Each check returns the errors as {"<field>": ["<message>"]} (empty when the text is fine);
the callers turn them into a 422 VALIDATION_ERROR.
"""

import re
from typing import Any
from urllib.parse import parse_qsl, unquote

URL_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
JSON_FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
MAX_NAME = 50
MAX_ERRORS = 10


def _printable(name: str) -> str:
    """A client-given name made safe to echo: controls escaped, clipped."""
    shown = URL_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", name)
    return shown[:MAX_NAME] or "query"


def check_path(path: str) -> dict[str, list[str]]:
    if URL_CONTROL.search(path):
        return {"path": ["The path must not contain control characters."]}
    return {}


def check_query_string(query_string: str) -> dict[str, list[str]]:
    """Every key and value of the raw query string, percent-decoded."""
    errors: dict[str, list[str]] = {}
    if not URL_CONTROL.search(unquote(query_string)):  # the usual case: one pass, no split
        return errors
    for key, value in parse_qsl(query_string, keep_blank_values=True):
        if URL_CONTROL.search(key) or URL_CONTROL.search(value):
            name = _printable(key)
            errors.setdefault(name, [f"The {name} field must not contain control characters."])
            if len(errors) >= MAX_ERRORS:
                break
    return errors


def check_json_strings(data: Any) -> dict[str, list[str]]:
    """Every string (object keys too) of a parsed JSON document; paths as `items.0.name`."""
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
