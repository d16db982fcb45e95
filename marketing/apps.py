from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MarketingConfig(AppConfig):
    name = "marketing"
    verbose_name = _("Marketing")

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects cache invalidation)
        from .api import sections  # the full product's `bannerGroups` (decisions.md)

        sections.register()
