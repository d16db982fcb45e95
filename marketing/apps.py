from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MarketingConfig(AppConfig):
    name = "marketing"
    verbose_name = _("Marketing")

    def ready(self) -> None:
        from . import signals  # connects cache invalidation

        signals.connect_catalog_signals()

        from .api import sections  # the full product's `bannerGroups` (decisions.md)

        sections.register()
