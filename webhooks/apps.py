from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = _("Webhooks")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from infra.events import event_emitted

        from . import receivers

        event_emitted.connect(receivers.record_deliveries, dispatch_uid="webhooks.record")
