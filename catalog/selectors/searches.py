"""Reads of the storefront's searches: how many products a text finds (what a counted search
records) and the popular searches suggest offers."""

import threading
import time
from datetime import datetime, timedelta

from django.db.models import Sum

from ..models import SearchCount
from ..search import normalized, parse
from .listing import catalogue_get

POPULAR_DAYS = 14
POPULAR_SECONDS = 300  # how long a process keeps the popular searches
POPULAR_KEPT = 1000  # texts kept (most searched first)


def search_total(*, text: str, moment: datetime) -> int:
    """Products every word of `text` finds in the whole catalogue (kept per catalogue)."""
    catalogue = catalogue_get(moment=moment)
    key = normalized(text)
    total = catalogue.search_totals.get(key)
    if total is None:
        if len(catalogue.search_totals) > 10_000:
            catalogue.search_totals.clear()
        total = catalogue.search_totals[key] = catalogue.query().search(parse(text)).count()
    return total


_popular: tuple[float, list[str]] | None = None
_popular_lock = threading.Lock()


def popular_searches(*, moment: datetime) -> tuple[list[str], datetime]:
    """The texts searched most in the last POPULAR_DAYS that found a product (most searched
    first), and when this process reads them again (they are kept POPULAR_SECONDS)."""
    global _popular
    now = time.monotonic()
    kept = _popular
    if kept is None or now - kept[0] >= POPULAR_SECONDS:
        with _popular_lock:
            kept = _popular
            if kept is None or now - kept[0] >= POPULAR_SECONDS:
                since = (moment - timedelta(days=POPULAR_DAYS)).date()
                since -= timedelta(days=since.weekday())  # the week holding that day
                rows = (
                    SearchCount.objects.filter(week__gte=since, found_nothing=False)
                    .values("query")
                    .annotate(total=Sum("searches"))
                    .order_by("-total", "query")[:POPULAR_KEPT]
                )
                kept = _popular = (now, [row["query"] for row in rows])
    return kept[1], moment + timedelta(seconds=max(0.0, POPULAR_SECONDS - (now - kept[0])))


def popular_searches_forget() -> None:
    """Read the popular searches again at the next call (tests)."""
    global _popular
    _popular = None
