"""Admin of the catalog app (one module per area)."""

from . import (  # noqa: F401
    categories,
    interests,
    inventory,
    merchandising,
    prices,
    products,
    searches,
)
