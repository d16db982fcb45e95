"""Admin of the marketing app, one module per area: banners (and their groups), upsells."""

from . import banners, upsells  # noqa: F401
