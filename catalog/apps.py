from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = _("Catalog")

    def ready(self) -> None:
        from infra import deferred

        from . import signals  # noqa: F401  (connects cache invalidation)
        from .services import SEARCHES, searches_count

        deferred.register(SEARCHES, searches_count)
