from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _

# The call log is pruned hourly by the jobs worker (infra.deferred.run_due).
CALL_LOG_PRUNE_SECONDS = 3600


class ShippingConfig(AppConfig):
    name = "shipping"
    verbose_name = _("Shipping")

    def ready(self) -> None:
        from infra import deferred

        from . import signals  # noqa: F401  (connects cache invalidation)
        from .carriers import CALL_LOG
        from .services import (
            LEARNED_POSTAL_CODES,
            carrier_calls_prune,
            carrier_calls_store,
            postal_codes_store,
        )

        # What reads record, written after the answer (docs/architecture.md).
        deferred.register(CALL_LOG, carrier_calls_store)
        deferred.register(LEARNED_POSTAL_CODES, postal_codes_store)
        deferred.every("shipping.carrier-calls-prune", CALL_LOG_PRUNE_SECONDS, carrier_calls_prune)

        connection_created.connect(sqlite_functions_register, dispatch_uid="shipping_sqlite")


def sqlite_functions_register(sender, connection, **kwargs) -> None:
    """SQLite: the accent folding of the postal codes' generated search column (PostgreSQL
    has TRANSLATE). Deterministic, as a generated column requires."""
    if connection.vendor == "sqlite":
        from .postal import fold

        connection.connection.create_function("shipping_fold", 1, fold, deterministic=True)
