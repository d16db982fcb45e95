from django.apps import AppConfig


class FeedbackConfig(AppConfig):
    name = "feedback"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects cache invalidation)
