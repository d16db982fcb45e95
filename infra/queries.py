"""Read queries of a fixed shape, compiled by the ORM once per process and database.

Compiling a queryset to SQL costs several times what SQLite or PostgreSQL spend running a
one-row lookup by key (0.3 ms against 0.02 ms for a postal code). A `CompiledQuery` asks the
ORM for the SQL once, then runs it with each call's parameters through the same database
router and the same value converters (decimals, dates) as the ORM would.
"""

from collections.abc import Callable
from typing import Any

from django.db import connections, router
from django.db.models import Model, QuerySet


class CompiledQuery:
    """`build(*params)` returns a `values()` queryset whose SQL parameters are `params`, in
    any order, whatever their values (a key lookup: `filter(a=x, b=y)`); checked on
    compiling, which waits for a call whose parameters are all different. `rows(*params)`
    runs it: a list of {name: value}."""

    def __init__(self, build: Callable[..., QuerySet[Any, dict[str, Any]]]) -> None:
        self._build = build
        self._model: type[Model] | None = None
        # database alias -> (SQL, the SQL parameters' positions in `params`, column names,
        # {position: (converters, expression)})
        self._compiled: dict[str, tuple[str, list[int], list[str], dict[int, Any]]] = {}

    def rows(self, *params: Any) -> list[dict[str, Any]]:
        alias = router.db_for_read(self._model) if self._model is not None else ""
        compiled = self._compiled.get(alias)
        if compiled is None:
            queryset = self._build(*params)
            if len(set(params)) < len(params):  # which parameter is which: not knowable
                return list(queryset)
            alias, compiled = self._compile(queryset, params)
        sql, order, names, converters = compiled
        connection = connections[alias]
        with connection.cursor() as cursor:
            cursor.execute(sql, [params[position] for position in order])
            found = cursor.fetchall()
        rows = []
        for values in found:
            row = dict(zip(names, values, strict=True))
            for position, (functions, expression) in converters.items():
                value = values[position]
                for function in functions:
                    value = function(value, expression, connection)
                row[names[position]] = value
            rows.append(row)
        return rows

    def _compile(
        self, queryset: QuerySet[Any, dict[str, Any]], params: tuple[Any, ...]
    ) -> tuple[str, tuple[str, list[int], list[str], dict[int, Any]]]:
        alias = queryset.db
        compiler = queryset.query.get_compiler(alias)
        sql, sql_params = compiler.as_sql()
        if sorted(map(repr, sql_params)) != sorted(map(repr, params)):
            raise ValueError(f"The query's parameters {sql_params!r} are not {params!r}")
        query = queryset.query
        names = [*query.extra_select, *query.values_select, *query.annotation_select]
        expressions = [column[0] for column in compiler.select[: len(names)]]
        order = [params.index(value) for value in sql_params]
        compiled = (sql, order, names, compiler.get_converters(expressions))
        self._model = queryset.model
        self._compiled[alias] = compiled
        return alias, compiled
