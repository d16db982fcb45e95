"""Listens to infra.events and records a delivery per subscribed endpoint (same transaction)."""

from typing import Any

from .api.payloads import event_data
from .services import deliveries_create, endpoints_for


def record_deliveries(sender: str, *, instance: Any, **kwargs: Any) -> None:
    endpoints = endpoints_for(sender)
    if not endpoints:
        return  # nothing subscribed: no rendering, one query
    deliveries_create(event_type=sender, data=event_data(sender, instance), endpoints=endpoints)
