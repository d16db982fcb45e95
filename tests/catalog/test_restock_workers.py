"""Back-in-stock waves run by two real `manage.py jobs_worker` processes sharing one
database (SQLite here; PostgreSQL when DATABASE_URL names a server): 100 interests, 10 units
back, factor 3: 30 e-mails in the first wave, queued within 60 s, none twice (Message-IDs
counted in the e-mail files, as the crash drill does); the next 30 only after the wait, and
none when the stock is gone."""

import json
import os
import secrets
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bench.harness import messages_by_id

ROOT = Path(__file__).resolve().parents[2]


def _admin_url(database_url: str, name: str) -> str:
    return urlunsplit(urlsplit(database_url)._replace(path=f"/{name}"))


@pytest.fixture
def shared(tmp_path):
    """The environment of processes sharing a fresh database and an e-mail folder."""
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    skipped = {"DJANGO_DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    env = {key: value for key, value in os.environ.items() if key not in skipped}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.jobs_settings",
            "HTTPS": "0",
            "ERROR_EMAILS": "0",
            "SECRET_KEY": secrets.token_urlsafe(48),
            "DATA_DIR": str(tmp_path / "data"),
            "DRILL_EMAIL_DIR": str(mail_dir),
            "JOBS_LEASE_SECONDS": "30",
            "BACK_IN_STOCK_SCAN_SECONDS": "1",
        }
    )
    database_url = os.environ.get("DATABASE_URL", "")
    name = f"waves_{secrets.token_hex(4)}"
    if database_url.startswith(("postgres://", "postgresql://")):
        import psycopg

        with psycopg.connect(_admin_url(database_url, "postgres"), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        env["DATABASE_URL"] = _admin_url(database_url, name)
    _manage(env, "migrate", "--noinput", "-v0")
    yield env, mail_dir
    if "DATABASE_URL" in env:
        import psycopg

        with psycopg.connect(_admin_url(database_url, "postgres"), autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(  # noqa: S603 - this interpreter, manage.py, fixed arguments
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _step(env: dict[str, str], call: str) -> dict:
    code = f"from tests.catalog.restock_steps import *; {call}"
    return json.loads(_manage(env, "shell", "-c", code).strip().splitlines()[-1])


def _worker(env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "jobs_worker", "--no-reload", "--no-startup-delay",
         "-v", "0", "--interval", "0.2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _settle(env: dict[str, str], emails: int, timeout: float = 120) -> dict:
    """The state once `emails` e-mails are sent and no job is left (or the timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        state = _step(env, "state()")
        done = state["sent"] >= emails and state["unfinished"] == 0
        if done or time.monotonic() > deadline:
            return state
        time.sleep(0.5)


def test_two_workers_send_each_wave_once(shared):
    env, mail_dir = shared
    _step(env, "setup(100)")
    workers = [_worker(env), _worker(env)]
    try:
        restocked = datetime.fromisoformat(_step(env, "restock(10)")["at"])
        first = _settle(env, 30)
        time.sleep(3)  # more scans by both workers: no second wave before the wait
        first = _step(env, "state()")

        assert first["sent"] == first["emails"] == first["notices"] == 30
        assert first["recipients"] == [f"c{n:03}@example.com" for n in range(30)]
        assert (first["restocks"], first["waves"]) == (1, 1)
        queued = datetime.fromisoformat(first["first_wave_queued"])
        assert (queued - restocked).total_seconds() < 60
        ids = messages_by_id(mail_dir)
        assert len(ids) == 30
        assert max(ids.values()) == 1  # none twice

        # the wait is over, stock remains: the next 30 oldest
        _step(env, "wait_over()")
        second = _settle(env, 60)
        assert second["sent"] == second["notices"] == 60
        assert second["recipients"] == [f"c{n:03}@example.com" for n in range(60)]

        # the stock is gone when the next wave is due: nothing more
        _step(env, "restock(0)")
        _step(env, "wait_over()")
        time.sleep(3)
        third = _step(env, "state()")
        assert third["sent"] == 60
        assert third["waves"] == 3
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
    ids = messages_by_id(mail_dir)
    assert sum(ids.values()) == len(ids) == 60
