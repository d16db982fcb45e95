from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _


class ShippingConfig(AppConfig):
    name = "shipping"
    verbose_name = _("Shipping")

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects cache invalidation)

        connection_created.connect(sqlite_functions_register, dispatch_uid="shipping_sqlite")


def sqlite_functions_register(sender, connection, **kwargs) -> None:
    """SQLite: the accent folding of the postal codes' generated search column (PostgreSQL
    has TRANSLATE). Deterministic, as a generated column requires."""
    if connection.vendor == "sqlite":
        from .postal import fold

        connection.connection.create_function("shipping_fold", 1, fold, deterministic=True)
