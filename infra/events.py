"""Domain events: the one neutral place where apps say "this happened".

Services call `emit("comment.created", comment)` inside the transaction of the write that
caused it; whoever listens (the webhooks app connects in its AppConfig.ready) records its
work in that same transaction, so an event whose write rolls back leaves nothing behind.
The emitting apps import only this module: they know nothing of webhooks.
"""

from typing import Any

from django.dispatch import Signal
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The events the store emits (code: its name for staff; what each carries: docs/webhooks.md).
EVENT_TYPES: dict[str, Promise] = {
    "product.back_in_stock": _("Product back in stock"),
    "interest.created": _("Interest registered"),
    "comment.created": _("Comment posted"),
    "comment.replied": _("Comment answered by staff"),
    "review.created": _("Review created"),
    "review.approved": _("Review approved"),
}

# sender: the event type; kwargs: instance (the model row the event is about).
event_emitted = Signal()


def emit(event_type: str, instance: Any) -> None:
    """Announce `event_type` about `instance` (call inside the write's transaction)."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"Unknown event type {event_type!r}")
    event_emitted.send(sender=event_type, instance=instance)
