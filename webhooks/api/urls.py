"""Inbound webhook routes (prefixes are added in config/urls.py)."""

from apikit.routing import api_path

from .inbound import OrdersWebhookView

urlpatterns: list = [*api_path("webhooks/orders", OrdersWebhookView.as_view(), "orders-webhook")]
