"""Properties of the list-query parsers: hostile input only ever yields a ValidationError."""

import json
from urllib.parse import urlencode

from django.db.models import Q
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from apikit.query import ListField, list_filterset, parse_list_query
from apikit.querystring import json_or_nested, parse_nested, string_list

SPEC = list_filterset(
    fields={
        "id": ListField("id", "int", order=True),
        "score": ListField("score", "int", order=True),
        "name": ListField("name", "str", order=True),
        "active": ListField("active", "bool"),
        "price": ListField("price", "decimal"),
        "day": ListField("day", "date"),
        "createdAt": ListField("created_at", "datetime", order=True),
    },
    output_fields=frozenset({"id", "name", "score"}),
)

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
def query_dicts(draw):
    pairs = draw(
        st.lists(
            st.tuples(
                st.one_of(bracket_keys(), NAMES),
                st.one_of(SCALARS, JSON_VALUES.map(json.dumps)),
            ),
            max_size=8,
        )
    )
    return QueryDict(urlencode(pairs))


@st.composite
def raw_query_strings(draw):
    return QueryDict(draw(st.text(max_size=200)))


ANY_PARAMS = st.one_of(
    query_dicts(),
    raw_query_strings(),
    st.dictionaries(st.one_of(NAMES, bracket_keys()), JSON_VALUES, max_size=6),
)


def only_validation_errors(call, *args):
    try:
        return call(*args)
    except ValidationError as exc:
        for key, messages in exc.detail.items():
            assert isinstance(key, str)
            assert all(isinstance(str(message), str) and message for message in messages)
        return None


@settings(max_examples=250, deadline=None)
@given(ANY_PARAMS)
def test_parse_list_query_only_raises_validation_errors(params):
    query = only_validation_errors(parse_list_query, params, SPEC)
    if query is not None:
        assert 1 <= query.limit <= 100
        assert 0 <= query.offset <= 10_000_000
        assert query.order_by[-1] in ("id", "-id")


@settings(max_examples=200, deadline=None)
@given(ANY_PARAMS)
def test_querystring_helpers_only_raise_validation_errors(params):
    only_validation_errors(parse_nested, params)
    result = only_validation_errors(string_list, params, "fields")
    if result is not None:
        assert len(result) <= 100
        assert all(isinstance(item, str) for item in result)
    only_validation_errors(json_or_nested, params, "condition")


@settings(max_examples=150, deadline=None)
@given(
    condition=st.dictionaries(
        st.sampled_from(list(SPEC.list_fields)),
        st.one_of(JSON_VALUES, st.dictionaries(OPERATORS, JSON_VALUES, max_size=4)),
        max_size=5,
    )
)
def test_json_conditions_only_raise_validation_errors_and_use_whitelisted_lookups(condition):
    query = only_validation_errors(parse_list_query, {"condition": json.dumps(condition)}, SPEC)
    if query is not None:
        assert set(lookups(query.filter)) <= ALLOWED_LOOKUPS


ALLOWED_LOOKUPS = {
    f"{item.path}__{lookup}"
    for item in SPEC.list_fields.values()
    for lookup in ("exact", "gt", "gte", "lt", "lte", "in", "icontains", "istartswith", "isnull")
}


def lookups(q: Q):
    for child in q.children:
        if isinstance(child, Q):
            yield from lookups(child)
        else:
            yield child[0]


@given(limit=st.integers(min_value=1, max_value=100), offset=st.integers(0, 10_000_000))
def test_valid_limit_and_offset_round_trip(limit, offset):
    query = parse_list_query(QueryDict(f"limit={limit}&offset={offset}"), SPEC)
    assert (query.limit, query.offset) == (limit, offset)


@given(limit=st.one_of(st.integers(max_value=0), st.integers(min_value=101)))
def test_limit_out_of_range_is_always_refused(limit):
    try:
        parse_list_query(QueryDict(f"limit={limit}"), SPEC)
    except ValidationError as exc:
        assert list(exc.detail) == ["limit"]
    else:
        raise AssertionError(f"limit={limit} was accepted")


ORDERABLE = [name for name, item in SPEC.list_fields.items() if item.order]


@given(
    st.lists(
        st.tuples(st.sampled_from(ORDERABLE), st.sampled_from(["", "-", "+"])),
        max_size=8,
    )
)
def test_order_by_always_ends_with_the_id_tie_breaker(entries):
    text = ",".join(sign + name for name, sign in entries)
    try:
        query = parse_list_query({"order": text}, SPEC)
    except ValidationError as exc:
        assert len({name for name, _ in entries}) > 5
        assert list(exc.detail) == ["order"]
        return
    assert query.order_by[-1] in ("id", "-id")
    assert len([arg for arg in query.order_by if arg.lstrip("-") == "id"]) == 1
    paths = [arg.lstrip("-") for arg in query.order_by]
    assert len(paths) == len(set(paths))
