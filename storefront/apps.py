from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StorefrontConfig(AppConfig):
    name = "storefront"
    verbose_name = _("Store")

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects cache invalidation)
