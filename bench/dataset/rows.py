"""Plain INSERTs for the data set's large tables.

`bulk_create` prepares every value through its field and compiles one placeholder per value:
at 20,000 products (about 400,000 rows of products, variations, prices, stock, medias,
descriptions and links) that was nine tenths of the build. `insert` prepares each column's
converter once and hands the rows to the driver: `executemany` (SQLite) or COPY
(PostgreSQL). Fields left out get their default (auto_now fields: the current time),
prepared once. No signal, no `save()`: as `bulk_create`.
"""

from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection, models
from django.utils import timezone

BATCH = 5000  # rows of one executemany


def _converter(field: models.Field) -> Callable[[Any], Any] | None:
    """What a value of `field` goes through before the driver (None: nothing)."""
    operations = connection.ops
    if isinstance(field, models.DecimalField):
        return lambda value: operations.adapt_decimalfield_value(
            value, field.max_digits, field.decimal_places
        )
    if isinstance(field, models.DateTimeField):
        return operations.adapt_datetimefield_value
    return None


def insert(model: type[models.Model], columns: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """INSERT `rows` (values of the fields whose attnames are `columns`, in that order) into
    `model`'s table; every other concrete field but an automatic primary key its default."""
    fields = {field.attname: field for field in model._meta.concrete_fields}
    now = timezone.now()
    fixed = []
    for field in model._meta.concrete_fields:
        if field.attname in columns or isinstance(field, models.AutoField):
            continue
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            value: Any = now
        else:
            value = field.get_default()
        fixed.append((field.column, field.get_db_prep_save(value, connection)))
    converters = [(i, c) for i, name in enumerate(columns) if (c := _converter(fields[name]))]
    names = [fields[name].column for name in columns] + [column for column, _ in fixed]
    quoted = ", ".join(connection.ops.quote_name(name) for name in names)
    table = connection.ops.quote_name(model._meta.db_table)
    tail = tuple(value for _, value in fixed)

    def prepared() -> Iterable[tuple]:
        for row in rows:
            if converters:
                values = list(row)
                for i, convert in converters:
                    values[i] = convert(values[i])
                row = tuple(values)
            yield row + tail

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # COPY: no statement to parse per batch
            with cursor.cursor.copy(f"COPY {table} ({quoted}) FROM STDIN") as copy:
                for row in prepared():
                    copy.write_row(row)
            return
        sql = f"INSERT INTO {table} ({quoted}) VALUES ({', '.join(['%s'] * len(names))})"  # noqa: S608 - the model's names
        batch = []
        for row in prepared():
            batch.append(row)
            if len(batch) == BATCH:
                cursor.executemany(sql, batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)
