"""Properties of the list queries: hostile input only ever yields a 422, never a 500; what
is accepted is bounded and ordered by id last."""

import json
from urllib.parse import urlencode

import pytest
from django.db.models import Q
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from apikit.filters import StrictOrdering
from apikit.querystring import collect, condition_data, json_or_nested, string_list
from storefront.models import Customer
from tests.storefront.query_urls import CustomerFilter, CustomerListView

NAMES = st.sampled_from(
    ["limit", "offset", "fields", "condition", "order", "id", "score", "name", "createdAt", "x"]
)
OPERATORS = st.sampled_from(
    ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "startsWith", "isNull", "zz"]
)
SEGMENT = st.one_of(NAMES, OPERATORS, st.sampled_from(["", "0", "1", "10", "-1", "field"]))
SCALARS = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "",
            "1",
            "-1",
            "1.5",
            "1e3",
            "true",
            "NaN",
            "2026-01-01",
            "2026-01-01T10:00:00Z",
            "9999-12-31T23:59:59-12:00",
            "0001-01-01T00:00:00+14:00",
            "[",
            "{",
            "[1,2]",
            '{"score":5}',
            "a,b",
            str(2**64),
            "\x00",
        ]
    ),
)
JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=20),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(NAMES, OPERATORS, st.text(max_size=5)), children, max_size=4),
    ),
    max_leaves=20,
)


@st.composite
def bracket_keys(draw):
    base = draw(st.one_of(NAMES, st.text(max_size=8)))
    segments = draw(st.lists(SEGMENT, max_size=7))
    key = base + "".join(f"[{segment}]" for segment in segments)
    if draw(st.booleans()):
        # Sometimes mangle the key: drop or add a bracket somewhere.
        position = draw(st.integers(min_value=0, max_value=len(key)))
        key = key[:position] + draw(st.sampled_from(["[", "]", "", "x"])) + key[position + 1 :]
    return key


@st.composite
def query_strings(draw):
    pairs = draw(
        st.lists(
            st.tuples(
                st.one_of(bracket_keys(), NAMES),
                st.one_of(SCALARS, JSON_VALUES.map(json.dumps)),
            ),
            max_size=8,
        )
    )
    return urlencode(pairs)


ANY_QUERY = st.one_of(query_strings(), st.text(max_size=200))


def only_validation_errors(call, *args):
    try:
        return call(*args)
    except ValidationError as exc:
        for key, messages in exc.detail.items():
            assert isinstance(key, str)
            assert all(isinstance(str(message), str) and message for message in messages)
        return None


@pytest.mark.django_db
@pytest.mark.urls("tests.storefront.query_urls")
@settings(max_examples=250, deadline=None)
@given(ANY_QUERY)
def test_any_list_query_is_a_page_or_a_422(query):
    response = APIClient().get("/customers", QueryDict(query))
    assert response.status_code in (200, 422), response.content
    if response.status_code == 200:
        pagination = response.json()["data"]["pagination"]
        assert 1 <= pagination["limit"] <= 100
        assert 0 <= pagination["offset"] <= 10_000_000


@settings(max_examples=200, deadline=None)
@given(ANY_QUERY)
def test_querystring_helpers_only_raise_validation_errors(query):
    params = QueryDict(query)
    result = only_validation_errors(string_list, params, "fields")
    if result is not None:
        assert len(result) <= 100
        assert all(isinstance(item, str) for item in result)
    for name in ("condition", "order", "limit", "x"):
        only_validation_errors(json_or_nested, params, name)


FIELDS = list(CustomerFilter.filters)


@settings(max_examples=150, deadline=None)
@given(
    condition=st.dictionaries(
        st.sampled_from([*FIELDS, "email", "x"]),
        st.one_of(JSON_VALUES, st.dictionaries(OPERATORS, JSON_VALUES, max_size=4)),
        max_size=5,
    )
)
def test_json_conditions_only_give_errors_or_whitelisted_lookups(condition):
    params = QueryDict(mutable=True)
    params["condition"] = json.dumps(condition)
    data = only_validation_errors(condition_data, collect(params, ("condition",)).get("condition"))
    if data is None:
        return
    bound = CustomerFilter(data, Customer.objects.none())
    if bound.is_valid():
        assert set(lookups(Q(*bound.conditions))) <= ALLOWED_LOOKUPS
    else:
        assert all(key.startswith("condition") for key in bound.errors)


ALLOWED_LOOKUPS = {
    f"{item.field_name}__{lookup}"
    for item in CustomerFilter.filters.values()
    for lookup in ("exact", "gt", "gte", "lt", "lte", "in", "icontains", "istartswith", "isnull")
}


def lookups(q: Q):
    for child in q.children:
        if isinstance(child, Q):
            yield from lookups(child)
        else:
            yield child[0]


@pytest.mark.django_db
@pytest.mark.urls("tests.storefront.query_urls")
@settings(max_examples=50, deadline=None)
@given(limit=st.integers(min_value=1, max_value=100), offset=st.integers(0, 10_000_000))
def test_valid_limit_and_offset_round_trip(limit, offset):
    response = APIClient().get("/customers", {"limit": limit, "offset": offset})
    pagination = response.json()["data"]["pagination"]
    assert (pagination["limit"], pagination["offset"]) == (limit, offset)


@pytest.mark.django_db
@pytest.mark.urls("tests.storefront.query_urls")
@settings(max_examples=50, deadline=None)
@given(limit=st.one_of(st.integers(max_value=0), st.integers(min_value=101)))
def test_limit_out_of_range_is_always_refused(limit):
    response = APIClient().get("/customers", {"limit": limit})
    assert list(response.json()["data"]["errors"]) == ["limit"]


ORDERABLE = list(CustomerListView.ordering_fields)


@given(
    st.lists(
        st.tuples(st.sampled_from(ORDERABLE), st.sampled_from(["", "-", "+"])),
        max_size=8,
    )
)
def test_order_by_always_ends_with_the_id_tie_breaker(entries):
    text = ",".join(sign + name for name, sign in entries)
    request = Request(APIRequestFactory().get("/", {"order": text}))
    try:
        order_by = StrictOrdering().get_ordering(request, None, CustomerListView)
    except ValidationError as exc:
        assert len({name for name, _ in entries}) > 5
        assert list(exc.detail) == ["order"]
        return
    assert order_by[-1] in ("id", "-id")
    assert len([arg for arg in order_by if arg.lstrip("-") == "id"]) == 1
    paths = [arg.lstrip("-") for arg in order_by]
    assert len(paths) == len(set(paths))
