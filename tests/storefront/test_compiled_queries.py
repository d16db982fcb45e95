"""infra.queries: a query shape's SQL learnt once (`learn_statement`, kept by `Statements`)
and run with each call's operands (`instances`), giving what the ORM gives (converters
included) on SQLite and PostgreSQL."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from infra.queries import Statements, instances, learn_statement
from shipping.models import PostalCode

pytestmark = pytest.mark.django_db

FIELDS = ("country", "code", "city", "latitude", "longitude")


def _by_code(country: str, code: str):
    return PostalCode.objects.filter(country=country, code=code).only(*FIELDS)[:1]


def _fields(rows: list) -> list[tuple]:
    return [tuple(getattr(row, name) for name in FIELDS) for row in rows]


def test_rows_equal_the_orm_s_for_every_call():
    PostalCode.objects.create(
        country="BRA",
        code="01310100",
        city="São Paulo",
        state_code="BR-SP",
        latitude=Decimal("-23.561414"),
        longitude=Decimal("-46.655881"),
    )
    PostalCode.objects.create(country="BRA", code="20040002", city="Rio", state_code="BR-RJ")
    statements = Statements()
    for code in ("01310100", "20040002", "99999999", "01310100"):
        expected = list(PostalCode.objects.filter(country="BRA", code=code).values_list(*FIELDS))
        assert _fields(instances(PostalCode, _by_code, ("BRA", code), statements)) == expected
    found = instances(PostalCode, _by_code, ("BRA", "01310100"), statements)[0]
    assert isinstance(found.latitude, Decimal) and found.latitude == Decimal("-23.561414")


def test_the_sql_is_learnt_once_and_the_operands_bound_in_the_query_s_order(monkeypatch):
    PostalCode.objects.create(country="BRA", code="01310100", city="São Paulo")
    statements = Statements()
    instances(PostalCode, _by_code, ("BRA", "01310100"), statements)
    compiles = []
    monkeypatch.setattr("infra.queries.learn_statement", lambda *a: compiles.append(a))
    with CaptureQueriesContext(connection) as queries:
        assert (
            instances(PostalCode, _by_code, ("BRA", "01310100"), statements)[0].city == "São Paulo"
        )
        assert instances(PostalCode, _by_code, ("USA", "01310100"), statements) == []
    assert compiles == []
    assert len(queries) == 2
    assert queries[0]["sql"] == queries[1]["sql"].replace("'USA'", "'BRA'")


def test_equal_operands_keep_their_own_places():
    PostalCode.objects.create(country="BRA", code="BRA", city="Odd")
    statements = Statements()
    assert instances(PostalCode, _by_code, ("BRA", "00000000"), statements) == []
    assert instances(PostalCode, _by_code, ("BRA", "BRA"), statements)[0].city == "Odd"
    assert instances(PostalCode, _by_code, ("XYZ", "BRA"), statements) == []


def test_an_operand_the_orm_changes_runs_through_the_orm():
    PostalCode.objects.create(country="BRA", code="01310100", city="São Paulo")
    statements = Statements()

    def by_prefix(country: str, code: str):
        return PostalCode.objects.filter(country=country, code__startswith=code)

    assert [row.code for row in instances(PostalCode, by_prefix, ("BRA", "0131"), statements)] == [
        "01310100"
    ]
    assert statements.get((connection.alias, (str, str)), lambda: "learnt again") is None


def test_a_learnt_statement_binds_each_operand_where_the_orm_put_it():
    def compiled(values: list[int]) -> tuple[str, tuple]:
        queryset = PostalCode.objects.filter(id__in=values[:2], state_code="SP").exclude(
            id=values[2]
        )
        sql, params = queryset.query.get_compiler(using=queryset.db).as_sql()
        return sql, tuple(params)

    statement = learn_statement(compiled, (int, int, int))
    assert statement is not None
    assert statement.sql == compiled([21, 22, 23])[0]
    assert statement.bound([21, 22, 23]) == compiled([21, 22, 23])[1]
    # a repeated value keeps its place (the ORM drops it): IN (5, 5) is IN (5)
    assert statement.bound([5, 5, 6]) == (5, 5, "SP", 6)


def test_operands_that_are_not_plain_parameters_learn_nothing():
    def by_sign(values: list[int]) -> tuple[str, tuple]:  # the SQL depends on the value
        queryset = (
            PostalCode.objects.filter(id=values[0]) if values[0] < 2000 else PostalCode.objects
        )
        sql, params = queryset.all().query.get_compiler(using="default").as_sql()
        return sql, tuple(params)

    def doubled(values: list[int]) -> tuple[str, tuple]:  # a value the ORM changed
        queryset = PostalCode.objects.filter(id=values[0] * 2)
        sql, params = queryset.query.get_compiler(using="default").as_sql()
        return sql, tuple(params)

    def prefixed(values: list[str]) -> tuple[str, tuple]:  # text the ORM changed
        queryset = PostalCode.objects.filter(code__startswith=values[0])
        sql, params = queryset.query.get_compiler(using="default").as_sql()
        return sql, tuple(params)

    assert learn_statement(by_sign, (int,)) is None
    assert learn_statement(doubled, (int,)) is None
    assert learn_statement(prefixed, (str,)) is None
    assert learn_statement(doubled, (bool,)) is None  # neither integers nor text


def test_loaded_rows_equal_the_orm_s_with_their_joined_rows_and_annotations():
    # given products with and without a brand, a parent and a review summary
    from django.db.models import F

    from catalog.models import Product, ProductReviewSummary
    from infra.queries import loaded
    from tests.catalog.factories import ProductFactory, VariationFactory

    main = ProductFactory(brand=None)
    variation = VariationFactory(parent=main)
    ProductReviewSummary.objects.create(product=variation, score_4=2)

    def build(pk: int, parent: int):
        joined = Product.objects.select_related("brand", "parent", "review_summary")
        return joined.filter(pk__in=[pk, parent]).annotate(doubled=F("priority") * 2)

    statements = Statements()
    for _ in range(2):  # (learnt, then run from what was learnt)
        with CaptureQueriesContext(connection) as queries:
            found = loaded(Product, build, (variation.pk, main.pk), statements)
        assert len(queries) == 1
        expected = list(build(variation.pk, main.pk))
        assert [vars(row) | {"_state": None} for row in found] == [
            vars(row) | {"_state": None} for row in expected
        ]
        for row, orm in zip(found, expected, strict=True):
            assert row.brand == orm.brand and row.parent == orm.parent
            assert row.doubled == orm.doubled
            assert getattr(row, "review_summary", None) == getattr(orm, "review_summary", None)
            assert row._state.fields_cache.keys() == orm._state.fields_cache.keys()
