from django.apps import AppConfig


class MarketingConfig(AppConfig):
    name = "marketing"
