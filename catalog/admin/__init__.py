"""Admin of the catalog app (one module per area)."""

from . import (  # noqa: F401
    back_in_stock,
    categories,
    interests,
    inventory,
    merchandising,
    prices,
    products,
    searches,
)
