"""Admin of the catalog app (one module per area)."""

from . import categories, interests, inventory, merchandising, prices, products  # noqa: F401
