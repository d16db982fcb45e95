"""Read the curl examples of a Markdown document and replay them through the Django test client.

An example is a `curl` command in a fenced ```sh block (continuation lines joined), or an
assignment that captures one (`TOKEN=$(curl ... | python3 -c '...["data"]["token"]')`,
`ETAG=$(curl ... -D - ... | sed ...)`). The comment right after it says what it answers:

    # -> 200 {"status": true, "data": {"token": "...", "tokenType": "Bearer"}}

a status, optionally followed by JSON (it may go on over the next comment lines indented by
at least two spaces) that the answer must contain: objects by their keys, arrays element by
element from the first, and the string "..." for "any value, but present".
"""

from __future__ import annotations

import json
import re
import shlex
import uuid
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

FENCE = re.compile(r"^```(\w*)\s*$")
EXPECT = re.compile(r"^#\s*->\s*(\d{3})\b\s*(.*)$")
ASSIGN = re.compile(r"^([A-Z_][A-Z0-9_]*)=\$\((.*)\)$", re.S)
JSON_PATH = re.compile(r"json\.load\(sys\.stdin\)((?:\[\"[^\"]+\"\])+)")
ANY = "..."
# What curl would read as a glob: brackets and braces in the URL, unless -g / --globoff.
GLOB_CHARS = re.compile(r"[\[\]{}]")


@dataclass
class Example:
    line: int  # 1-based line of the command in the document
    command: str  # continuation lines joined
    status: int | None = None
    expected: object = None
    problems: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"docs/api.md line {self.line}: {self.command[:110]}"


def _join_continuations(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    joined: list[tuple[int, str]] = []
    buffer, start = "", 0
    for number, text in lines:
        if not buffer:
            start = number
        if text.rstrip().endswith("\\"):
            buffer += text.rstrip()[:-1] + " "
            continue
        if not text.lstrip().startswith("#") and _open_quote(buffer + text):
            buffer += text + "\n"  # a quoted string goes on over the next line, as in a shell
            continue
        joined.append((start, buffer + text))
        buffer = ""
    if buffer:
        joined.append((start, buffer))
    return joined


def _open_quote(command: str) -> bool:
    try:
        shlex.split(command)
    except ValueError:
        return True
    return False


def extract(markdown: str) -> list[Example]:
    """Every curl example of the document's sh blocks, with the expectation after it."""
    examples: list[Example] = []
    in_block, language, block = False, "", []
    for number, text in enumerate(markdown.splitlines(), start=1):
        fence = FENCE.match(text.strip())
        if fence and not in_block:
            in_block, language, block = True, fence.group(1), []
            continue
        if fence and in_block:
            in_block = False
            if language in ("sh", "bash", "shell"):
                examples.extend(_examples_of_block(block))
            continue
        if in_block:
            block.append((number, text))
    return examples


def _examples_of_block(block: list[tuple[int, str]]) -> list[Example]:
    examples: list[Example] = []
    current: Example | None = None
    expectation: list[str] | None = None
    for number, text in _join_continuations(block):
        stripped = text.strip()
        if stripped.startswith("#"):
            if current is None:
                continue
            match = EXPECT.match(stripped)
            if match and expectation is None and current.status is None:
                current.status = int(match.group(1))
                expectation = [match.group(2)]
            elif expectation is not None and re.match(r"^#\s{2,}", stripped):
                expectation.append(stripped[1:])
            else:
                _close(current, expectation)
                current, expectation = None, None
            continue
        _close(current, expectation)
        current, expectation = None, None
        if re.search(r"(^|\$\()curl\s", stripped) or ASSIGN.match(stripped):
            current = Example(line=number, command=stripped)
            examples.append(current)
    _close(current, expectation)
    return examples


def _close(example: Example | None, expectation: list[str] | None) -> None:
    if example is None or expectation is None:
        return
    text = " ".join(part.strip() for part in expectation).strip()
    if text:
        try:
            example.expected = json.loads(text)
        except json.JSONDecodeError as exc:
            example.problems.append(f"the expected JSON does not parse: {exc}: {text}")


# --- the request a curl command makes ----------------------------------------------------------


@dataclass
class Request:
    method: str
    host: str
    path: str  # with the query string
    headers: dict[str, str]
    body: str | None
    want_headers: bool  # -i / -I / -D -: the answer's headers are read


def parse_curl(argv: list[str]) -> Request:
    assert argv[0] == "curl", argv
    method, url, body, globoff, get_query = None, None, None, False, False
    headers: dict[str, str] = {}
    query_parts: list[str] = []
    want_headers = False
    data: list[str] = []
    index = 1
    while index < len(argv):
        arg = argv[index]
        value = argv[index + 1] if index + 1 < len(argv) else None
        if arg in ("-s", "--silent", "-S", "-f", "--fail", "-L"):
            pass
        elif arg in ("-i", "--include", "-I", "--head"):
            want_headers = True
            if arg in ("-I", "--head"):
                method = "HEAD"
        elif arg in ("-g", "--globoff"):
            globoff = True
        elif arg in ("-G", "--get"):
            get_query = True
        elif arg in ("-X", "--request"):
            method = value
            index += 1
        elif arg in ("-H", "--header"):
            assert value is not None
            name, _, header_value = value.partition(":")
            headers[name.strip()] = header_value.strip()
            index += 1
        elif arg in ("-d", "--data", "--data-raw"):
            assert value is not None
            data.append(value)
            index += 1
        elif arg == "--data-urlencode":
            assert value is not None
            name, sep, raw = value.partition("=")
            query_parts.append(f"{name}={quote(raw, safe='')}" if sep else quote(name, safe=""))
            index += 1
        elif arg in ("-o", "--output"):
            index += 1
        elif arg in ("-D", "--dump-header"):
            want_headers = True
            index += 1
        elif arg.startswith("-"):
            raise ValueError(f"curl option {arg} is not understood by the docs test")
        else:
            url = arg
        index += 1
    if url is None:
        raise ValueError("no URL")
    if GLOB_CHARS.search(url) and not globoff:
        raise ValueError(
            "the URL holds [ ] { or } and curl would read them as a glob: add -g, or encode them"
        )
    parts = urlsplit(url)
    path = parts.path or "/"
    query = parts.query
    if get_query:
        query = "&".join(q for q in [query, *query_parts, *data] if q)
    elif query_parts:
        data.append("&".join(query_parts))
    if query:
        path = f"{path}?{query}"
    if not get_query and data:
        body = "&".join(data)
    if method is None:
        method = "POST" if body is not None else "GET"
    return Request(method, parts.netloc, path, headers, body, want_headers)


def substitute(command: str, variables: dict[str, str]) -> str:
    for name, value in variables.items():
        command = command.replace(f"${name}", value).replace(f"${{{name}}}", value)
    return command


def split_pipeline(command: str) -> list[list[str]]:
    """The commands of a pipeline (`a | b`), each as argv."""
    stages: list[list[str]] = [[]]
    for token in shlex.split(command):
        if token == "|":
            stages.append([])
        else:
            stages[-1].append(token)
    return stages


# --- comparing an answer with what the doc shows ------------------------------------------------


def mismatches(expected: object, actual: object, where: str = "") -> list[str]:
    """How `actual` fails to contain `expected` (empty when it does)."""
    if expected == ANY:
        return []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where or 'answer'}: expected an object, got {actual!r:.80}"]
        found: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                found.append(f"{where}{'.' if where else ''}{key}: missing")
            else:
                found.extend(mismatches(value, actual[key], f"{where}{'.' if where else ''}{key}"))
        return found
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{where or 'answer'}: expected an array, got {actual!r:.80}"]
        if len(actual) < len(expected):
            return [f"{where}: expected at least {len(expected)} elements, got {len(actual)}"]
        found = []
        for position, value in enumerate(expected):
            found.extend(mismatches(value, actual[position], f"{where}[{position}]"))
        return found
    if isinstance(expected, float) and isinstance(actual, int | float):
        return [] if abs(expected - actual) < 1e-9 else [f"{where}: {actual!r} != {expected!r}"]
    return [] if expected == actual else [f"{where}: {actual!r} != {expected!r}"]


def new_uuid() -> str:
    return str(uuid.uuid4())
