"""The `order` parameter: ``order_by`` arguments from the whitelist, ending with "id"."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError

from ..querystring import MAX_LIST_LENGTH, clip, decoded, indexed_list
from .spec import MAX_ORDER_FIELDS, ListSpec
from .values import InvalidValue


def _order_entries(raw: Any) -> list[tuple[str, bool]]:
    """[(api_name, descending)] from any accepted encoding (raises InvalidValue)."""
    if isinstance(raw, dict):
        raw = [raw] if "field" in raw else indexed_list(raw, name="order")
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        raise InvalidValue("must be a list of fields")
    entries: list[tuple[str, bool]] = []
    for item in raw:
        if isinstance(item, str):
            for part in item.split(","):
                part = part.strip()
                if part:
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
        if len(entries) > MAX_LIST_LENGTH:  # a guard on repeats; distinct fields: below
            raise InvalidValue(f"may have at most {MAX_LIST_LENGTH} entries")
    return entries


def _order_by(entries: list[tuple[str, bool]], spec: ListSpec) -> tuple[str, ...]:
    """ORM order_by arguments; "id" ends them (keys after a unique id would never apply)."""
    order_by: list[str] = []
    seen: set[str] = set()
    for api_name, descending in entries:
        path = spec.fields[api_name].path
        if path in seen:
            continue
        seen.add(path)
        order_by.append(("-" if descending else "") + path)
        if path in ("id", "pk"):
            return tuple(order_by)
    order_by.append("id")
    return tuple(order_by)


def parse_order(
    items: list | None, spec: ListSpec, errors: dict[str, list[str]]
) -> tuple[str, ...]:
    """order_by arguments for `order` (its `collect` items), or the spec's default; problems
    go into `errors`."""
    default = [(name.lstrip("-"), name.startswith("-")) for name in spec.default_order]
    try:
        raw = decoded(items, "order")[0]
        entries = [] if raw is None else _order_entries(raw)
    except ValidationError as exc:
        errors.update(exc.detail)
        return _order_by(default, spec)
    except InvalidValue as exc:
        errors["order"] = [f"The order field {exc}."]
        return _order_by(default, spec)
    if not entries:
        return _order_by(default, spec)
    allowed = ", ".join(name for name, item in spec.fields.items() if item.order)
    unknown = []
    for name, _ in entries:
        spec_field = spec.fields.get(name)
        if (spec_field is None or not spec_field.order) and clip(name) not in unknown:
            unknown.append(clip(name))
    if unknown:
        errors["order"] = [
            f"The order field cannot sort by {', '.join(unknown[:10])} (allowed: {allowed})."
        ]
        return _order_by(default, spec)
    unique = list(dict.fromkeys(name for name, _ in entries))
    if len(unique) > MAX_ORDER_FIELDS:
        errors["order"] = [f"The order field may have at most {MAX_ORDER_FIELDS} fields."]
        return _order_by(default, spec)
    return _order_by(entries, spec)
