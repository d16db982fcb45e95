from django.apps import AppConfig


class ShippingConfig(AppConfig):
    name = "shipping"
    verbose_name = "Shipping"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects cache invalidation)
