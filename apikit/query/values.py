"""Coercion of condition values to a field's type; bad values raise `InvalidValue`."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from rest_framework.exceptions import ValidationError

from infra.ids import MAX_ID

from ..querystring import MAX_LIST_LENGTH, indexed_list, parse_json

MAX_STR_LENGTH = 255
INT_MIN, INT_MAX = -MAX_ID - 1, MAX_ID  # a bigint column

INTEGER = re.compile(r"[+-]?[0-9]{1,20}")
DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,18}(?:\.[0-9]{0,10})?|\.[0-9]{1,10})")


class InvalidValue(Exception):
    """A value that cannot be coerced; the message completes "The <field> ..."."""


def text_matching(value: Any, pattern: re.Pattern[str], problem: str) -> str:
    """`value` as text: a string or an int (never a bool) matching `pattern`."""
    text = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
    if not pattern.fullmatch(text):
        raise InvalidValue(problem)
    return text


def to_int(value: Any) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    number = int(text_matching(value, INTEGER, "must be an integer"))
    if not INT_MIN <= number <= INT_MAX:
        raise InvalidValue("must be an integer within the signed 64-bit range")
    return number


def to_str(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InvalidValue("must be a string")
    value = str(value)
    if len(value) > MAX_STR_LENGTH:
        raise InvalidValue(f"must be at most {MAX_STR_LENGTH} characters")
    if "\x00" in value:
        raise InvalidValue("must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidValue("must be valid Unicode text") from None
    return value


def to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    raise InvalidValue("must be a boolean (true or false)")


def to_decimal(value: Any) -> Decimal:
    if isinstance(value, float) and math.isfinite(value):
        value = format(Decimal(repr(value)), "f")
    return Decimal(text_matching(value, DECIMAL, "must be a decimal number"))


def to_datetime(value: Any) -> datetime:
    message = "must be an ISO 8601 date-time (e.g. 2026-01-31T12:00:00-03:00) or a date"
    if not isinstance(value, str) or len(value) > 64:
        raise InvalidValue(message)
    try:
        parsed = parse_datetime(value)
        if parsed is None:
            day = parse_date(value)
            if day is None:
                raise InvalidValue(message)
            parsed = datetime.combine(day, time.min)
        if timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed, timezone.get_current_timezone())
        # Normalised here so an out-of-range instant fails now, not inside the query.
        return parsed.astimezone(UTC)
    except (ValueError, OverflowError):
        raise InvalidValue(message) from None


def to_date(value: Any) -> date:
    message = "must be an ISO 8601 date (e.g. 2026-01-31)"
    if not isinstance(value, str) or len(value) > 32:
        raise InvalidValue(message)
    try:
        parsed = parse_date(value)
    except ValueError:
        parsed = None
    if parsed is None:
        raise InvalidValue(message)
    return parsed


COERCE: dict[str, Callable[[Any], Any]] = {"int": to_int, "str": to_str, "bool": to_bool}
COERCE |= {"decimal": to_decimal, "datetime": to_datetime, "date": to_date}


def value_list(value: Any) -> list:
    """The values of an in/nin operator: a list, a bracket list, JSON array text or "a,b"."""
    if isinstance(value, str):
        if value.strip().startswith("["):
            try:
                value = parse_json(value, name="condition")
            except ValidationError:
                raise InvalidValue("must be a JSON array or comma-separated values") from None
        else:
            value = [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, dict):
        try:
            value = indexed_list(value, name="condition")
        except ValidationError:
            raise InvalidValue("must be a list of values") from None
    if not isinstance(value, list):
        raise InvalidValue("must be a list of values")
    if len(value) > MAX_LIST_LENGTH:
        raise InvalidValue(f"must have at most {MAX_LIST_LENGTH} values")
    return value
