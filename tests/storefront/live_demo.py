"""The demo store served as `make run` serves it, for tests that call it from outside the
process (a page on another origin in chromium, the TypeScript client's smoke script).

The environment is the Makefile's own (`make -s env`: RUN_ENV, no setting changed) plus a
temporary DATA_DIR and secret key; the store is a fresh SQLite database, migrated and loaded
with `manage.py seed_demo`; a real gunicorn (config/gunicorn.conf.py) serves it on a free port
of 127.0.0.1. The `demo_server` fixture (tests/conftest.py) starts it once per session.
"""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .live_gunicorn import ROOT, serve

MAKE = shutil.which("make")
# Variables of the test process that `make run` would not have.
NOT_INHERITED = {"DJANGO_DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
# What `make env` prints: unset here, so that the Makefile's defaults apply.
MAKEFILE_VARIABLES = {
    "HTTPS",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "CORS_ALLOWED_ORIGINS",
    "PUBLIC_BASE_URL",
}


@dataclass
class DemoServer:
    port: int
    env: dict[str, str]
    process: subprocess.Popen

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def make_run_env() -> dict[str, str]:
    """The variables `make run` sets (printed by `make -s env`), as they are by default."""
    assert MAKE is not None
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in NOT_INHERITED and key not in MAKEFILE_VARIABLES
    }
    printed = subprocess.run(  # noqa: S603 - fixed command line
        [MAKE, "-s", "env"], cwd=ROOT, env=environment, capture_output=True, text=True, check=True
    ).stdout
    found = {}
    for line in printed.splitlines():
        name, _, value = line.removeprefix("export ").partition("=")
        found[name] = shlex.split(value)[0] if value else ""
    return found


def _manage(env: dict[str, str], *args: str) -> None:
    done = subprocess.run(  # noqa: S603 - fixed command line
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]


def start_demo(folder: Path) -> DemoServer:
    env = {key: value for key, value in os.environ.items() if key not in NOT_INHERITED}
    env.update(make_run_env())
    env.update({"DATA_DIR": str(folder / "data"), "SECRET_KEY": secrets.token_urlsafe(48)})
    _manage(env, "migrate", "--noinput", "-v0")
    _manage(env, "seed_demo")
    process, port = serve(folder, env)
    return DemoServer(port, env, process)
