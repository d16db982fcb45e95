"""The one bound of a database id."""

from typing import TypeGuard

MAX_ID = 2**63 - 1  # a bigint (BigAutoField)


def is_db_id(value: object) -> TypeGuard[int]:
    """True for an int that can name a row (1..MAX_ID); bools are not ids."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID
