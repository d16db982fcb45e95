"""Admin of the marketing app (one module per area): banner groups (banners inline, "preview
at"), banners and upsell offers."""

from . import banners, upsells  # noqa: F401
