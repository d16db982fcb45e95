"""The TypeScript client (clients/typescript) against the demo store (issue 33): its committed
types equal those openapi-typescript generates from the live /api/schema/, which
`@redocly/cli lint` (recommended rules) passes with no error, the client compiles with
`tsc --strict`, and its smoke script passes every contract operation against the demo store
served under `make run`'s environment (the `demo_server` fixture, tests/storefront/live_demo.py).

One test, in steps, marked `node`: it needs node and npm (skipped, naming them, without), and
CI runs it once (the SQLite pass of .ci/run): the demo server has its own database anyway.
npm's cache is clients/typescript/.npm-cache (git-ignored), so later runs install offline.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "typescript"
NODE, NPM = shutil.which("node"), shutil.which("npm")
MISSING = (
    "the node program (Node.js 20 or later) is not installed"
    if NODE is None
    else "the npm program is not installed"
    if NPM is None
    else None
)

pytestmark = [pytest.mark.node, pytest.mark.skipif(MISSING is not None, reason=str(MISSING))]


def npm(*args: str, timeout: int = 300) -> str:
    assert NPM is not None
    done = subprocess.run(  # noqa: S603 - fixed command line
        [NPM, *args],
        cwd=CLIENT,
        # redocly: no usage report and no update check from a test run
        env={**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    output = done.stdout[-3000:] + done.stderr[-3000:]
    assert done.returncode == 0, f"npm {' '.join(args)}:\n{output}"
    return done.stdout


def test_the_client_is_generated_from_the_schema_compiles_and_calls_every_operation(
    demo_server, tmp_path
):
    # given the pinned tools (package-lock.json)
    npm("ci", "--cache", str(CLIENT / ".npm-cache"), "--prefer-offline", "--no-audit", "--no-fund")
    # when the types are generated again from the schema the demo serves
    fresh = tmp_path / "schema.d.ts"
    npm("exec", "--", "openapi-typescript", f"{demo_server.url}/api/schema/", "-o", str(fresh))
    # then they are the committed ones (regenerate: clients/typescript/README.md)
    committed = (CLIENT / "src" / "schema.d.ts").read_text(encoding="utf-8")
    assert fresh.read_text(encoding="utf-8") == committed, (
        "clients/typescript/src/schema.d.ts differs from the schema: run `npm run generate` there"
    )
    # and redocly's recommended rules find no error in that schema
    npm("exec", "--", "redocly", "lint", "--format=summary", f"{demo_server.url}/api/schema/")
    # and the client, its smoke script and the contract's calls (checks/) compile with tsc
    # --strict (tsconfig.json; one compile that also writes dist/ for the smoke script)
    npm("run", "build")
    # and the smoke script passes every one of the thirteen operations against the demo
    output = npm("run", "smoke:built", "--", "--base", demo_server.url, timeout=180)
    assert "13 of 13 passed" in output, output
    assert "FAIL" not in output, output
