from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FeedbackConfig(AppConfig):
    name = "feedback"
    verbose_name = _("Feedback")

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects cache invalidation)
