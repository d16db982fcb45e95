"""Scheduling windows of price rules, seals, banners and upsell offers (pure: no database,
no clock).

A window is `[start, end)`; either end may be open (None). Callers pass the moment, so the
same rules serve the public answers, the admin's status column and its "preview at".
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import TextChoices
from django.utils.translation import gettext_lazy as _


class Status(TextChoices):  # with the admin's labels (TextChoices: no database involved)
    LIVE = "live", _("live")
    SCHEDULED = "scheduled", _("scheduled")
    EXPIRED = "expired", _("expired")
    INACTIVE = "inactive", _("inactive")


@dataclass(frozen=True)
class Window:
    start: datetime | None = None
    end: datetime | None = None
    # Never live: the intersection of two windows that do not overlap (see `within`).
    empty: bool = False

    def __post_init__(self) -> None:
        for value in (self.start, self.end):
            if value is not None and value.tzinfo is None:
                raise ValueError("Scheduling datetimes must be timezone-aware.")
        if self.empty:
            return
        if self.start is not None and self.end is not None and self.end <= self.start:
            raise ValueError("The end of a schedule must be after its start.")

    def within(self, outer: "Window") -> "Window":
        """This window bounded by `outer`: the latest start and the earliest end win;
        windows that do not overlap give an empty window (never live)."""
        start = max((edge for edge in (self.start, outer.start) if edge is not None), default=None)
        end = min((edge for edge in (self.end, outer.end) if edge is not None), default=None)
        empty = self.empty or outer.empty
        if start is not None and end is not None and end <= start:
            empty = True
        return Window(start=start, end=end, empty=empty)

    @property
    def is_open(self) -> bool:
        """No scheduling configured (always live while active)."""
        return self.start is None and self.end is None

    def contains(self, moment: datetime) -> bool:
        if self.empty:
            return False
        if self.start is not None and moment < self.start:
            return False
        return self.end is None or moment < self.end


def status_at(*, active: bool, window: Window, moment: datetime) -> Status:
    """What staff see in the admin: inactive wins, then the window decides."""
    if not active:
        return Status.INACTIVE
    if window.empty:  # never live: scheduled until one of its edges has passed
        edges = [edge for edge in (window.start, window.end) if edge is not None]
        return Status.SCHEDULED if all(moment < edge for edge in edges) else Status.EXPIRED
    if window.start is not None and moment < window.start:
        return Status.SCHEDULED
    if window.end is not None and moment >= window.end:
        return Status.EXPIRED
    return Status.LIVE


def next_boundary(windows: Iterable[Window], moment: datetime) -> datetime | None:
    """The first start or end strictly after `moment`: until then, what is live stays live."""
    upcoming = [
        edge
        for window in windows
        for edge in (window.start, window.end)
        if edge is not None and edge > moment
    ]
    return min(upcoming, default=None)
