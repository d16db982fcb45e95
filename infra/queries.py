"""Read queries of a fixed shape, compiled to SQL once per process and database: compiling
costs several times what running a one-row key lookup does (0.3 ms against 0.02 ms).
"""

from collections.abc import Callable
from typing import Any

from django.db import connections, router
from django.db.models import Model, QuerySet


class CompiledQuery:
    """`build(*params)`: a `values()` queryset whose SQL parameters are `params` (a key
    lookup), compiled at the first call whose parameters all differ; `rows(*params)` runs it
    with the ORM's router and converters."""

    def __init__(self, build: Callable[..., QuerySet[Any, dict[str, Any]]]) -> None:
        self._build = build
        self._model: type[Model] | None = None
        # alias -> (SQL, positions of its parameters in `params`, names, {position: converters})
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
