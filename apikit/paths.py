"""Ids in URL paths: one parser for every `<str:...Id>` segment."""

import re

from rest_framework.exceptions import ValidationError

from infra.ids import is_db_id

from .errors import ApiError

_DIGITS = re.compile(r"[0-9]{1,30}")


def path_id(raw: str, *, not_found: ApiError, invalid_field: str | None = None) -> int:
    """The id a path segment names; not an integer: a 422 naming `invalid_field` if given,
    else `not_found`, as for an integer no row can have."""
    if not _DIGITS.fullmatch(raw):
        if invalid_field is not None:
            raise ValidationError(
                {invalid_field: [f"The {invalid_field} field must be a positive integer."]}
            )
        raise not_found
    value = int(raw)
    if not is_db_id(value):
        raise not_found
    return value
