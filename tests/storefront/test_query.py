"""List query parameters and the page container, through HTTP on the test-only lists of
query_urls.py (customers; payment options for decimals)."""

import json
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from urllib.parse import quote

import pytest
from django.core.exceptions import FieldDoesNotExist
from rest_framework.test import APIClient

from apikit.filters import DateTimeFilter, FilterSet
from storefront.models import Customer, PaymentOption
from tests.storefront.factories import CustomerFactory
from tests.storefront.query_urls import CustomerFilter

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.storefront.query_urls")]


def answer(query: str, path: str = "/customers"):
    return APIClient().get(f"{path}?{query}")


def page(query: str, path: str = "/customers") -> dict:
    response = answer(query, path)
    assert response.status_code == 200, response.content
    body = response.json()
    return body["data"] if path == "/customers" else body  # payment options: a bare page


def ids(query: str, path: str = "/customers") -> list[int]:
    return [row["id"] for row in page(query, path)["registers"]]


def count(query: str, path: str = "/customers") -> int:
    return page(query, path)["pagination"]["registers"]


def errors_of(query: str, path: str = "/customers") -> dict[str, list[str]]:
    response = answer(query, path)
    assert response.status_code == 422, response.content
    return response.json()["data"]["errors"]


def make_customers(count: int, **fields) -> list[Customer]:
    customers = Customer.objects.bulk_create(
        [
            Customer(name=f"Customer {n:04}", email=f"c{n}@example.com", password="x", **fields)
            for n in range(count)
        ]
    )
    return list(Customer.objects.filter(id__in=[c.id for c in customers]).order_by("id"))


# ---------------------------------------------------------------------------- defaults


def test_no_parameters_give_the_first_ten_newest_first():
    customers = make_customers(12)
    for n, customer in enumerate(customers):
        Customer.objects.filter(pk=customer.pk).update(
            created_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=n % 6)
        )
    listed = page("")
    assert listed["pagination"] == {"limit": 10, "offset": 0, "pages": 2, "registers": 12}
    expected = sorted(customers, key=lambda c: (-(customers.index(c) % 6), c.id))
    assert [row["id"] for row in listed["registers"]] == [c.id for c in expected[:10]]


def test_unrelated_parameters_are_ignored():
    make_customers(2)
    assert page("utm_source=x&page[x=1") == page("")


def test_a_camel_case_name_filters_the_model_field_it_spells():
    class Camel(FilterSet):
        class Meta:
            model = Customer
            fields = ("lastLogin",)

    assert type(Camel.filters["lastLogin"]) is DateTimeFilter
    assert Camel.filters["lastLogin"].field_name == "last_login"


def test_declared_filters_are_not_shared_between_subclasses():
    class Base(FilterSet):
        last = DateTimeFilter()  # field_name from its API name, per class
        moment = DateTimeFilter(field_name="last_login")

        class Meta:
            model = Customer
            fields = ("moment",)

    class Child(Base):
        class Meta:
            model = Customer
            fields = ("moment", "last")

    class Other(Base):
        last = DateTimeFilter(field_name="last_login")

        class Meta:
            model = Customer
            fields = ("last",)

    assert Child.filters["moment"] is not Base.filters["moment"]
    assert Child.filters["moment"].field_name == Base.filters["moment"].field_name
    assert Child.filters["last"] is not Base.last
    assert Base.last.field_name is None  # the declaration itself is never changed
    assert Child.filters["last"].field_name == "last"
    assert Other.filters["last"].field_name == "last_login"
    Child.filters["moment"].field_name = "date_joined"
    assert Base.filters["moment"].field_name == "last_login"


def test_filterset_fields_must_exist_on_the_model():
    with pytest.raises(FieldDoesNotExist):

        class Wrong(FilterSet):
            class Meta:
                model = Customer
                fields = ("nope",)


# ---------------------------------------------------------------------------- limit, offset


@pytest.mark.parametrize(("value", "expected"), [("1", 1), ("100", 100), ("010", 10)])
def test_limit_in_range_is_accepted(value, expected):
    assert page(f"limit={value}")["pagination"]["limit"] == expected


@pytest.mark.parametrize(
    "value", ["0", "101", "-1", "abc", "1.5", "", "1e3", "%205", "5%20", "9" * 40, "0x10", "٣"]
)
def test_limit_out_of_range_or_not_an_integer_is_refused(value):
    assert errors_of(f"limit={value}") == {
        "limit": ["The limit field must be an integer from 1 to 100."]
    }


@pytest.mark.parametrize(("value", "expected"), [("0", 0), ("35", 35), ("10000000", 10_000_000)])
def test_offset_in_range_is_accepted(value, expected):
    assert page(f"offset={value}")["pagination"]["offset"] == expected


@pytest.mark.parametrize("value", ["-1", "10000001", "x", "1.0", "", "%2B", "9" * 25])
def test_offset_out_of_range_or_not_an_integer_is_refused(value):
    assert errors_of(f"offset={value}") == {
        "offset": ["The offset field must be an integer from 0 to 10000000."]
    }


def test_limit_given_twice_or_as_a_list_is_refused():
    assert errors_of("limit=1&limit=2") == {"limit": ["The limit field must be given once."]}
    assert errors_of("limit[]=5") == {
        "limit": ["The limit field must be a single integer, not a list or object."]
    }


def test_every_bad_parameter_is_reported_at_once():
    errors = errors_of("limit=0&offset=-1&fields=nope&condition=[1]&order=nope")
    assert list(errors) == ["limit", "offset", "fields", "condition", "order"]


def test_errors_come_in_parameter_order_whichever_step_finds_them():
    errors = errors_of("order=[1]&condition[id]=x&limit=0")
    assert list(errors) == ["limit", "condition.id", "order"]


# ---------------------------------------------------------------------------- fields


@pytest.mark.parametrize(
    "query",
    [
        "fields=id,name",
        "fields=id&fields=name",
        "fields[]=id&fields[]=name",
        'fields=["id","name"]',
        "fields=name,id,id",
    ],
)
def test_fields_in_every_encoding_keep_the_register_key_order(query):
    make_customers(2)
    assert [list(row) for row in page(query)["registers"]] == [["id", "name"], ["id", "name"]]


def test_empty_fields_means_all():
    make_customers(1)
    assert list(page("fields=")["registers"][0]) == ["id", "name", "email", "createdAt"]


def test_unknown_fields_are_listed():
    errors = errors_of("fields=id,password,hash")
    assert errors == {
        "fields": [
            "The fields field has unknown names: password, hash "
            "(allowed: createdAt, email, id, name)."
        ]
    }


# ---------------------------------------------------------------------------- condition


def test_condition_in_json_and_brackets_is_the_same_filter():
    customers = make_customers(3)
    Customer.objects.filter(pk=customers[0].pk).update(created_at=datetime(2025, 1, 1, tzinfo=UTC))
    as_json = ids('condition={"name":"Customer 0001","createdAt":{"gte":"2026-01-01T00:00:00Z"}}')
    as_brackets = ids("condition[name]=Customer 0001&condition[createdAt][gte]=2026-01-01")
    assert as_json == as_brackets == [customers[1].id]
    assert ids("condition[name]=Customer 0000&condition[createdAt][gte]=2026-01-01") == []


@pytest.mark.parametrize(
    ("operator", "expected"),
    [
        ("eq", [1]),
        ("ne", [0, 2]),
        ("gt", [2]),
        ("gte", [1, 2]),
        ("lt", [0]),
        ("lte", [0, 1]),
        ("in", [1]),
        ("nin", [0, 2]),
    ],
)
def test_each_comparison_operator(operator, expected):
    customers = make_customers(3)
    listed = ids(f"condition[id][{operator}]={customers[1].id}&order=id")
    assert listed == [customers[n].id for n in expected]


def test_text_operators_are_case_insensitive():
    make_customers(3)
    assert count('condition={"name":{"contains":"OMER 000","startsWith":"cust"}}') == 3
    assert count("condition[name][contains]=0001") == 1


@pytest.mark.parametrize("operator", ["contains", "startsWith"])
def test_text_operators_only_apply_to_text_fields(operator):
    errors = errors_of(f"condition[id][{operator}]=1")
    assert errors == {
        "condition.id": [
            f"The condition.id field cannot use {operator}: it applies to text fields only."
        ]
    }


@pytest.mark.parametrize(
    ("value", "logged_in"),
    [("true", False), ("TRUE", False), ("1", False), ("false", True), ("0", True)],
)
def test_is_null_takes_a_boolean(value, logged_in):
    customers = make_customers(2)
    Customer.objects.filter(pk=customers[0].pk).update(last_login=datetime(2026, 1, 1, tzinfo=UTC))
    assert ids(f"condition[lastLogin][isNull]={value}") == [customers[0 if logged_in else 1].id]


def test_is_null_refuses_other_values():
    errors = errors_of("condition[name][isNull]=maybe")
    assert errors == {
        "condition.name": ["The condition.name field must be a boolean (true or false)."]
    }


def test_null_values_mean_is_null():
    customers = make_customers(2)
    Customer.objects.filter(pk=customers[0].pk).update(last_login=datetime(2026, 1, 1, tzinfo=UTC))
    assert ids('condition={"lastLogin":null}') == [customers[1].id]
    assert ids('condition={"lastLogin":{"ne":null}}') == [customers[0].id]
    assert errors_of('condition={"name":{"gt":null}}') == {
        "condition.name": ["The condition.name field gt must be a single value."]
    }


@pytest.mark.parametrize(
    "query",
    [
        'condition={{"id":{{"in":[{a},{b}]}}}}',
        "condition[id][in]={a},{b}",
        "condition[id][in]=[{a},{b}]",
        "condition[id][in][]={a}&condition[id][in][]={b}",
        "condition[id][in][0]={a}&condition[id][in][1]={b}",
        "condition[id][in]={a}&condition[id][in]={b}",
        'condition={{"id":[{a},{b}]}}',
    ],
)
def test_in_reads_every_list_encoding(query):
    customers = make_customers(3)
    a, b = customers[0].id, customers[2].id
    assert ids(query.format(a=a, b=b) + "&order=id") == [a, b]


def test_in_caps_the_number_of_values():
    assert page("condition[id][in]=" + ",".join(["1"] * 100))
    errors = errors_of("condition[id][in]=" + ",".join(["1"] * 101))
    assert errors == {"condition.id": ["The condition.id field must have at most 100 values."]}


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        ('condition={"id":{"in":[[1]]}}', "in must be a list of plain values"),
        ('condition={"id":{"in":[{"a":1}]}}', "in must be a list of plain values"),
        ('condition={"id":{"in":5}}', "must be a list of values"),
        ("condition[id][in]=[1,", "must be a JSON array or comma-separated values"),
        ("condition[id][in][a]=1", "must be a list of values"),
        ('condition={"id":{"eq":[1]}}', "eq must be a single value"),
        ('condition={"id":{"eq":{"x":1}}}', "eq must be a single value"),
    ],
)
def test_condition_values_deeper_than_operator_and_value_are_refused(query, problem):
    assert errors_of(query) == {"condition.id": [f"The condition.id field {problem}."]}


@pytest.mark.parametrize(
    ("query", "matches"),
    [
        ("condition[id][gt]=-42", 1),
        ("condition[id][gt]=%2B7000000000", 0),
        (f"condition[id][lt]={2**63 - 1}", 1),
        ("condition[active]=True", 1),
        ("condition[active]=0", 0),
        ("condition[createdOn]=2026-02-28", 1),
        ("condition[name]=Ana Maria", 1),
        ("condition[createdAt]=2026-02-28T09:00:00-03:00", 1),
        ("condition[createdAt]=2026-02-28T12:00:00.000001Z", 0),
    ],
)
def test_values_are_coerced_to_the_field_type(query, matches):
    CustomerFactory(name="Ana Maria", active=True)
    Customer.objects.update(created_at=datetime(2026, 2, 28, 12, tzinfo=UTC))
    assert count(query) == matches


@pytest.mark.parametrize(
    ("value", "ok"), [(5, True), (5.0, True), (True, False), (5.5, False), (2**63, False)]
)
def test_json_integers_are_checked(value, ok):
    response = answer("condition=" + quote(json.dumps({"id": value})))
    assert response.status_code == (200 if ok else 422)


def test_json_decimals_and_decimal_strings_are_accepted():
    PaymentOption.objects.filter(kind="cash").delete()
    option = PaymentOption.objects.create(kind="cash", name="Pix", discount_percentage="10")
    at_least = set(
        PaymentOption.objects.filter(discount_percentage__gte=Decimal("9.99")).values_list(
            "id", flat=True
        )
    )
    assert option.id in at_least
    assert set(ids('limit=100&condition={"discount":{"gte":9.99}}', "/payment-options")) == at_least
    assert option.id in ids('limit=100&condition={"discount":"10.00"}', "/payment-options")


def test_json_booleans_are_accepted():
    CustomerFactory(active=False)
    assert count('condition={"active":false}') == 1
    assert count('condition={"active":true}') == 0


@pytest.mark.parametrize(
    ("field", "raw", "problem"),
    [
        ("id", "abc", "must be an integer"),
        ("id", "1.5", "must be an integer"),
        ("id", str(2**63), "must be an integer within the signed 64-bit range"),
        ("id", "9" * 50, "must be an integer"),
        ("active", "yes", "must be a boolean (true or false)"),
        ("createdOn", "2026-02-30", "must be an ISO 8601 date (e.g. 2026-01-31)"),
        ("createdOn", "tomorrow", "must be an ISO 8601 date (e.g. 2026-01-31)"),
        ("name", "x" * 256, "must be at most 255 characters"),
    ],
)
def test_bad_values_are_refused_naming_the_field(field, raw, problem):
    errors = errors_of(f"condition[{field}]={raw}")
    assert errors == {f"condition.{field}": [f"The condition.{field} field {problem}."]}


@pytest.mark.parametrize("raw", ["NaN", "Infinity", "1e3", "1" * 30, "1,5", "true"])
def test_bad_decimals_are_refused(raw):
    errors = errors_of(f"condition[discount]={raw}", "/payment-options")
    assert errors == {
        "condition.discount": ["The condition.discount field must be a decimal number."]
    }


@pytest.mark.parametrize(
    "raw", ["yesterday", "2026-13-01", "2026-01-01T25:00", "0001-01-01T00:00:00+05:00", "1" * 70]
)
def test_bad_datetimes_are_refused(raw):
    errors = errors_of(f"condition[createdAt]={raw.replace('+', '%2B')}")
    assert errors == {
        "condition.createdAt": [
            "The condition.createdAt field must be an ISO 8601 date-time "
            "(e.g. 2026-01-31T12:00:00-03:00) or a date."
        ]
    }


def test_json_strings_with_nul_characters_are_refused():
    # (a raw NUL in the query string is refused before the view: test_api_control_characters)
    errors = errors_of('condition={"name":"a\\u0000b"}')
    assert errors == {
        "condition.name": ["The condition.name field must not contain NUL characters."]
    }


def test_json_strings_with_lone_surrogates_are_refused():
    errors = errors_of('condition={"name":"\\ud800"}')
    assert errors == {"condition.name": ["The condition.name field must be valid Unicode text."]}


def test_a_date_alone_is_the_start_of_that_day_in_the_store_time_zone(settings):
    settings.TIME_ZONE = "America/Sao_Paulo"
    before, after = make_customers(2)
    Customer.objects.filter(pk=before.pk).update(created_at=datetime(2026, 1, 1, 2, 59, tzinfo=UTC))
    Customer.objects.filter(pk=after.pk).update(created_at=datetime(2026, 1, 1, 3, tzinfo=UTC))
    assert ids("condition[createdAt][gte]=2026-01-01") == [after.id]


def test_a_naive_datetime_is_in_the_store_time_zone(settings):
    settings.TIME_ZONE = "America/Sao_Paulo"
    before, after = make_customers(2)
    Customer.objects.filter(pk=before.pk).update(created_at=datetime(2026, 1, 1, 13, tzinfo=UTC))
    Customer.objects.filter(pk=after.pk).update(created_at=datetime(2026, 1, 1, 14, tzinfo=UTC))
    assert ids("condition[createdAt][lt]=2026-01-01T10:30:00") == [before.id]


def test_unknown_and_non_filterable_fields_are_refused():
    errors = errors_of('condition={"password":{"gt":1,"lt":2},"email":"y"}')
    allowed = "(allowed: id, name, active, createdAt, lastLogin, createdOn)."
    assert errors == {
        "condition": [
            f"The condition field cannot filter by 'password' {allowed}",
            f"The condition field cannot filter by 'email' {allowed}",
        ]
    }


def test_orm_lookups_in_field_names_are_refused():
    errors = errors_of("condition[name__startswith]=a&condition[id__gt]=1")
    assert len(errors["condition"]) == 2


def test_unknown_operator_is_refused():
    errors = errors_of("condition[id][regex]=.*")
    assert errors == {
        "condition.id": [
            "The condition.id field has an unknown operator 'regex' "
            "(use eq, ne, gt, gte, lt, lte, in, nin, contains, startsWith, isNull)."
        ]
    }


def test_operator_without_value_is_refused():
    errors = errors_of('condition={"id":{}}')
    assert errors == {"condition.id": ["The condition.id field must name at least one operator."]}


@pytest.mark.parametrize(
    "query", ["condition=[1]", "condition=5", "condition=x", "condition=a&condition=b"]
)
def test_condition_must_be_an_object(query):
    assert errors_of(query) == {"condition": ["The condition field must be a JSON object."]}


def test_condition_refuses_invalid_json():
    assert errors_of('condition={"id":') == {
        "condition": ["The condition field is not valid JSON."]
    }


def test_condition_refuses_more_than_twenty_conditions():
    operators = ("gt", "gte", "lt", "lte", "ne", "eq", "in", "nin")
    twenty = "&".join(f"condition[{f}][{op}]=1" for f in ("id", "name") for op in operators)
    twenty += "&" + "&".join(f"condition[name][{op}]=a" for op in ("contains", "startsWith"))
    twenty += "&condition[createdOn][gt]=2026-01-01&condition[createdAt][gt]=2026-01-01"
    assert page(twenty)
    errors = errors_of(twenty + "&condition[active]=true")
    assert errors == {"condition": ["The condition field may have at most 20 conditions."]}


def test_condition_with_many_unknown_fields_gives_one_short_error(settings):
    settings.MAX_URL_BYTES = 100_000
    text = json.dumps({f"f{n}": 1 for n in range(1500)})
    assert errors_of("condition=" + quote(text)) == {
        "condition": ["The condition field may have at most 20 conditions."]
    }


def test_empty_condition_filters_nothing():
    make_customers(2)
    assert count("condition=") == count("condition={}") == 2


# ---------------------------------------------------------------------------- order


@pytest.mark.parametrize(
    "query",
    [
        "order=-createdAt,name",
        "order=-createdAt&order=name",
        "order[]=-createdAt&order[]=%2Bname",
        'order=["-createdAt","name"]',
        'order=[{"field":"createdAt","direction":"DESC"},{"field":"name"}]',
        "order[0][field]=createdAt&order[0][direction]=desc&order[1][field]=name",
        "order[1][field]=name&order[0][field]=createdAt&order[0][direction]=Desc",
    ],
)
def test_order_in_every_encoding(query):
    customers = make_customers(4)
    Customer.objects.filter(pk__in=[c.id for c in customers[:2]]).update(
        created_at=datetime(2026, 1, 2, tzinfo=UTC)
    )
    Customer.objects.filter(pk__in=[c.id for c in customers[2:]]).update(
        created_at=datetime(2026, 1, 1, tzinfo=UTC)
    )
    assert ids(query) == [c.id for c in customers]


def test_a_single_bracket_order_object_is_accepted():
    customers = make_customers(3)
    assert ids("order[field]=name&order[direction]=desc") == [c.id for c in customers[::-1]]


def test_id_ends_every_order_and_may_lead_it():
    customers = make_customers(3)
    Customer.objects.update(name="Same")
    assert ids("order=name") == [c.id for c in customers]
    assert ids("order=-id,name") == [c.id for c in customers[::-1]]


def test_duplicate_order_fields_keep_the_first():
    customers = make_customers(3)
    assert ids("order=name,-name,email") == [c.id for c in customers]


def test_default_order_applies_when_order_is_absent_or_empty():
    customers = make_customers(3)
    Customer.objects.update(created_at=datetime(2026, 1, 1, tzinfo=UTC))
    Customer.objects.filter(pk=customers[1].pk).update(created_at=datetime(2026, 1, 2, tzinfo=UTC))
    expected = [customers[1].id, customers[0].id, customers[2].id]
    assert ids("") == ids("order=") == ids("order=[]") == expected


def test_unknown_or_non_orderable_order_fields_are_refused():
    errors = errors_of("order=-createdOn,nope")
    assert errors == {
        "order": [
            "The order field cannot sort by createdOn, nope "
            "(allowed: id, name, createdAt, lastLogin, email, active)."
        ]
    }


def test_at_most_five_order_fields():
    assert page("order=id,name,createdAt,lastLogin,email")
    assert page("order=name,createdAt,lastLogin,email,active,name")
    assert errors_of("order=name,createdAt,lastLogin,email,active,id") == {
        "order": ["The order field may have at most 5 fields."]
    }


def test_more_than_a_hundred_order_entries_are_refused_with_the_limit_checked():
    # Repeats are allowed (the first wins) up to 100 entries; the message names that limit.
    assert page("order=" + ",".join(["name"] * 100))
    assert errors_of("order=" + ",".join(["name"] * 101)) == {
        "order": ["The order field may have at most 100 entries."]
    }


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (
            'order=[{"field":"name","direction":"up"}]',
            "The order field direction must be asc or desc.",
        ),
        ('order=[{"direction":"asc"}]', "The order field entries must name a field."),
        (
            'order=[{"field":"name","x":1}]',
            "The order field entries may only have field and direction.",
        ),
        ("order=[1]", "The order field must be a list of fields."),
        ("order=[true]", "The order field must be a list of fields."),
        ("order[a][field]=name", "The order field must be a list."),
    ],
)
def test_malformed_order_is_refused(query, message):
    assert errors_of(query) == {"order": [message]}


# ---------------------------------------------------------------------------- pages (DB)


@pytest.mark.parametrize(
    ("total", "limit", "pages"), [(0, 10, 0), (1, 10, 1), (10, 10, 1), (11, 10, 2), (25, 7, 4)]
)
def test_pagination_counts_pages_and_registers(total, limit, pages):
    make_customers(total)
    result = page(f"limit={limit}")
    assert result["pagination"] == {"limit": limit, "offset": 0, "pages": pages, "registers": total}
    assert len(result["registers"]) == min(total, limit)


def test_last_page_holds_the_remainder():
    make_customers(25)
    result = page("limit=10&offset=20&order=id")
    assert [row["name"] for row in result["registers"]] == [
        f"Customer {n:04}" for n in range(20, 25)
    ]


def test_offset_beyond_the_end_gives_no_registers_but_the_totals():
    make_customers(5)
    assert page("limit=2&offset=50") == {
        "registers": [],
        "pagination": {"limit": 2, "offset": 50, "pages": 3, "registers": 5},
    }


def test_paging_through_ties_never_overlaps_or_skips():
    # Given 23 customers with the very same creation time (the default order's only key)
    customers = make_customers(23)
    Customer.objects.update(created_at=datetime(2026, 1, 1, tzinfo=UTC))
    # When every page of 5 is read
    seen = []
    for offset in range(0, 25, 5):
        seen.extend(ids(f"limit=5&offset={offset}"))
    # Then each customer appears exactly once
    assert sorted(seen) == [c.id for c in customers]
    assert len(seen) == len(set(seen))


def test_paging_by_a_nullable_field_never_overlaps_or_skips():
    customers = make_customers(12)
    Customer.objects.filter(id__in=[c.id for c in customers[::3]]).update(
        last_login=datetime(2026, 1, 1, tzinfo=UTC)
    )
    seen = []
    for offset in range(0, 12, 5):
        seen.extend(ids(f"limit=5&offset={offset}&order=-lastLogin"))
    assert sorted(seen) == [c.id for c in customers]


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


def test_conditions_filter_in_the_database():
    make_customers(3)
    Customer.objects.filter(name="Customer 0002").update(
        last_login=datetime(2026, 1, 1, tzinfo=UTC)
    )
    assert count("condition[name][contains]=0001") == 1
    assert count("condition[name][startsWith]=CUSTOMER") == 3
    assert count("condition[name][nin]=Customer 0000,Customer 0001") == 1
    assert count("condition[lastLogin][isNull]=false") == 1
    assert count('condition={"lastLogin":{"ne":"2026-01-01T00:00:00Z"}}') == 2
    assert count("condition[lastLogin][gte]=2025-12-31") == 1


def test_like_wildcards_in_text_conditions_are_literal():
    make_customers(3)
    assert count("condition[name][contains]=%25") == 0
    assert count("condition[name][contains]=_") == 0


def test_date_condition_on_a_datetime_path():
    make_customers(2)
    Customer.objects.update(created_at=datetime(2026, 3, 10, 12, tzinfo=UTC))
    assert count("condition[createdOn]=2026-03-10") == 2
    assert count("condition[createdOn][gt]=2026-03-10") == 0


def test_in_with_no_values_matches_nothing_and_nin_everything():
    make_customers(3)
    assert count('condition={"id":{"in":[]}}') == 0
    assert count('condition={"id":{"nin":[]}}') == 3


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
        assert count(query) in (0, 2)


def test_a_page_runs_one_count_and_one_page_query(django_assert_num_queries):
    make_customers(300)
    for limit in ("1", "100"):
        with django_assert_num_queries(2):
            result = page(f"limit={limit}&condition[active]=true&order=name")
        assert len(result["registers"]) == int(limit)


@pytest.mark.parametrize(
    "query, queries, registers",
    [
        ("limit=5", 1, 3),  # a short page tells the count: no COUNT query
        ("limit=2&offset=2", 1, 3),
        ("limit=2", 2, 3),  # a full page does not
        ("offset=3", 2, 3),  # nor an empty page past the first
        ("offset=9", 2, 3),
    ],
)
def test_a_count_query_only_when_the_page_does_not_tell_it(
    django_assert_num_queries, query, queries, registers
):
    make_customers(3)
    with django_assert_num_queries(queries):
        assert page(query)["pagination"]["registers"] == registers


def test_an_empty_list_costs_one_query(django_assert_num_queries):
    with django_assert_num_queries(1):
        assert page("")["pagination"] == {"limit": 10, "offset": 0, "pages": 0, "registers": 0}


def test_factory_customers_page_like_bulk_ones():
    CustomerFactory.create_batch(3)
    assert page("limit=2")["pagination"] == {"limit": 2, "offset": 0, "pages": 2, "registers": 3}


# ---------------------------------------------------------------------------- the FilterSet


def test_a_filterset_is_bound_to_data_and_a_queryset():
    make_customers(4)
    bound = CustomerFilter(
        {"name__nin": ["Customer 0000"], "id__gt": 0}, Customer.objects.order_by("-name")
    )
    assert bound.is_valid()
    assert [c.name for c in bound.qs] == ["Customer 0003", "Customer 0002", "Customer 0001"]
    refused = CustomerFilter({"name__gt": None}, Customer.objects.all())
    assert refused.errors == {
        "condition.name": ["The condition.name field gt must be a single value."]
    }
    assert list(refused.qs) == list(Customer.objects.all())
