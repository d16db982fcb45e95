"""Strict reads of prefetched relations: a missing prefetch fails loudly instead of
silently running one query per row."""

from typing import Any

from django.db.models import Model


class MissingPrefetch(LookupError):
    """A relation read per row was not prefetched by the selector that loaded the row."""


def prefetched(instance: Model, relation: str) -> list[Any]:
    """The prefetched rows of `instance.<relation>`, else MissingPrefetch."""
    cache = getattr(instance, "_prefetched_objects_cache", {})
    if relation not in cache:
        raise MissingPrefetch(
            f"{type(instance).__name__}.{relation} was not prefetched: load the row with the "
            "selector's prefetch recipe."
        )
    return list(cache[relation])
