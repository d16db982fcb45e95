"""Batched upserts in plain SQL, the importers' write path (docs/decisions.md, "Imports").

A row is a tuple of database-ready values in the order of the upserter's `columns`; each
batch is one `INSERT ... ON CONFLICT (key) DO UPDATE`: `executemany` on SQLite, COPY into a
temporary table upserted from on PostgreSQL. Only the model's quoted table and column
names enter the SQL (hence `# noqa: S608`); values are parameters or COPY data, validated
by the parsers, since raw SQL skips the model's defaults and validators.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from django.db import connection, models, transaction
from django.utils import timezone

from infra.caching.versions import cache_namespace_bump

from .base import ImportReport

DEFAULT_BATCH_SIZE = 10_000
STAGING_TABLE = "import_batch"  # PostgreSQL: temporary, one per batch (and connection)
TIMESTAMPS = ("created_at", "updated_at")  # set to the batch's time when the model has them


def chunked(items: Sequence, size: int) -> Iterable[Sequence]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def query_params_limit() -> int:
    """How many parameters one statement may carry on this database (SQLite: 999)."""
    return connection.features.max_query_params or 10_000


def column_field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    found = model._meta.get_field(name)
    assert isinstance(found, models.Field)  # the import's columns are the model's own fields
    return found


def column_name(model: type[models.Model], name: str) -> str:
    return str(column_field(model, name).column)


def unique_fields(model: type[models.Model]) -> list[str]:
    """The fields of the model's unique constraint: the import's key (each imported model
    has one, without a condition, as ON CONFLICT needs)."""
    (key,) = (c for c in model._meta.constraints if isinstance(c, models.UniqueConstraint))
    return list(key.fields)


def stored_keys(model: type[models.Model], keys: Iterable[tuple]) -> set[tuple]:
    """Which of `keys` (values of the `unique_fields`, text or integer columns) are stored.

    Keys are grouped by all their fields but the last, whose values are one IN list per
    group (PostgreSQL: one array parameter through `unnest`, which parses and plans far
    faster than ten thousand literals or `= ANY(%s)`), served by the unique index.
    """
    quote = connection.ops.quote_name
    key_fields = unique_fields(model)
    *prefix, last = (quote(column_name(model, name)) for name in key_fields)
    last_type = column_field(model, key_fields[-1]).db_type(connection)
    groups: dict[tuple, list] = {}
    for key in keys:
        groups.setdefault(key[:-1], []).append(key[-1])
    select = f"SELECT {last} FROM {quote(model._meta.db_table)} WHERE "  # noqa: S608
    select += "".join(f"{name} = %s AND " for name in prefix)
    found: set[tuple] = set()
    with connection.cursor() as cursor:
        for head, values in groups.items():
            if connection.vendor == "postgresql":
                queries = [
                    (f"{select}{last} IN (SELECT unnest(%s::{last_type}[]))", [*head, values])
                ]
            else:
                queries = [
                    (f"{select}{last} IN ({', '.join(['%s'] * len(chunk))})", [*head, *chunk])
                    for chunk in chunked(values, query_params_limit() - len(prefix))
                ]
            for sql, params in queries:
                cursor.execute(sql, params)
                found.update((*head, value) for (value,) in cursor.fetchall())
    return found


@dataclass
class BatchUpserter:
    """Collects rows and upserts them in batches, counting created and updated.

    Every `batch_size` lines, one transaction: `existing_keys(keys)` tells the stored keys,
    then one upsert writes the batch (nothing with `dry_run`); the timestamps the model has
    get the batch's time. Within a batch the last line of a repeated key wins (counted as an
    update), as ON CONFLICT needs. The report counts a batch only once it commits; raw SQL
    sends no signal, so each written batch bumps the cache namespace `bump` (if any).
    """

    model: type[models.Model]
    columns: Sequence[str]
    update_fields: Sequence[str]
    existing_keys: Callable[[list[tuple]], set[tuple]]
    report: ImportReport
    batch_size: int = DEFAULT_BATCH_SIZE
    bump: str = ""
    _pending: dict[tuple, tuple] = field(default_factory=dict)
    _lines: int = 0

    def __post_init__(self) -> None:
        names = {f.name for f in self.model._meta.concrete_fields}
        self._timestamps = [name for name in TIMESTAMPS if name in names]
        self.unique_fields = unique_fields(self.model)
        positions = [list(self.columns).index(name) for name in self.unique_fields]
        pick = itemgetter(*positions)
        self.key = pick if len(positions) > 1 else lambda row: (pick(row),)
        update_fields = [*self.update_fields]
        if "updated_at" in self._timestamps and "updated_at" not in update_fields:
            update_fields.append("updated_at")
        quote = connection.ops.quote_name

        def listed(names: Iterable[str]) -> str:
            return ", ".join(quote(column_name(self.model, name)) for name in names)

        table, columns = quote(self.model._meta.db_table), listed(self.columns)
        # Parameters: the timestamps, then the row's columns (PostgreSQL: read from the batch
        # table that COPY filled).
        self._copy = connection.vendor == "postgresql"
        if self._copy:
            # Dropped by the batch itself, not ON COMMIT: inside an outer transaction
            # (tests, a caller's atomic block) a batch ends with a savepoint, not a commit.
            staging = quote(STAGING_TABLE)
            self._create_staging = (
                f"CREATE TEMPORARY TABLE {staging} AS "  # noqa: S608
                f"SELECT {columns} FROM {table} WITH NO DATA"
            )
            self._copy_staging = f"COPY {staging} ({columns}) FROM STDIN"
            self._drop_staging = f"DROP TABLE {staging}"
            stamps = "%s, " * len(self._timestamps)
            source = f"SELECT {stamps}{columns} FROM {staging}"  # noqa: S608
        else:
            source = f"VALUES ({', '.join(['%s'] * (len(self._timestamps) + len(self.columns)))})"
        updated = (quote(column_name(self.model, name)) for name in update_fields)
        self._sql = (
            f"INSERT INTO {table} ({listed([*self._timestamps, *self.columns])}) {source} "
            f"ON CONFLICT ({listed(self.unique_fields)}) "
            f"DO UPDATE SET {', '.join(f'{name} = EXCLUDED.{name}' for name in updated)}"
        )

    def add_all(self, rows: Iterable[tuple]) -> ImportReport:
        """Add every row, then write the last batch; Ctrl-C keeps the batches written and
        marks the report interrupted."""
        try:
            for row in rows:
                self.add(row)
            self.flush()
        except KeyboardInterrupt:
            self.report.interrupted = True
        return self.report

    def add(self, row: tuple) -> None:
        self._pending[self.key(row)] = row
        self._lines += 1
        if self._lines >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        keys = list(self._pending)
        with transaction.atomic():
            existing = self.existing_keys(keys)
            if not self.report.dry_run:
                self._write(list(self._pending.values()))
        created = sum(1 for key in keys if key not in existing)
        self.report.created += created
        self.report.updated += self._lines - created
        self._pending = {}
        self._lines = 0
        if self.bump and not self.report.dry_run:
            cache_namespace_bump(self.bump)

    def _write(self, rows: list[tuple]) -> None:
        now = timezone.now()
        stamps = tuple(
            column_field(self.model, name).get_db_prep_save(now, connection)
            for name in self._timestamps
        )
        with connection.cursor() as cursor:
            if self._copy:
                cursor.execute(self._create_staging)
                with cursor.copy(self._copy_staging) as copy:
                    for row in rows:
                        copy.write_row(row)
                cursor.execute(self._sql, stamps)
                cursor.execute(self._drop_staging)
            else:
                cursor.executemany(self._sql, [stamps + row for row in rows])
