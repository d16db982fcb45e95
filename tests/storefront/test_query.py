"""List query parameters and the page container (apikit/query/)."""

import json
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.db.models import Q
from django.http import QueryDict
from django_filters import FilterSet, OrderingFilter
from rest_framework.exceptions import ValidationError

from apikit.query import (
    ListField,
    ListFilterSet,
    ListQuery,
    list_filterset,
    list_page,
    parse_list_query,
    sparse,
)
from feedback.api.lists import PRODUCT_REVIEW_LIST, SALES_CHANNEL_REVIEW_LIST
from storefront.models import Customer, PaymentOption
from tests.storefront.factories import CustomerFactory

SPEC = list_filterset(
    fields={
        "id": ListField("id", "int", order=True),
        "score": ListField("score", "int", order=True),
        "name": ListField("name", "str", order=True),
        "active": ListField("active", "bool"),
        "price": ListField("price", "decimal"),
        "day": ListField("day", "date"),
        "createdAt": ListField("created_at", "datetime", order=True),
        "secret": ListField("secret", "str", filter=False),
    },
    output_fields=frozenset({"id", "name", "score", "createdAt"}),
)


def parse(query: str, spec: type[ListFilterSet] = SPEC, **kwargs) -> ListQuery:
    return parse_list_query(QueryDict(query), spec, **kwargs)


def errors_of(query: str, spec: type[ListFilterSet] = SPEC) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as caught:
        parse(query, spec)
    return {key: [str(message) for message in value] for key, value in caught.value.detail.items()}


# ---------------------------------------------------------------------------- defaults


def test_no_parameters_give_the_defaults():
    query = parse("")
    assert query == ListQuery(
        limit=10, offset=0, fields=None, filter=Q(), order_by=("-created_at", "id")
    )


def test_unrelated_parameters_are_ignored():
    assert parse("utm_source=x&page[x=1") == parse("")


def test_default_limit_can_be_changed_per_endpoint():
    assert parse("", default_limit=25).limit == 25
    assert parse("limit=20", max_limit=20).limit == 20
    assert errors_of_with_max("limit=21", 20) == {
        "limit": ["The limit field must be an integer from 1 to 20."]
    }


def errors_of_with_max(query: str, max_limit: int) -> dict:
    with pytest.raises(ValidationError) as caught:
        parse(query, max_limit=max_limit)
    return {key: [str(message) for message in value] for key, value in caught.value.detail.items()}


def test_field_types_are_checked_when_the_spec_is_declared():
    with pytest.raises(ValueError, match="unknown type 'integer'"):
        list_filterset(fields={"id": ListField("id", "integer")}, output_fields=frozenset())


def test_parameters_that_are_not_a_mapping_are_refused():
    with pytest.raises(ValidationError):
        parse_list_query(["limit", "1"], SPEC)


def test_default_order_must_name_a_declared_field():
    with pytest.raises(ValueError, match="unknown"):
        list_filterset(fields={}, output_fields=frozenset(), default_order=("-unknown",))


# ---------------------------------------------------------------------------- limit, offset


@pytest.mark.parametrize(("value", "expected"), [("1", 1), ("100", 100), ("010", 10)])
def test_limit_in_range_is_accepted(value, expected):
    assert parse(f"limit={value}").limit == expected


@pytest.mark.parametrize(
    "value", ["0", "101", "-1", "abc", "1.5", "", "1e3", " 5", "5 ", "9" * 40, "0x10", "٣"]
)
def test_limit_out_of_range_or_not_an_integer_is_refused(value):
    assert errors_of(f"limit={value}") == {
        "limit": ["The limit field must be an integer from 1 to 100."]
    }


@pytest.mark.parametrize(("value", "expected"), [("0", 0), ("35", 35), ("10000000", 10_000_000)])
def test_offset_in_range_is_accepted(value, expected):
    assert parse(f"offset={value}").offset == expected


@pytest.mark.parametrize("value", ["-1", "10000001", "x", "1.0", "", "+", "9" * 25])
def test_offset_out_of_range_or_not_an_integer_is_refused(value):
    assert errors_of(f"offset={value}") == {
        "offset": ["The offset field must be an integer from 0 to 10000000."]
    }


def test_limit_given_twice_or_as_a_list_is_refused():
    assert errors_of("limit=1&limit=2") == {"limit": ["The limit field must be given once."]}
    assert list(errors_of("limit[]=5")) == ["limit"]


def test_limit_and_offset_from_a_plain_dict_may_be_integers():
    query = parse_list_query({"limit": 7, "offset": 3}, SPEC)
    assert (query.limit, query.offset) == (7, 3)
    with pytest.raises(ValidationError):
        parse_list_query({"limit": True}, SPEC)


def test_every_bad_parameter_is_reported_at_once():
    errors = errors_of("limit=0&offset=-1&fields=nope&condition=[1]&order=nope")
    assert set(errors) == {"limit", "offset", "fields", "condition", "order"}


# ---------------------------------------------------------------------------- fields


@pytest.mark.parametrize(
    "query",
    [
        "fields=id,name",
        "fields=id&fields=name",
        "fields[]=id&fields[]=name",
        'fields=["id","name"]',
    ],
)
def test_fields_in_every_encoding(query):
    assert parse(query).fields == ("id", "name")


def test_fields_drop_duplicates_and_empty_means_all():
    assert parse("fields=id,id,name").fields == ("id", "name")
    assert parse("fields=").fields is None


def test_unknown_fields_are_listed():
    errors = errors_of("fields=id,password,hash")
    assert errors == {
        "fields": [
            "The fields field has unknown names: password, hash "
            "(allowed: createdAt, id, name, score)."
        ]
    }


# ---------------------------------------------------------------------------- condition


def test_condition_in_json_and_brackets_is_the_same_filter():
    as_json = parse('condition={"score":5,"createdAt":{"gte":"2026-01-01T00:00:00Z"}}')
    as_brackets = parse("condition[score]=5&condition[createdAt][gte]=2026-01-01T00:00:00Z")
    expected = Q(score__exact=5) & Q(created_at__gte=datetime(2026, 1, 1, tzinfo=UTC))
    assert as_json.filter == expected
    assert as_brackets.filter == expected


@pytest.mark.parametrize(
    ("operator", "expected"),
    [
        ("eq", Q(score__exact=3)),
        ("ne", ~Q(score__exact=3)),
        ("gt", Q(score__gt=3)),
        ("gte", Q(score__gte=3)),
        ("lt", Q(score__lt=3)),
        ("lte", Q(score__lte=3)),
        ("in", Q(score__in=[3])),
        ("nin", ~Q(score__in=[3])),
    ],
)
def test_each_comparison_operator(operator, expected):
    assert parse(f"condition[score][{operator}]=3").filter == expected


def test_text_operators_are_case_insensitive_lookups():
    query = parse('condition={"name":{"contains":"ana","startsWith":"J"}}')
    assert query.filter == Q(name__icontains="ana") & Q(name__istartswith="J")


@pytest.mark.parametrize("operator", ["contains", "startsWith"])
def test_text_operators_only_apply_to_text_fields(operator):
    errors = errors_of(f"condition[score][{operator}]=1")
    assert errors == {
        "condition.score": [
            f"The condition.score field cannot use {operator}: it applies to text fields only."
        ]
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [("true", True), ("TRUE", True), ("1", True), ("false", False), ("0", False)],
)
def test_is_null_takes_a_boolean(value, expected):
    assert parse(f"condition[name][isNull]={value}").filter == Q(name__isnull=expected)


def test_is_null_refuses_other_values():
    errors = errors_of("condition[name][isNull]=maybe")
    assert errors == {
        "condition.name": ["The condition.name field must be a boolean (true or false)."]
    }


def test_null_values_mean_is_null():
    assert parse('condition={"name":null}').filter == Q(name__isnull=True)
    assert parse('condition={"name":{"ne":null}}').filter == Q(name__isnull=False)
    assert list(errors_of('condition={"name":{"gt":null}}')) == ["condition.name"]


@pytest.mark.parametrize(
    "query",
    [
        'condition={"score":{"in":[1,2]}}',
        "condition[score][in]=1,2",
        "condition[score][in]=[1,2]",
        "condition[score][in][]=1&condition[score][in][]=2",
        "condition[score][in][0]=1&condition[score][in][1]=2",
        "condition[score][in]=1&condition[score][in]=2",
        'condition={"score":[1,2]}',
    ],
)
def test_in_reads_every_list_encoding(query):
    assert parse(query).filter == Q(score__in=[1, 2])


def test_in_caps_the_number_of_values():
    assert parse("condition[score][in]=" + ",".join(["1"] * 100)).filter
    errors = errors_of("condition[score][in]=" + ",".join(["1"] * 101))
    assert errors == {
        "condition.score": ["The condition.score field must have at most 100 values."]
    }


@pytest.mark.parametrize(
    "query",
    [
        'condition={"score":{"in":[[1]]}}',
        'condition={"score":{"in":[{"a":1}]}}',
        'condition={"score":{"in":5}}',
        "condition[score][in]=[1,",
        'condition={"score":{"eq":[1]}}',
        'condition={"score":{"eq":{"x":1}}}',
    ],
)
def test_condition_values_deeper_than_operator_and_value_are_refused(query):
    assert list(errors_of(query)) == ["condition.score"]


@pytest.mark.parametrize(
    ("field", "raw", "expected"),
    [
        ("score", "-42", -42),
        ("score", "+7", 7),
        ("score", str(2**63 - 1), 2**63 - 1),
        ("active", "True", True),
        ("active", "0", False),
        ("price", "19.90", Decimal("19.90")),
        ("price", "-0.5", Decimal("-0.5")),
        ("day", "2026-02-28", date(2026, 2, 28)),
        ("name", "Ana Maria", "Ana Maria"),
        ("createdAt", "2026-01-31T12:00:00-03:00", datetime(2026, 1, 31, 15, tzinfo=UTC)),
    ],
)
def test_values_are_coerced_to_the_field_type(field, raw, expected):
    path = SPEC.list_fields[field].path
    assert parse(f"condition[{field}]={raw.replace('+', '%2B')}").filter == Q(
        **{f"{path}__exact": expected}
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [(5, 5), (5.0, 5), (True, None), (5.5, None), (2**63, None), (-(2**63) - 1, None)],
)
def test_json_integers_are_checked(value, expected):
    query = QueryDict(mutable=True)
    query["condition"] = json.dumps({"score": value})
    if expected is None:
        with pytest.raises(ValidationError):
            parse_list_query(query, SPEC)
    else:
        assert parse_list_query(query, SPEC).filter == Q(score__exact=expected)


def test_json_booleans_and_decimals_are_accepted():
    query = parse('condition={"active":false,"price":{"gte":9.99}}')
    assert query.filter == Q(active__exact=False) & Q(price__gte=Decimal("9.99"))


@pytest.mark.parametrize(
    ("field", "raw", "problem"),
    [
        ("score", "abc", "must be an integer"),
        ("score", "1.5", "must be an integer"),
        ("score", str(2**63), "must be an integer within the signed 64-bit range"),
        ("score", "9" * 50, "must be an integer"),
        ("active", "yes", "must be a boolean (true or false)"),
        ("price", "NaN", "must be a decimal number"),
        ("price", "Infinity", "must be a decimal number"),
        ("price", "1e3", "must be a decimal number"),
        ("price", "1" * 30, "must be a decimal number"),
        ("day", "2026-02-30", "must be an ISO 8601 date (e.g. 2026-01-31)"),
        ("day", "tomorrow", "must be an ISO 8601 date (e.g. 2026-01-31)"),
        ("name", "x" * 256, "must be at most 255 characters"),
        ("name", "a%00b", "must not contain NUL characters"),
    ],
)
def test_bad_values_are_refused_naming_the_field(field, raw, problem):
    errors = errors_of(f"condition[{field}]={raw}")
    assert errors == {f"condition.{field}": [f"The condition.{field} field {problem}."]}


@pytest.mark.parametrize(
    "raw", ["yesterday", "2026-13-01", "2026-01-01T25:00", "0001-01-01T00:00:00+05:00", "1" * 70]
)
def test_bad_datetimes_are_refused(raw):
    errors = errors_of(f"condition[createdAt]={raw.replace('+', '%2B')}")
    assert list(errors) == ["condition.createdAt"]
    assert errors["condition.createdAt"][0].startswith(
        "The condition.createdAt field must be an ISO 8601 date-time"
    )


def test_json_strings_with_lone_surrogates_are_refused():
    errors = errors_of('condition={"name":"\\ud800"}')
    assert errors == {"condition.name": ["The condition.name field must be valid Unicode text."]}


def test_a_date_alone_is_the_start_of_that_day_in_the_store_time_zone(settings):
    settings.TIME_ZONE = "America/Sao_Paulo"
    query = parse("condition[createdAt][gte]=2026-01-01")
    assert query.filter == Q(created_at__gte=datetime(2026, 1, 1, 3, tzinfo=UTC))


def test_a_naive_datetime_is_in_the_store_time_zone(settings):
    settings.TIME_ZONE = "America/Sao_Paulo"
    query = parse("condition[createdAt][lt]=2026-01-01T10:30:00")
    assert query.filter == Q(created_at__lt=datetime(2026, 1, 1, 13, 30, tzinfo=UTC))


def test_unknown_and_non_filterable_fields_are_refused():
    errors = errors_of("condition[password]=x&condition[secret]=y")
    assert errors == {
        "condition": [
            "The condition field cannot filter by 'password' "
            "(allowed: id, score, name, active, price, day, createdAt).",
            "The condition field cannot filter by 'secret' "
            "(allowed: id, score, name, active, price, day, createdAt).",
        ]
    }


def test_orm_lookups_in_field_names_are_refused():
    errors = errors_of("condition[name__startswith]=a&condition[score__gt]=1")
    assert len(errors["condition"]) == 2


def test_unknown_operator_is_refused():
    errors = errors_of("condition[score][regex]=.*")
    assert errors == {
        "condition.score": [
            "The condition.score field has an unknown operator 'regex' "
            "(use eq, ne, gt, gte, lt, lte, in, nin, contains, startsWith, isNull)."
        ]
    }


def test_operator_without_value_is_refused():
    errors = errors_of('condition={"score":{}}')
    assert errors == {
        "condition.score": ["The condition.score field must name at least one operator."]
    }


@pytest.mark.parametrize(
    "query", ["condition=[1]", "condition=5", "condition=x", "condition=a&condition=b"]
)
def test_condition_must_be_an_object(query):
    assert errors_of(query) == {"condition": ["The condition field must be a JSON object."]}


def test_condition_refuses_invalid_json():
    assert errors_of('condition={"score":') == {
        "condition": ["The condition field is not valid JSON."]
    }


def test_condition_refuses_more_than_twenty_conditions():
    twenty = "&".join(f"condition[score][{op}]=1" for op in ("gt", "gte", "lt", "lte")) + "&"
    twenty += "&".join(
        f"condition[{f}][{op}]=1"
        for f in ("id", "price")
        for op in ("gt", "gte", "lt", "lte", "ne", "eq", "in", "nin")
    )
    assert parse(twenty)
    errors = errors_of(twenty + "&condition[active]=true")
    assert errors == {"condition": ["The condition field may have at most 20 conditions."]}


def test_condition_with_many_unknown_fields_gives_one_short_error():
    query = QueryDict(mutable=True)
    query["condition"] = json.dumps({f"f{n}": 1 for n in range(1500)})
    with pytest.raises(ValidationError) as caught:
        parse_list_query(query, SPEC)
    assert caught.value.detail == {
        "condition": ["The condition field may have at most 20 conditions."]
    }


def test_empty_condition_filters_nothing():
    assert parse("condition=").filter == Q()
    assert parse("condition={}").filter == Q()


# ---------------------------------------------------------------------------- order


@pytest.mark.parametrize(
    "query",
    [
        "order=-createdAt,score",
        "order=-createdAt&order=score",
        "order[]=-createdAt&order[]=%2Bscore",
        'order=["-createdAt","score"]',
        'order=[{"field":"createdAt","direction":"DESC"},{"field":"score"}]',
        "order[0][field]=createdAt&order[0][direction]=desc&order[1][field]=score",
        "order[1][field]=score&order[0][field]=createdAt&order[0][direction]=Desc",
    ],
)
def test_order_in_every_encoding(query):
    assert parse(query).order_by == ("-created_at", "score", "id")


def test_a_single_bracket_order_object_is_accepted():
    assert parse("order[field]=name&order[direction]=asc").order_by == ("name", "id")


def test_id_is_not_appended_twice():
    assert parse("order=-id").order_by == ("-id",)
    assert parse("order=score,id").order_by == ("score", "id")


def test_duplicate_order_fields_keep_the_first():
    assert parse("order=score,-score,name").order_by == ("score", "name", "id")


def test_default_order_applies_when_order_is_absent_or_empty():
    assert parse("").order_by == ("-created_at", "id")
    assert parse("order=").order_by == ("-created_at", "id")
    assert parse("order=[]").order_by == ("-created_at", "id")


def test_unknown_or_non_orderable_order_fields_are_refused():
    errors = errors_of("order=-price,nope")
    assert errors == {
        "order": [
            "The order field cannot sort by price, nope (allowed: id, score, name, createdAt)."
        ]
    }


def test_at_most_five_order_fields():
    spec = list_filterset(
        fields={name: ListField(name, "int", order=True) for name in "abcdef"},
        output_fields=frozenset(),
        default_order=("a",),
    )
    assert parse("order=a,b,c,d,e", spec).order_by == ("a", "b", "c", "d", "e", "id")
    assert parse("order=a,b,c,d,e,a", spec).order_by == ("a", "b", "c", "d", "e", "id")
    assert errors_of("order=a,b,c,d,e,f", spec) == {
        "order": ["The order field may have at most 5 fields."]
    }


def test_more_than_a_hundred_order_entries_are_refused_with_the_limit_checked():
    # Repeats are allowed (the first wins) up to 100 entries; the message names that limit.
    assert parse("order=" + ",".join(["score"] * 100)).order_by == ("score", "id")
    assert errors_of("order=" + ",".join(["score"] * 101)) == {
        "order": ["The order field may have at most 100 entries."]
    }


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (
            'order=[{"field":"score","direction":"up"}]',
            "The order field direction must be asc or desc.",
        ),
        ('order=[{"direction":"asc"}]', "The order field entries must name a field."),
        (
            'order=[{"field":"score","x":1}]',
            "The order field entries may only have field and direction.",
        ),
        ("order=[1]", "The order field must be a list of fields."),
        ("order=[true]", "The order field must be a list of fields."),
        ("order[a][field]=score", "The order field must be a list."),
    ],
)
def test_malformed_order_is_refused(query, message):
    assert errors_of(query) == {"order": [message]}


# ---------------------------------------------------------------------------- sparse


def test_sparse_keeps_only_requested_keys_in_row_order():
    rows = [{"id": 1, "name": "a", "score": 2}]
    assert sparse(rows, ("score", "id")) == [{"id": 1, "score": 2}]
    assert sparse(rows, None) is rows


# ---------------------------------------------------------------------------- list_page (DB)

CUSTOMERS = list_filterset(
    fields={
        "id": ListField("id", "int", order=True),
        "name": ListField("name", "str", order=True),
        "active": ListField("active", "bool"),
        "createdAt": ListField("created_at", "datetime", order=True),
        "lastLogin": ListField("last_login", "datetime", order=True),
        "createdOn": ListField("created_at__date", "date"),
    },
    output_fields=frozenset({"id", "name", "email"}),
)


def serialize(customers: list[Customer]) -> list[dict]:
    return [{"id": c.id, "name": c.name, "email": c.email} for c in customers]


def page(query: str, queryset=None) -> dict:
    queryset = Customer.objects.all() if queryset is None else queryset
    return list_page(queryset, parse_list_query(QueryDict(query), CUSTOMERS), serialize)


def make_customers(count: int, **fields) -> list[Customer]:
    customers = Customer.objects.bulk_create(
        [
            Customer(name=f"Customer {n:04}", email=f"c{n}@example.com", password="x", **fields)
            for n in range(count)
        ]
    )
    return list(Customer.objects.filter(id__in=[c.id for c in customers]).order_by("id"))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("total", "limit", "pages"), [(0, 10, 0), (1, 10, 1), (10, 10, 1), (11, 10, 2), (25, 7, 4)]
)
def test_pagination_counts_pages_and_registers(total, limit, pages):
    make_customers(total)
    result = page(f"limit={limit}")
    assert result["pagination"] == {"limit": limit, "offset": 0, "pages": pages, "registers": total}
    assert len(result["registers"]) == min(total, limit)


@pytest.mark.django_db
def test_last_page_holds_the_remainder():
    make_customers(25)
    result = page("limit=10&offset=20&order=id")
    assert [row["name"] for row in result["registers"]] == [
        f"Customer {n:04}" for n in range(20, 25)
    ]


@pytest.mark.django_db
def test_offset_beyond_the_end_gives_no_registers_but_the_totals():
    make_customers(5)
    result = page("limit=2&offset=50")
    assert result == {
        "registers": [],
        "pagination": {"limit": 2, "offset": 50, "pages": 3, "registers": 5},
    }


@pytest.mark.django_db
def test_paging_through_ties_never_overlaps_or_skips():
    # Given 23 customers with the very same creation time (the default order's only key)
    customers = make_customers(23)
    Customer.objects.update(created_at=datetime(2026, 1, 1, tzinfo=UTC))
    # When every page of 5 is read
    seen = []
    for offset in range(0, 25, 5):
        seen.extend(row["id"] for row in page(f"limit=5&offset={offset}")["registers"])
    # Then each customer appears exactly once
    assert sorted(seen) == [c.id for c in customers]
    assert len(seen) == len(set(seen))


@pytest.mark.django_db
def test_paging_by_a_nullable_field_never_overlaps_or_skips():
    customers = make_customers(12)
    Customer.objects.filter(id__in=[c.id for c in customers[::3]]).update(
        last_login=datetime(2026, 1, 1, tzinfo=UTC)
    )
    seen = []
    for offset in range(0, 12, 5):
        seen.extend(
            row["id"] for row in page(f"limit=5&offset={offset}&order=-lastLogin")["registers"]
        )
    assert sorted(seen) == [c.id for c in customers]


@pytest.mark.django_db
def test_order_and_condition_apply_before_paging():
    make_customers(6)
    Customer.objects.filter(name__in=["Customer 0001", "Customer 0004"]).update(active=False)
    result = page("condition[active]=true&order=-name&limit=3")
    assert [row["name"] for row in result["registers"]] == [
        "Customer 0005",
        "Customer 0003",
        "Customer 0002",
    ]
    assert result["pagination"]["registers"] == 4


@pytest.mark.django_db
def test_conditions_filter_in_the_database():
    make_customers(3)
    Customer.objects.filter(name="Customer 0002").update(
        last_login=datetime(2026, 1, 1, tzinfo=UTC)
    )
    assert page("condition[name][contains]=0001")["pagination"]["registers"] == 1
    assert page("condition[name][startsWith]=CUSTOMER")["pagination"]["registers"] == 3
    assert page("condition[name][nin]=Customer 0000,Customer 0001")["pagination"]["registers"] == 1
    assert page("condition[lastLogin][isNull]=false")["pagination"]["registers"] == 1
    assert (
        page('condition={"lastLogin":{"ne":"2026-01-01T00:00:00Z"}}')["pagination"]["registers"]
        == 2
    )
    assert page("condition[lastLogin][gte]=2025-12-31")["pagination"]["registers"] == 1


@pytest.mark.django_db
def test_like_wildcards_in_text_conditions_are_literal():
    make_customers(3)
    assert page("condition[name][contains]=%25")["pagination"]["registers"] == 0
    assert page("condition[name][contains]=_")["pagination"]["registers"] == 0


@pytest.mark.django_db
def test_date_condition_on_a_datetime_path():
    make_customers(2)
    Customer.objects.update(created_at=datetime(2026, 3, 10, 12, tzinfo=UTC))
    assert page("condition[createdOn]=2026-03-10")["pagination"]["registers"] == 2
    assert page("condition[createdOn][gt]=2026-03-10")["pagination"]["registers"] == 0


@pytest.mark.django_db
def test_in_with_no_values_matches_nothing_and_nin_everything():
    make_customers(3)
    assert page('condition={"id":{"in":[]}}')["pagination"]["registers"] == 0
    assert page('condition={"id":{"nin":[]}}')["pagination"]["registers"] == 3


@pytest.mark.django_db
def test_extreme_values_never_crash_the_query():
    make_customers(2)
    queries = [
        f"condition[id]={2**63 - 1}",
        f"condition[id][lt]={-(2**63)}",
        "condition[createdAt][gt]=9999-12-31T23:59:59Z",
        "condition[createdAt][lt]=0001-01-01T00:00:00Z",
        "condition[createdOn]=0001-01-01",
        "condition[name]=" + "é" * 255,
        f"offset={10_000_000}",
    ]
    for query in queries:
        assert page(query)["pagination"]["registers"] in (0, 2)


@pytest.mark.django_db
def test_sparse_fields_keep_only_the_requested_keys():
    make_customers(2)
    result = page("fields=email,id")
    assert [list(row) for row in result["registers"]] == [["id", "email"], ["id", "email"]]


@pytest.mark.django_db
def test_list_page_runs_one_count_and_one_page_query(django_assert_num_queries):
    make_customers(300)
    for limit in ("1", "100"):
        with django_assert_num_queries(2):
            result = page(f"limit={limit}&condition[active]=true&order=name")
        assert len(result["registers"]) == int(limit)


@pytest.mark.django_db
def test_list_page_skips_the_page_query_when_nothing_is_left(django_assert_num_queries):
    make_customers(3)
    with django_assert_num_queries(1):
        page("offset=3")


@pytest.mark.django_db
def test_list_page_serializes_only_the_page():
    make_customers(12)
    seen_sizes = []

    def counting(customers):
        seen_sizes.append(len(customers))
        return serialize(customers)

    list_page(
        Customer.objects.all(),
        parse_list_query(QueryDict("limit=4&offset=10"), CUSTOMERS),
        counting,
    )
    assert seen_sizes == [2]


@pytest.mark.django_db
def test_decimal_condition_against_a_real_decimal_column():
    PaymentOption.objects.filter(kind="cash").delete()
    spec = list_filterset(
        fields={
            "id": ListField("id", "int", order=True),
            "discount": ListField("discount_percentage", "decimal", order=True),
        },
        output_fields=frozenset({"id"}),
        default_order=("id",),
    )
    baseline = PaymentOption.objects.filter(discount_percentage__gte=Decimal("7.5")).count()
    PaymentOption.objects.create(kind="cash", name="Pix", discount_percentage=Decimal("7.50"))
    query = parse_list_query(QueryDict("condition[discount][gte]=7.5"), spec)
    result = list_page(
        PaymentOption.objects.all(), query, lambda rows: [{"id": r.id} for r in rows]
    )
    assert result["pagination"]["registers"] == baseline + 1


@pytest.mark.django_db
def test_factory_customers_page_like_bulk_ones():
    CustomerFactory.create_batch(3)
    assert page("limit=2")["pagination"] == {"limit": 2, "offset": 0, "pages": 2, "registers": 3}


# ---------------------------------------------------------------------------- the FilterSet


def test_a_list_is_a_django_filter_filterset_with_a_filter_per_field_and_operator():
    assert issubclass(SPEC, FilterSet)
    assert isinstance(SPEC.base_filters["order"], OrderingFilter)
    filters = SPEC.base_filters
    assert {"score.eq", "score.nin", "name.contains", "name.startsWith", "day.isNull"} <= set(
        filters
    )
    assert (filters["createdAt.gte"].field_name, filters["createdAt.gte"].lookup_expr) == (
        "created_at",
        "gte",
    )
    assert filters["score.ne"].exclude and not filters["score.eq"].exclude
    # text operators only on text fields; a non-filterable field has no filter at all
    assert "score.contains" not in filters
    assert not [name for name in filters if name.startswith("secret.")]


def test_review_lists_filter_customer_id_on_the_masked_id():
    for filterset in (PRODUCT_REVIEW_LIST, SALES_CHANNEL_REVIEW_LIST):
        for operator in ("eq", "in", "gt"):
            assert filterset.base_filters[f"customerId.{operator}"].field_name == (
                "public_customer_id"
            )


@pytest.mark.django_db
def test_the_bound_filterset_filters_and_orders_a_queryset_itself():
    make_customers(4)
    bound = CUSTOMERS({"name.nin": ["Customer 0000"], "order": [("name", True)]})
    assert bound.is_valid()
    names = [c.name for c in bound.filter_queryset(Customer.objects.all())]
    assert names == ["Customer 0003", "Customer 0002", "Customer 0001"]
    nothing = CUSTOMERS({"id.in": []})
    assert nothing.is_valid()
    assert not nothing.filter_queryset(Customer.objects.all()).exists()


def test_the_shared_form_fields_keep_no_state_between_requests():
    assert list(errors_of("condition[score]=x")) == ["condition.score"]
    assert parse("condition[score]=3").filter == Q(score__exact=3)
    assert list(errors_of("condition[score]=y")) == ["condition.score"]


def test_errors_come_in_parameter_order_whichever_step_finds_them():
    errors = errors_of("order=[1]&condition[score]=x&limit=0")
    assert list(errors) == ["limit", "condition.score", "order"]
