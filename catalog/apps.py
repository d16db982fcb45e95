from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = _("Catalog")

    def ready(self) -> None:
        from django.conf import settings

        from infra import deferred

        from . import restocks, signals  # noqa: F401  (signals connects cache invalidation)
        from .api.ahead import render_ahead
        from .services import SEARCHES, searches_count

        deferred.register(restocks.VISIT_RECORD, restocks.visits_store)
        deferred.register(SEARCHES, searches_count)
        deferred.every(
            "back-in-stock", settings.BACK_IN_STOCK_SCAN_SECONDS, restocks.back_in_stock_scan
        )
        deferred.every(
            "product-pages-ahead",
            settings.PAGES_AHEAD_EVERY_SECONDS,
            lambda: render_ahead(seconds=settings.PAGES_AHEAD_PASS_SECONDS),
        )
