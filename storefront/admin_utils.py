"""Helpers shared by every app's admin: the history fieldset, truncated texts and badges.

Change lists fit a 1366 px screen with the sidebar open (docs/decisions.md, issue 13): the
columns a person acts on come first, and long texts go through `truncated()`, which keeps
the full text on hover.
"""

from django.contrib import admin
from django.utils.html import format_html
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _

HISTORY_FIELDSET = (
    _("History"),
    {"fields": ("created_at", "updated_at"), "classes": ("collapse",)},
)

# Characters shown of a long text in a change-list column (the rest is on hover).
TEXT_COLUMN_CHARS = 60
NAME_COLUMN_CHARS = 32

BADGE_COLORS = {
    "green": "#1e7e34",
    "blue": "#1d5fa8",
    "grey": "#6c6c6c",
    "red": "#a33",
    "orange": "#a85a00",
}


def truncated(text, length: int = TEXT_COLUMN_CHARS):
    """`text` cut to `length` characters with an ellipsis; the whole text is the hover title
    (and what screen readers get). Short texts are returned as they are."""
    text = "" if text is None else str(text)
    if len(text) <= length:
        return text
    return format_html('<span title="{}">{}</span>', text, Truncator(text).chars(length))


def badge(label, color: str):
    """A small coloured label (status columns)."""
    return format_html(
        '<span style="color:#fff;background:{};padding:2px 8px;border-radius:8px;'
        'white-space:nowrap">{}</span>',
        BADGE_COLORS.get(color, color),
        label,
    )


def moderation_badge(active: bool):
    """Pending / Approved, for records staff approve before they are public."""
    return badge(_("Approved"), "green") if active else badge(_("Pending"), "orange")


def truncated_column(field_name: str, *, description, length: int = NAME_COLUMN_CHARS):
    """A change-list column showing a model field through `truncated()`, sortable by it."""

    def column(obj):
        return truncated(getattr(obj, field_name), length)

    column.__name__ = f"{field_name}_column"
    return admin.display(description=description, ordering=field_name)(column)
