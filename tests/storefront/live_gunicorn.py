"""A real gunicorn (config/gunicorn.conf.py, config.wsgi) on a free port of 127.0.0.1.

`gunicorn_server(**env)` starts one with the service's settings plus `env` (SQLite in the
test's temporary folder, no tables: use URLs that need no database) and stops it after the
test. `http_request` sends what urllib cannot (chunked bodies, any method).
"""

import http.client
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "config" / "gunicorn.conf.py"


def free_port() -> int:
    for port in range(8880, 8890):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.fail("No free port in 8880-8889 on 127.0.0.1.")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def get(url: str, headers: dict[str, str]) -> int:
    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 - 127.0.0.1 only
    try:
        with opener.open(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def http_request(
    port: int, method: str, path: str, headers: dict | None = None, chunks: list | None = None
) -> tuple[int, dict, bytes]:
    """One request; `chunks` are sent with Transfer-Encoding: chunked (no Content-Length).
    The status, headers (lower-case names) and body of the answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(
            method, path, body=chunks, headers=headers or {}, encode_chunked=chunks is not None
        )
        response = connection.getresponse()
        answer = {name.lower(): value for name, value in response.getheaders()}
        return response.status, answer, response.read()
    finally:
        connection.close()


def serve(
    tmp_path, env_overrides: dict[str, str], log=None, port: int | None = None
) -> tuple[subprocess.Popen, int]:
    """gunicorn on `port` (by default a free one) with `env_overrides`; its error log (the
    application's log lines) to the file `log` when given."""
    port = port or free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_DEBUG", "DATABASE_URL", "REDIS_URL", "FORWARDED_ALLOW_IPS"}
    }
    env.update(
        {
            "HTTPS": "0",
            "SECRET_KEY": "k" * 60,
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATA_DIR": str(tmp_path / "data"),
            "GUNICORN_BIND": f"127.0.0.1:{port}",
            "GUNICORN_WORKERS": "1",
            "GUNICORN_ACCESSLOG": "/dev/null",
            **env_overrides,
        }
    )
    process = subprocess.Popen(  # noqa: S603 - fixed command line
        [sys.executable, "-m", "gunicorn", "-c", str(CONF), "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL if log is None else open(log, "ab"),  # noqa: SIM115
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    pytest.fail("gunicorn did not start")


@pytest.fixture
def gunicorn_server(tmp_path):
    """`start(**env)` -> port of a running gunicorn; every one is stopped after the test."""
    started = []

    def start(**env: str) -> int:
        process, port = serve(tmp_path, env)
        started.append(process)
        return port

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=10)
