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

# The events the store emits (name: what happened).
EVENT_TYPES: dict[str, Promise] = {
    "product.back_in_stock": _("A product with customers waiting for it is back in stock"),
    "interest.created": _("A customer registered an interest in a product"),
    "comment.created": _("A customer posted a comment or a reply on a product"),
    "comment.replied": _("Staff replied to a comment"),
    "review.created": _("A product review was created"),
    "review.approved": _("A product review was approved (made public)"),
}

# sender: the event type; kwargs: instance (the model row the event is about).
event_emitted = Signal()


def emit(event_type: str, instance: Any) -> None:
    """Announce `event_type` about `instance` (call inside the write's transaction)."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"Unknown event type {event_type!r}")
    event_emitted.send(sender=event_type, instance=instance)
