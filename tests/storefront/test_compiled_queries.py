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
