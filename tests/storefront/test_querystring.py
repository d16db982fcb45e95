"""Array and object parameters in a query string (apikit/querystring.py)."""

import pytest
from django.http import QueryDict
from rest_framework.exceptions import ValidationError

from apikit.querystring import indexed_list, json_or_nested, string_list


def qd(query: str) -> QueryDict:
    return QueryDict(query)


def sent(name: str, text: str) -> QueryDict:
    query = QueryDict(mutable=True)
    query[name] = text
    return query


def nested(query: str, name: str = "a"):
    return json_or_nested(qd(query), name)


def error_of(call, *args, **kwargs) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as caught:
        call(*args, **kwargs)
    return {key: [str(message) for message in value] for key, value in caught.value.detail.items()}


# ---------------------------------------------------------------------------- brackets


def test_nested_brackets_become_nested_dicts():
    assert nested("a[b][c]=1") == {"b": {"c": "1"}}


def test_empty_brackets_collect_a_list_in_order():
    assert nested("a[]=x&b=1&a[]=y") == ["x", "y"]


def test_indexed_brackets_stay_dict_keys():
    assert nested("a[0][f]=1&a[1][f]=2") == {"0": {"f": "1"}, "1": {"f": "2"}}


def test_plain_single_key_is_a_string_and_repeated_key_a_list():
    assert (nested("s=z&t=1&t=2", "s"), nested("s=z&t=1&t=2", "t")) == ("z", ["1", "2"])


def test_repeated_bracket_key_keeps_every_value():
    assert nested("a[b]=1&a[b]=2") == {"b": ["1", "2"]}


def test_siblings_merge_under_one_base():
    assert nested("c[x][gte]=1&c[x][lte]=5&c[y]=2", "c") == {
        "x": {"gte": "1", "lte": "5"},
        "y": "2",
    }


def test_an_absent_parameter_is_none():
    assert nested("") is None
    assert nested("b[a]=1&ab=2") is None


@pytest.mark.parametrize("key", ["a[b", "a[b]x", "a[b]]", "a[[b]]", "a[b[c]]"])
def test_malformed_key_is_an_error_naming_the_base_key(key):
    errors = error_of(nested, f"{key}=1")
    assert list(errors) == ["a"]
    assert "The a parameter name" in errors["a"][0]
    assert "malformed" in errors["a"][0]


def test_keys_of_other_parameters_are_never_parsed():
    assert nested("[b]=1&a]=2&ab[=3&a=4") == "4"


def test_five_levels_are_accepted_and_six_refused():
    assert nested("a[1][2][3][4][5]=x") == {"1": {"2": {"3": {"4": {"5": "x"}}}}}
    errors = error_of(nested, "a[1][2][3][4][5][6]=x")
    assert errors == {"a": ["The a parameter is nested deeper than 5 levels."]}


def test_overlong_key_is_refused():
    errors = error_of(nested, "a[" + "b" * 300 + "]=1")
    assert errors == {"a": ["The a parameter name is longer than 200 characters."]}


@pytest.mark.parametrize(
    "query", ["a=1&a[b]=2", "a[b]=2&a=1", "a[]=1&a[b]=2", "a[b]=1&a[b][c]=2", "a[b][c]=1&a[b]=2"]
)
def test_conflicting_forms_are_an_error(query):
    errors = error_of(nested, query)
    assert errors == {"a": ["The a parameter is given in conflicting forms."]}


def test_empty_brackets_only_at_the_end():
    errors = error_of(nested, "a[][b]=1")
    assert errors == {"a": ["The a parameter may use [] only as its last bracket."]}


# ---------------------------------------------------------------------------- string_list


@pytest.mark.parametrize(
    "query",
    [
        "codes[]=a&codes[]=b",
        "codes[0]=a&codes[1]=b",
        "codes[1]=b&codes[0]=a",
        "codes=a&codes=b",
        "codes=a,b",
        "codes= a , b ,,",
        'codes=["a","b"]',
        'codes= ["a", "b"] ',
    ],
)
def test_string_list_reads_every_encoding(query):
    assert string_list(qd(query), "codes") == ["a", "b"]


def test_string_list_is_none_when_absent():
    assert string_list(qd("other=1"), "codes") is None


def test_string_list_of_an_empty_value_is_empty():
    assert string_list(qd("codes="), "codes") == []


def test_string_list_keeps_commas_inside_json_strings():
    assert string_list(qd('codes=["a,b","c"]'), "codes") == ["a,b", "c"]


def test_string_list_turns_json_numbers_into_strings():
    assert string_list(qd('codes=[1,"x",2.5]'), "codes") == ["1", "x", "2.5"]
    assert list(error_of(string_list, qd("codes=[1e999]"), "codes")) == ["codes"]


def test_string_list_splits_each_repeated_value():
    assert string_list(qd("fields=id,name&fields=score"), "fields") == ["id", "name", "score"]


@pytest.mark.parametrize(
    "query",
    [
        "codes=[true]",
        "codes=[null]",
        'codes=[["a"]]',
        'codes=[{"a":1}]',
        'codes={"a":1}',
        "codes[a]=x",
        "codes[0][x]=y",
    ],
)
def test_string_list_refuses_anything_but_strings_and_numbers(query):
    errors = error_of(string_list, qd(query), "codes")
    assert list(errors) == ["codes"]
    assert errors["codes"][0].startswith("The codes field must be a list")


def test_string_list_refuses_invalid_json():
    errors = error_of(string_list, qd("codes=[a,b"), "codes")
    assert errors == {"codes": ["The codes field is not valid JSON."]}


def test_string_list_caps_the_number_of_elements():
    assert len(string_list(qd("codes=" + ",".join(["x"] * 100)), "codes")) == 100
    errors = error_of(string_list, qd("codes=" + ",".join(["x"] * 101)), "codes")
    assert errors == {"codes": ["The codes field may have at most 100 elements."]}


def test_string_list_ignores_malformed_keys_of_other_parameters():
    assert string_list(qd("utm[x=1&codes=a"), "codes") == ["a"]


def test_string_list_refuses_a_malformed_key_of_its_own():
    errors = error_of(string_list, qd("codes[x=1"), "codes")
    assert list(errors) == ["codes"]


# ---------------------------------------------------------------------------- indexed_list


def test_indexed_list_orders_by_numeric_index():
    value = {"10": "k", "2": "c", "0": "a"}
    assert indexed_list(value, name="order") == ["a", "c", "k"]


def test_indexed_list_passes_a_list_through():
    assert indexed_list(["a"], name="order") == ["a"]


@pytest.mark.parametrize("value", [{"a": 1}, {"-1": 1}, {"1.5": 1}, {"٣": 1}, "text", 5, None])
def test_indexed_list_refuses_anything_else(value):
    errors = error_of(indexed_list, value, name="order")
    assert errors == {"order": ["The order field must be a list."]}


# ---------------------------------------- JSON objects (`condition` must be one: test_query.py)


def test_json_or_nested_reads_json():
    query = qd('condition={"score":5,"createdAt":{"gte":"2026-01-01"}}')
    assert json_or_nested(query, "condition") == {"score": 5, "createdAt": {"gte": "2026-01-01"}}


def test_json_or_nested_reads_brackets():
    query = qd("condition[score]=5&condition[createdAt][gte]=2026-01-01")
    assert json_or_nested(query, "condition") == {"score": "5", "createdAt": {"gte": "2026-01-01"}}


def test_json_or_nested_is_none_when_absent():
    assert json_or_nested(qd("limit=1"), "condition") is None


@pytest.mark.parametrize(
    "text", ['{"a":', '{"a":NaN}', '{"a":Infinity}', '{"a":-Infinity}', "{'a':1}"]
)
def test_json_or_nested_refuses_invalid_json(text):
    errors = error_of(json_or_nested, sent("condition", text), "condition")
    assert errors == {"condition": ["The condition field is not valid JSON."]}


def test_deeply_nested_json_is_refused_without_crashing():
    text = "[" * 100_00 + "]" * 100_00
    errors = error_of(json_or_nested, sent("condition", text), "condition")
    assert list(errors) == ["condition"]
    deep = '{"a":' * 6 + "1" + "}" * 6
    assert error_of(json_or_nested, sent("condition", deep), "condition") == {
        "condition": ["The condition field is nested deeper than 5 levels."]
    }


def test_overlong_json_is_refused():
    text = '{"a":"' + "x" * 30_000 + '"}'
    errors = error_of(json_or_nested, sent("condition", text), "condition")
    assert errors == {"condition": ["The condition field is longer than 20000 characters."]}


def test_json_with_a_huge_integer_is_refused():
    errors = error_of(json_or_nested, sent("condition", '{"a":' + "9" * 5000 + "}"), "condition")
    assert errors == {"condition": ["The condition field is not valid JSON."]}


# ---------------------------------------------------------------------------- json_or_nested


def test_json_or_nested_returns_plain_strings_as_they_are():
    assert json_or_nested(qd("order=-createdAt,score"), "order") == "-createdAt,score"


def test_json_or_nested_reads_indexed_objects():
    query = qd("order[0][field]=createdAt&order[0][direction]=desc")
    assert json_or_nested(query, "order") == {"0": {"field": "createdAt", "direction": "desc"}}


def test_json_or_nested_reads_a_json_array():
    assert json_or_nested(qd('order=["-createdAt"]'), "order") == ["-createdAt"]
