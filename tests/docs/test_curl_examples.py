"""The reader of docs examples (tests/docs/curl_examples.py) reads curl as curl would."""

import pytest

from .curl_examples import extract, mismatches, parse_curl, split_pipeline

DOC = """
```sh
# a comment before any example
curl -s -g 'http://127.0.0.1:8000/review/product?condition[score][gte]=4'
# -> 200 {"status": true,
#         "data": {"registers": [{"score": "..."}]}}
curl -s -X POST http://127.0.0.1:8000/publics/customers \\
  -H 'Content-Type: application/json' \\
  -d '{"name": "Ana",
       "email": "ana@example.com"}'
# -> 201
curl -s http://127.0.0.1:8000/health
```

```json
{"not": "an example"}
```
"""


def test_extract_joins_continuations_and_reads_the_expectation():
    first, second, third = extract(DOC)
    assert first.line == 4 and first.status == 200
    assert first.expected == {"status": True, "data": {"registers": [{"score": "..."}]}}
    assert second.status == 201 and second.expected is None
    assert '"email": "ana@example.com"}' in second.command
    assert third.status is None


def test_parse_curl_reads_method_url_headers_and_body():
    request = parse_curl(split_pipeline(extract(DOC)[1].command)[0])
    assert (request.method, request.host, request.path) == (
        "POST",
        "127.0.0.1:8000",
        "/publics/customers",
    )
    assert request.headers == {"Content-Type": "application/json"}
    assert request.body is not None and '"name": "Ana"' in request.body


def test_get_with_data_urlencode_builds_the_query():
    request = parse_curl(
        ["curl", "-G", "http://h/quote", "--data-urlencode", 'items=[{"a": 1}]', "-d", "x=1"]
    )
    assert request.method == "GET"
    assert request.path == "/quote?items=%5B%7B%22a%22%3A%201%7D%5D&x=1"


@pytest.mark.parametrize("url", ["http://h/p?a[b]=1", "http://h/p?codes={a,b}"])
def test_brackets_without_globoff_fail_as_curl_would(url):
    with pytest.raises(ValueError, match="glob"):
        parse_curl(["curl", "-s", url])
    assert parse_curl(["curl", "-g", url]).path.startswith("/p?")


def test_mismatches_reads_objects_by_key_arrays_by_position_and_any_value():
    answer = {"data": [{"id": 1, "name": "x"}, {"id": 2}], "status": True}
    assert mismatches({"data": [{"id": 1}, {"id": "..."}]}, answer) == []
    assert mismatches({"data": [{"id": 2}]}, answer) == ["data[0].id: 1 != 2"]
    assert mismatches({"missing": "..."}, answer) == ["missing: missing"]
    assert mismatches({"data": [{}, {}, {}]}, answer) == [
        "data: expected at least 3 elements, got 2"
    ]
