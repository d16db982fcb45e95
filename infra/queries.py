"""Read queries of a fixed shape, compiled to SQL once per process and database: compiling
costs several times what running a key lookup does (0.3 ms against 0.02 ms).

One idea, one place: `learn_statement` compiles a shape twice with two sets of distinct probe
operands and finds where Django's SQL puts each operand; `Statements` keeps what was learnt
per shape; `instances` runs a queryset built from its operands through them (the lists'
page and count statements, apikit.generics.QueryPlan, learn theirs the same way).
"""

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

PROBES = (1001, 2001)  # two sets of operands, 1001.. and 2001..: within any integer column

# The lengths of the id lists `id_batches` makes (an `IN` of each length is one shape).
ID_BATCH_SIZES = (8, 32, 128, 512)


def _probes(kinds: Sequence[type], start: int) -> list[Any]:
    """Distinct operands of the given types (int or str), numbered from `start`."""
    return [
        start + index if kind is int else f"probe-{start + index}"
        for index, kind in enumerate(kinds)
    ]


@dataclass(frozen=True)
class Statement:
    """One compiled statement of a query shape: `params` with the call's operands bound at
    `slots` ((param position, operand index))."""

    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, int], ...]

    def bound(self, operands: Sequence[Any]) -> tuple[Any, ...]:
        params = list(self.params)
        for position, index in self.slots:
            params[position] = operands[index]
        return tuple(params)


def learn_statement(
    compile_with: Callable[[list[Any]], tuple[str, tuple]], kinds: Sequence[type]
) -> Statement | None:
    """The statement `compile_with(operands)` compiles for any operands of `kinds` (int or
    str, one per operand), found by compiling it with two sets of distinct operands: the SQL
    must be the same and each operand a parameter of its own, as given (None otherwise: the
    shape is not plain)."""
    if any(kind not in (int, str) for kind in kinds):
        return None
    first, second = (_probes(kinds, start) for start in PROBES)
    index_of = {(type(probe), probe): index for index, probe in enumerate(first)}
    try:
        sql, params = compile_with(first)
        other_sql, other_params = compile_with(second)
    except (EmptyResultSet, FullResultSet):
        return None
    if other_sql != sql or len(other_params) != len(params):
        return None
    slots = []
    for position, (one, other) in enumerate(zip(params, other_params, strict=True)):
        if one == other and type(one) is type(other):
            continue
        index = index_of.get((type(one), one), -1) if type(one) in (int, str) else -1
        if index < 0 or type(other) is not type(one) or other != second[index]:
            return None
        slots.append((position, index))
    if {index for _, index in slots} != set(range(len(kinds))):
        return None
    return Statement(sql, tuple(params), tuple(slots))


class Statements:
    """Learnt statements by key (a query shape), the most recently used `size` kept: shapes
    may come from requests. A shape that cannot be learnt is remembered as None."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._statements: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, learn: Callable[[], Any]) -> Any:
        with self._lock:
            known = key in self._statements
            found = self._statements.get(key)
            if known:
                self._statements.move_to_end(key)
        if known:
            return found
        found = learn()
        with self._lock:
            self._statements[key] = found
            while len(self._statements) > self._size:
                self._statements.popitem(last=False)
        return found

    def clear(self) -> None:
        with self._lock:
            self._statements.clear()


def instances(
    model: type[Model], build: Callable[..., QuerySet], operands: Sequence[Any], cache: Statements
) -> list:
    """`build(*operands)` (a queryset of `model`) as model instances, its SQL compiled once
    per database and operand types (`cache`, one per call site; operands are integers or text
    that the query takes as they are); the queryset's prefetches are not run. A shape that
    cannot be learnt runs through the ORM."""
    database, kinds = router.db_for_read(model), tuple(map(type, operands))

    def compiled(values: list[Any]) -> tuple[str, tuple]:
        sql, params = build(*values).query.get_compiler(using=database).as_sql()
        return sql, tuple(params)

    statement = cache.get((database, kinds), lambda: learn_statement(compiled, kinds))
    if statement is None:
        return list(build(*operands).using(database))
    return list(
        model._default_manager.raw(statement.sql, statement.bound(operands), using=database)
    )


@dataclass(frozen=True)
class _Loading:
    """What Django's ModelIterable derives from a compiled query, kept with its statement."""

    statement: Statement
    compiler: Any  # after as_sql(): its select, klass_info and converters are the shape's
    converters: dict[int, Any]
    init_list: tuple[str, ...]
    model_span: tuple[int, int]
    populators: tuple[Any, ...]
    annotations: tuple[tuple[str, int], ...]


def loaded(
    model: type[Model], build: Callable[..., QuerySet], operands: Sequence[Any], cache: Statements
) -> list:
    """`instances`, for querysets with `select_related` joins or annotations too: the model
    instances Django's ModelIterable makes of `build(*operands)` (related rows set, as
    `select_related` sets them), its SQL, columns and converters worked out once per database
    and operand types (`cache`, one per call site). Prefetches are not run; a shape that
    cannot be learnt runs through the ORM."""
    database, kinds = router.db_for_read(model), tuple(map(type, operands))

    def learn() -> _Loading | None:
        compilers: list[Any] = []

        def compiled(values: list[Any]) -> tuple[str, tuple]:
            compiler = build(*values).query.get_compiler(using=database)
            sql, params = compiler.as_sql()
            compilers.append(compiler)
            return sql, tuple(params)

        statement = learn_statement(compiled, kinds)
        if statement is None or compilers[0].has_extra_select:
            return None
        compiler = compilers[0]
        select, klass_info = compiler.select, compiler.klass_info
        fields = [column[0] for column in select[: compiler.col_count]]
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        return _Loading(
            statement=statement,
            compiler=compiler,
            converters=compiler.get_converters(fields),
            init_list=tuple(column[0].target.attname for column in select[start:end]),
            model_span=(start, end),
            # (Django 5.2's signature; the stubs already follow a later one)
            populators=tuple(get_related_populators(klass_info, select, database)),  # type: ignore[call-arg]
            annotations=tuple((compiler.annotation_col_map or {}).items()),
        )

    shape = cache.get(("loaded", database, kinds), learn)
    if shape is None:
        return list(build(*operands).using(database))
    with connections[database].cursor() as cursor:
        cursor.execute(shape.statement.sql, shape.statement.bound(operands))
        rows: Any = cursor.fetchall()
    if shape.converters:
        rows = shape.compiler.apply_converters(rows, shape.converters)
    start, end = shape.model_span
    found = []
    for row in rows:
        instance = model.from_db(database, shape.init_list, row[start:end])
        for populator in shape.populators:
            populator.populate(row, instance)
        for name, position in shape.annotations:
            setattr(instance, name, row[position])
        found.append(instance)
    return found


def id_batches(ids: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """`ids` (not empty) in lists of one of ID_BATCH_SIZES, the last id repeated to fill the
    last list: an `IN (...)` of them selects the same rows, and the statements of a read by
    ids (`loaded`, `fetched`) are a few shapes, not one per number of ids."""
    largest = ID_BATCH_SIZES[-1]
    for start in range(0, len(ids), largest):
        part = tuple(ids[start : start + largest])
        size = next(size for size in ID_BATCH_SIZES if size >= len(part))
        yield part + (part[-1],) * (size - len(part))


def fetched(
    model: type[Model], build: Callable[..., QuerySet], operands: Sequence[Any], cache: Statements
) -> list[tuple]:
    """The rows (tuples) of `build(*operands)`, a `values_list` queryset of `model` (unions
    too) whose columns need no conversion from the database's values (integers, text): its
    SQL compiled once per database and operand types (`cache`, one per call site). A shape
    that cannot be learnt, or whose columns need converting, runs through the ORM."""
    database, kinds = router.db_for_read(model), tuple(map(type, operands))

    def learn() -> Statement | None:
        plain = True

        def compiled(values: list[Any]) -> tuple[str, tuple]:
            nonlocal plain
            compiler = build(*values).query.get_compiler(using=database)
            sql, params = compiler.as_sql()
            columns = [column[0] for column in compiler.select[: compiler.col_count]]
            plain = plain and not compiler.get_converters(columns)
            return sql, tuple(params)

        statement = learn_statement(compiled, kinds)
        return statement if plain else None

    statement = cache.get(("fetched", database, kinds), learn)
    if statement is None:
        return list(build(*operands).using(database))
    with connections[database].cursor() as cursor:
        cursor.execute(statement.sql, statement.bound(operands))
        return cursor.fetchall()
