"""Batched upserts in plain SQL: the write path of the streaming importers.

Building a model instance per line and letting `bulk_create(update_conflicts=True)`
compile the SQL cost far more than the database's own work (three quarters of the
postal-code import's time). Here a line becomes a tuple of database-ready values
(str, int, Decimal or None, in the order of the upserter's `columns`), and each batch is
written through Django's cursor with one upsert, `INSERT ... ON CONFLICT (key) DO UPDATE`
(SQLite 3.24+, PostgreSQL 9.5+), in the form each database runs fastest:

- SQLite: `cursor.executemany` of a one-row statement; the driver runs the prepared
  statement for every row without leaving C.

      INSERT INTO "shipping_postalcode" ("created_at", "updated_at", "country", ...)
      VALUES (%s, %s, %s, ...)
      ON CONFLICT ("country", "code") DO UPDATE SET "city" = EXCLUDED."city", ...

- PostgreSQL: the batch is copied (COPY, psycopg 3's `cursor.copy`, reached through
  Django's cursor) into a temporary table of the same columns, upserted from there with
  one statement, and the table dropped (when the batch fails, rolling it back undoes the
  table too). Django binds parameters on the client, so the server parses and plans each
  statement it gets: a statement per row (executemany) ran at about 5,000 rows/s, and one
  statement per batch with an array parameter per column took twice as long as this.

      CREATE TEMPORARY TABLE "import_batch" AS
          SELECT "country", ... FROM "shipping_postalcode" WITH NO DATA;
      COPY "import_batch" ("country", ...) FROM STDIN;
      INSERT INTO "shipping_postalcode" ("created_at", "updated_at", "country", ...)
      SELECT %s, %s, "country", ... FROM "import_batch"
      ON CONFLICT ("country", "code") DO UPDATE SET "city" = EXCLUDED."city", ...;
      DROP TABLE "import_batch";

Table and column names come from the model's `_meta`, so the statements follow the model;
they are the only text put into the SQL (quoted, hence the `# noqa: S608`), values are
parameters or COPY data. Raw SQL skips the model's Python-side defaults and validators:
the importers' parsers validate every value and rows carry every column the table needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import connections, models, transaction
from django.utils import timezone

from .base import ImportReport

DEFAULT_BATCH_SIZE = 10_000
STAGING_TABLE = "import_batch"  # PostgreSQL: temporary, one per batch (and connection)
TIMESTAMPS = ("created_at", "updated_at")  # set to the batch's time when the model has them


def chunked(items: Sequence, size: int) -> Iterable[Sequence]:
    """`items` in consecutive slices of at most `size`."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def query_params_limit(using: str = "default") -> int:
    """How many parameters one statement may carry on this database (SQLite: 999)."""
    return connections[using].features.max_query_params or 10_000


def column_field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """The model's field `name`; FieldDoesNotExist for a reverse relation (no column)."""
    found = model._meta.get_field(name)
    if not isinstance(found, models.Field):
        raise FieldDoesNotExist(f"{model.__name__}.{name} is a reverse relation.")
    return found


def column_name(model: type[models.Model], name: str) -> str:
    """The (unquoted) column of the model's field `name`."""
    column = column_field(model, name).column
    if column is None:
        raise FieldDoesNotExist(f"{model.__name__}.{name} has no column.")
    return column


def unique_fields(model: type[models.Model]) -> list[str]:
    """The fields of the model's unique constraint: the import's key (each imported model
    has one, without a condition, as ON CONFLICT needs)."""
    (key,) = (c for c in model._meta.constraints if isinstance(c, models.UniqueConstraint))
    return list(key.fields)


def upsert_sql(
    model: type[models.Model],
    *,
    constants: Sequence[str] = (),
    columns: Sequence[str],
    unique_fields: Sequence[str],
    update_fields: Sequence[str],
    source_table: str = "",
    using: str = "default",
) -> str:
    """`INSERT ... ON CONFLICT (unique_fields) DO UPDATE SET update_fields`.

    Arguments are model field names; `unique_fields` must be a unique constraint of the
    table (without a condition), as ON CONFLICT requires. Parameters (`%s`; Django's
    cursor adapts them for SQLite): one value for each of `constants`, then one for each
    of `columns` (a row); with `source_table`, only the constants, the columns' values
    being read from that table (whose keys must then be distinct).
    """
    quote = connections[using].ops.quote_name
    meta = model._meta

    def column(name: str) -> str:
        return quote(column_name(model, name))

    if source_table:
        values = "%s, " * len(constants) + ", ".join(column(name) for name in columns)
        source = f"SELECT {values} FROM {quote(source_table)}"  # noqa: S608
    else:
        source = f"VALUES ({', '.join(['%s'] * (len(constants) + len(columns)))})"
    updates = ", ".join(f"{column(name)} = EXCLUDED.{column(name)}" for name in update_fields)
    return (
        f"INSERT INTO {quote(meta.db_table)} "
        f"({', '.join(column(name) for name in (*constants, *columns))}) {source} "
        f"ON CONFLICT ({', '.join(column(name) for name in unique_fields)}) "
        f"DO UPDATE SET {updates}"
    )


def stored_keys(
    model: type[models.Model],
    *,
    key_fields: Sequence[str],
    keys: Iterable[tuple],
    using: str = "default",
) -> set[tuple]:
    """Which of `keys` (values of `key_fields`) are rows of the model's table.

    Keys are grouped by all their fields but the last, so a batch of one country's postal
    codes is `SELECT code ... WHERE country = %s AND code IN (...)` (in chunks of the
    database's parameter limit), served by the unique index. On PostgreSQL the codes are
    one array parameter, `code IN (SELECT unnest(%s::varchar(10)[]))`: ten thousand
    literals of an IN list (Django binds on the client) cost the server more to parse
    than the lookup, and `code = ANY(%s)` with that many values is planned as a scan of
    the whole table. The raw values are compared, so key fields must be text or integer
    columns (not decimals: SQLite returns floats).
    """
    connection = connections[using]
    quote = connection.ops.quote_name
    meta = model._meta
    *prefix, last = (quote(column_name(model, name)) for name in key_fields)
    last_type = column_field(model, key_fields[-1]).db_type(connection)
    groups: dict[tuple, list] = {}
    for key in keys:
        groups.setdefault(key[:-1], []).append(key[-1])
    select = f"SELECT {last} FROM {quote(meta.db_table)} WHERE "  # noqa: S608
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
                    for chunk in chunked(values, query_params_limit(using) - len(prefix))
                ]
            for sql, params in queries:
                cursor.execute(sql, params)
                found.update((*head, value) for (value,) in cursor.fetchall())
    return found


def staging_sql(
    model: type[models.Model], *, columns: Sequence[str], using: str = "default"
) -> tuple[str, str, str]:
    """PostgreSQL: the SQL that creates, fills (COPY) and drops the temporary batch table."""
    quote = connections[using].ops.quote_name
    meta = model._meta
    names = ", ".join(quote(column_name(model, name)) for name in columns)
    staging = quote(STAGING_TABLE)
    return (
        f"CREATE TEMPORARY TABLE {staging} AS "  # noqa: S608
        f"SELECT {names} FROM {quote(meta.db_table)} WITH NO DATA",
        f"COPY {staging} ({names}) FROM STDIN",
        f"DROP TABLE {staging}",
    )


@dataclass
class BatchUpserter:
    """Collects rows and upserts them in batches, counting created and updated.

    A row is a tuple of database-ready values for `columns` (model field names); its values
    for the model's `unique_fields` are its key (`key(row)`). Every `batch_size` lines, one
    transaction: `existing_keys(keys)` answers which keys are already stored (one query per
    batch, or a few), then one upsert writes the batch (see the module doc; nothing with
    `dry_run`).
    `created_at` and `updated_at`, when the model has them, are set to the batch's time on
    insert, `updated_at` on update. Within a batch the last line of a repeated key wins (a
    second line for a key counts as an update), which PostgreSQL's ON CONFLICT also needs.
    The report is counted only after the batch commits, so an interruption (Ctrl-C) leaves
    the database and the report at the last finished batch.
    """

    model: type[models.Model]
    columns: Sequence[str]
    update_fields: Sequence[str]
    existing_keys: Callable[[list[tuple]], set[tuple]]
    report: ImportReport
    batch_size: int = DEFAULT_BATCH_SIZE
    after_batch: Callable[[], None] | None = None
    using: str = "default"
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
        self._copy = connections[self.using].vendor == "postgresql"
        self._sql = upsert_sql(
            self.model,
            constants=self._timestamps,
            columns=self.columns,
            unique_fields=self.unique_fields,
            update_fields=update_fields,
            source_table=STAGING_TABLE if self._copy else "",
            using=self.using,
        )
        if self._copy:
            # Dropped by the batch itself, not ON COMMIT: inside an outer transaction
            # (tests, a caller's atomic block) a batch ends with a savepoint, not a commit.
            self._create_staging, self._copy_staging, self._drop_staging = staging_sql(
                self.model, columns=self.columns, using=self.using
            )

    def add(self, row: tuple) -> None:
        self._pending[self.key(row)] = row
        self._lines += 1
        if self._lines >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        """Write the pending rows (one transaction) and count them."""
        if not self._pending:
            return
        keys = list(self._pending)
        with transaction.atomic(using=self.using):
            existing = self.existing_keys(keys)
            if not self.report.dry_run:
                self._write(list(self._pending.values()))
        created = sum(1 for key in keys if key not in existing)
        self.report.created += created
        self.report.updated += self._lines - created
        self._pending = {}
        self._lines = 0
        if self.after_batch is not None and not self.report.dry_run:
            self.after_batch()

    def _write(self, rows: list[tuple]) -> None:
        connection = connections[self.using]
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
