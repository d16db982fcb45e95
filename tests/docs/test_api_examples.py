"""Every curl example of docs/api.md runs against the demo store and answers what the doc shows.

The demo store (`manage.py seed_demo`, what `make run` loads) is seeded once for this module
into the test database, with the ids a fresh `make run` gives (sequences restarted), and rolled
back afterwards. The examples then run in document order through the Django test client, so a
token or an ETag that one example captures is there for the next. See tests/docs/curl_examples.py
for how a command and the expectation after it (`# -> 200 {...}`) are read.
"""

from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.test import Client, override_settings

from .curl_examples import (
    ASSIGN,
    JSON_PATH,
    Example,
    extract,
    mismatches,
    new_uuid,
    parse_curl,
    split_pipeline,
    substitute,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _restart_sequences() -> None:
    """Ids as on a fresh database, whatever earlier tests used (rolled back with the module)."""
    models = list(apps.get_models())
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'")
            if cursor.fetchone():
                cursor.execute("DELETE FROM sqlite_sequence")
        return
    statements = connection.ops.sequence_reset_sql(no_style(), models)
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


@pytest.fixture(scope="module")
def demo_store(django_db_setup, django_db_blocker, tmp_path_factory):
    media = tmp_path_factory.mktemp("docs-media")
    with (
        django_db_blocker.unblock(),
        override_settings(MEDIA_ROOT=media, PUBLIC_BASE_URL="http://127.0.0.1:8000"),
        transaction.atomic(),
    ):
        _restart_sequences()
        call_command("seed_demo", stdout=StringIO())
        yield
        transaction.set_rollback(True)


def examples() -> list[Example]:
    return extract(DOC.read_text(encoding="utf-8"))


def test_the_doc_has_its_examples_and_each_shows_what_it_answers():
    found = examples()
    assert len(found) >= 25
    curls = [e for e in found if "curl" in e.command]
    missing = [e.label for e in curls if e.status is None]
    assert not missing, "examples without a '# -> <status> ...' line after them:\n" + "\n".join(
        missing
    )


def _call(client: Client, argv: list[str]):
    request = parse_curl(argv)
    extra = {
        f"HTTP_{name.upper().replace('-', '_')}": value
        for name, value in request.headers.items()
        if name.lower() != "content-type"
    }
    content_type = request.headers.get("Content-Type", "application/x-www-form-urlencoded")
    return client.generic(
        request.method,
        request.path,
        data=request.body or "",
        content_type=content_type,
        HTTP_HOST=request.host,
        **extra,
    )


def _check(example: Example, response) -> list[str]:
    problems = []
    if response.status_code != example.status:
        body = response.content[:300].decode(errors="replace")
        problems.append(f"status {response.status_code}, the doc shows {example.status}: {body}")
    elif example.expected is not None:
        try:
            answer = response.json()
        except ValueError:
            return [f"not JSON: {response.content[:200]!r}"]
        problems.extend(mismatches(example.expected, answer))
    return problems


def _captured(stages: list[list[str]], response) -> str:
    program = " | ".join(" ".join(stage) for stage in stages)
    path = JSON_PATH.search(program)
    if path:
        value = response.json()
        for key in path.group(1)[2:-2].split('"]["'):
            value = value[key]
        return str(value)
    if "etag" in program.lower():
        return response["ETag"]
    raise ValueError(f"cannot tell what `{program}` captures")


@pytest.mark.django_db
def test_every_example_of_docs_api_md_answers_what_the_doc_shows(demo_store):
    client = Client()
    variables: dict[str, str] = {}
    failures: list[str] = []
    for example in examples():
        problems = list(example.problems)
        try:
            command = example.command
            assignment = ASSIGN.match(command)
            if assignment and "curl" not in assignment.group(2):
                if "uuid" not in assignment.group(2):
                    raise ValueError("an assignment the docs test cannot evaluate")
                variables[assignment.group(1)] = new_uuid()
                continue
            # Variables are expanded after the words are split, as a shell does (an ETag's
            # quotes stay in the header value).
            stages = [
                [substitute(word, variables) for word in stage]
                for stage in split_pipeline(assignment.group(2) if assignment else command)
            ]
            response = _call(client, stages[0])
            problems.extend(_check(example, response))
            if assignment and not problems:
                variables[assignment.group(1)] = _captured(stages[1:], response)
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(f"{type(exc).__name__}: {exc}")
        if example.status is None and "curl" in example.command:
            problems.append("no '# -> <status>' line after the example")
        failures.extend(f"{example.label}\n    {problem}" for problem in problems)
    assert not failures, "\n".join(failures)
