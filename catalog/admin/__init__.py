"""Admin of the catalog app (one module per area)."""

from . import categories, interests, inventory, prices, products  # noqa: F401
