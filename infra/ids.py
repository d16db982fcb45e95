"""The one bound of a database id."""

from typing import TypeGuard

# Largest id a database integer column holds (PostgreSQL bigint, BigAutoField): larger
# ids cannot exist.
MAX_ID = 2**63 - 1


def is_db_id(value: object) -> TypeGuard[int]:
    """True for an int that can name a row (1..MAX_ID); bools are not ids."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID
