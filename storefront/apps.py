from django.apps import AppConfig


class StorefrontConfig(AppConfig):
    name = "storefront"
    verbose_name = "Store"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects cache invalidation)
