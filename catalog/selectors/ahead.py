"""Rows rendered ahead (catalog.api.ahead writes them; docs/caching.md, "Pages rendered
ahead"): read by key, in SQL, on the read connection."""

from collections.abc import Sequence

from django.conf import settings
from django.db import connections, router

from ..models import ProductPageAhead


def answers_ahead(keys: Sequence[str]) -> dict[str, bytes]:
    """{key: the row's pickled answer} of the `keys` that have a row: one SELECT, in SQL
    (through the ORM it cost 4 times more: a hit's budget). Nothing is read while no origin
    is kept ahead (the default)."""
    if not settings.PAGES_AHEAD_ORIGINS or not keys:
        return {}
    connection = connections[router.db_for_read(ProductPageAhead)]
    table = connection.ops.quote_name(ProductPageAhead._meta.db_table)
    marks = ", ".join(["%s"] * len(keys))
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT "key", answer FROM {table} WHERE "key" IN ({marks})', list(keys))  # noqa: S608
        return {key: bytes(answer) for key, answer in cursor.fetchall()}
