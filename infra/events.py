"""Domain events: `emit("comment.created", comment)` inside the write's transaction; the
listeners (webhooks) record their work in that same transaction. Emitters know no webhooks.
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

event_emitted = Signal()  # sender: the event type; instance: the row it is about


def emit(event_type: str, instance: Any) -> None:
    if event_type not in EVENT_TYPES:
        raise ValueError(f"Unknown event type {event_type!r}")
    event_emitted.send(sender=event_type, instance=instance)
