"""The starter storefront's committed bundle is its sources' (issue 33): clients/storefront is
type-checked (`tsc --strict`, with the typed client of clients/typescript it is built on) and
bundled again by its pinned esbuild into a temporary folder, which must hold exactly the files
committed in storefront/static/storefront/starter/, byte for byte.

Marked `node`: it needs node and npm (skipped, naming them, without). npm's cache is
clients/storefront/.npm-cache (git-ignored), so later runs install offline.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "clients" / "storefront"
COMMITTED = ROOT / "storefront" / "static" / "storefront" / "starter"
NODE, NPM = shutil.which("node"), shutil.which("npm")
MISSING = (
    "the node program (Node.js 20 or later) is not installed"
    if NODE is None
    else "the npm program is not installed"
    if NPM is None
    else None
)

pytestmark = [pytest.mark.node, pytest.mark.skipif(MISSING is not None, reason=str(MISSING))]


def run(*command: str) -> str:
    done = subprocess.run(  # noqa: S603 - fixed command line
        command,
        cwd=SOURCES,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = done.stdout[-3000:] + done.stderr[-3000:]
    assert done.returncode == 0, f"{' '.join(command)}:\n{output}"
    return done.stdout


def files(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_the_committed_bundle_is_built_from_the_sources(tmp_path):
    assert NPM is not None and NODE is not None
    # given the pinned tools (package-lock.json)
    run(NPM, "ci", "--cache", str(SOURCES / ".npm-cache"), "--prefer-offline", "--no-audit",
        "--no-fund")  # fmt: skip
    # the sources and the client they use type-check under tsc --strict
    run(NPM, "run", "typecheck")
    # when they are bundled again
    run(NODE, "build.mjs", "--outdir", str(tmp_path))
    # then the committed folder holds exactly that output (rebuild: clients/storefront/README.md)
    fresh, committed = files(tmp_path), files(COMMITTED)
    assert sorted(fresh) == sorted(committed) == ["storefront.css", "storefront.js"]
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, (
        f"storefront/static/storefront/starter/{', '.join(stale)} differ from clients/storefront's "
        "sources: run `npm run build` in clients/storefront and commit the output"
    )
