"""infra.queries.CompiledQuery: the ORM's SQL compiled once, run with each call's values,
giving what the ORM gives (converters included) on SQLite and PostgreSQL."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from infra.queries import CompiledQuery
from shipping.models import PostalCode

pytestmark = pytest.mark.django_db

FIELDS = ("country", "code", "city", "latitude", "longitude")


def _lookup() -> CompiledQuery:
    return CompiledQuery(
        lambda country, code: PostalCode.objects.filter(country=country, code=code).values(*FIELDS)[
            :1
        ]
    )


def test_rows_equal_the_orm_s_for_every_call_after_the_first():
    PostalCode.objects.create(
        country="BRA",
        code="01310100",
        city="São Paulo",
        state_code="BR-SP",
        latitude=Decimal("-23.561414"),
        longitude=Decimal("-46.655881"),
    )
    PostalCode.objects.create(country="BRA", code="20040002", city="Rio", state_code="BR-RJ")
    lookup = _lookup()
    for code in ("01310100", "20040002", "99999999", "01310100"):
        expected = list(PostalCode.objects.filter(country="BRA", code=code).values(*FIELDS))
        assert lookup.rows("BRA", code) == expected
    found = lookup.rows("BRA", "01310100")[0]
    assert isinstance(found["latitude"], Decimal) and found["latitude"] == Decimal("-23.561414")


def test_the_sql_is_compiled_once_and_the_values_bound_in_the_query_s_order():
    PostalCode.objects.create(country="BRA", code="01310100", city="São Paulo")
    lookup = _lookup()
    lookup.rows("BRA", "01310100")
    with CaptureQueriesContext(connection) as queries:
        assert lookup.rows("BRA", "01310100")[0]["city"] == "São Paulo"
        assert lookup.rows("USA", "01310100") == []
    assert len(queries) == 2
    assert queries[0]["sql"] == queries[1]["sql"].replace("'USA'", "'BRA'")


def test_equal_values_run_through_the_orm_until_a_call_tells_them_apart():
    PostalCode.objects.create(country="BRA", code="BRA", city="Odd")
    lookup = _lookup()
    assert lookup.rows("BRA", "BRA")[0]["city"] == "Odd"  # not compiled: "BRA" twice
    assert lookup._compiled == {}
    assert lookup.rows("BRA", "00000000") == []
    assert lookup.rows("BRA", "BRA")[0]["city"] == "Odd"
    assert len(lookup._compiled) == 1


def test_a_query_whose_parameters_are_not_the_values_given_is_refused():
    lookup = CompiledQuery(
        lambda country, code: PostalCode.objects.filter(
            country=country, code__startswith=code
        ).values("code")
    )
    with pytest.raises(ValueError, match="parameters"):
        lookup.rows("BRA", "0131")


def test_a_learnt_statement_binds_each_operand_where_the_orm_put_it():
    from infra.queries import learn_statement

    def compiled(values: list[int]) -> tuple[str, tuple]:
        queryset = PostalCode.objects.filter(id__in=values[:2], state_code="SP").exclude(
            id=values[2]
        )
        sql, params = queryset.query.get_compiler(using=queryset.db).as_sql()
        return sql, tuple(params)

    statement = learn_statement(compiled, 3)
    assert statement is not None
    assert statement.sql == compiled([21, 22, 23])[0]
    assert statement.bound([21, 22, 23]) == compiled([21, 22, 23])[1]
    # a repeated value keeps its place (the ORM drops it): IN (5, 5) is IN (5)
    assert statement.bound([5, 5, 6]) == (5, 5, "SP", 6)


def test_operands_that_are_not_plain_parameters_learn_nothing():
    from infra.queries import learn_statement

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

    assert learn_statement(by_sign, 1) is None
    assert learn_statement(doubled, 1) is None
