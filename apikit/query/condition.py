"""The `condition` parameter: a whitelist-checked ``Q`` (DESIGN §5)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from rest_framework.exceptions import ValidationError

from ..querystring import clip, decoded
from .spec import MAX_CONDITIONS, ListField, ListSpec
from .values import COERCE, InvalidValue, to_bool, value_list

OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "startsWith", "isNull")
_LOOKUP = {
    "eq": "exact",
    "ne": "exact",
    "gt": "gt",
    "gte": "gte",
    "lt": "lt",
    "lte": "lte",
    "in": "in",
    "nin": "in",
    "contains": "icontains",
    "startsWith": "istartswith",
    "isNull": "isnull",
}
_NEGATED = {"ne", "nin"}
_TEXT_ONLY = {"contains", "startsWith"}


def condition_q(spec_field: ListField, operator: str, value: Any) -> Q:
    """The Q of one operator on one whitelisted field (raises InvalidValue)."""
    if operator not in OPERATORS:
        raise InvalidValue(
            f"has an unknown operator '{clip(operator)}' (use {', '.join(OPERATORS)})"
        )
    if operator in _TEXT_ONLY and spec_field.type != "str":
        raise InvalidValue(f"cannot use {operator}: it applies to text fields only")
    if value is None and operator in ("eq", "ne"):
        operator, value = "isNull", operator == "eq"
    coerce = COERCE[spec_field.type]
    if operator == "isNull":
        coerced: Any = to_bool(value)
    elif operator in ("in", "nin"):
        items = value_list(value)
        if any(isinstance(item, dict | list) or item is None for item in items):
            raise InvalidValue(f"{operator} must be a list of plain values")
        coerced = [coerce(item) for item in items]
    else:
        if isinstance(value, dict | list) or value is None:
            raise InvalidValue(f"{operator} must be a single value")
        coerced = coerce(value)
    q = Q(**{f"{spec_field.path}__{_LOOKUP[operator]}": coerced})
    return ~q if operator in _NEGATED else q


def parse_condition(items: list | None, spec: ListSpec, errors: dict[str, list[str]]) -> Q:
    """The AND of every condition (from the `collect` items of `condition`); each problem is
    added to `errors` under its key."""
    try:
        raw = decoded(items, "condition")[0]
    except ValidationError as exc:
        errors.update(exc.detail)
        return Q()
    if raw is None or raw == "":
        return Q()
    if not isinstance(raw, dict):
        errors["condition"] = ["The condition field must be a JSON object."]
        return Q()
    if len(raw) > MAX_CONDITIONS:
        errors["condition"] = [f"The condition field may have at most {MAX_CONDITIONS} conditions."]
        return Q()
    allowed = ", ".join(name for name, item in spec.fields.items() if item.filter)
    pairs: list[tuple[str, str, Any]] = []
    for api_name, value in raw.items():
        spec_field = spec.fields.get(api_name)
        if spec_field is None or not spec_field.filter:
            errors.setdefault("condition", []).append(
                f"The condition field cannot filter by '{clip(api_name)}' (allowed: {allowed})."
            )
            continue
        if isinstance(value, dict):
            if not value:
                errors[f"condition.{api_name}"] = [
                    f"The condition.{api_name} field must name at least one operator."
                ]
            pairs.extend((api_name, operator, item) for operator, item in value.items())
        elif isinstance(value, list):
            pairs.append((api_name, "in", value))
        else:
            pairs.append((api_name, "eq", value))
    if len(pairs) > MAX_CONDITIONS:
        errors.setdefault("condition", []).append(
            f"The condition field may have at most {MAX_CONDITIONS} conditions."
        )
        return Q()
    result = Q()
    for api_name, operator, value in pairs:
        try:
            result &= condition_q(spec.fields[api_name], str(operator), value)
        except InvalidValue as exc:
            key = f"condition.{api_name}"
            errors.setdefault(key, []).append(f"The {key} field {exc}.")
    return result
