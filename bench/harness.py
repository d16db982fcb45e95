"""What the bench scripts share: the child processes they start (manage.py commands, gunicorn,
job workers) and how they stop them, a Django child's environment, the drills' throwaway
PostgreSQL databases, an HTTP server recording the POSTs it answers, and the results."""

import contextlib
import http.client
import json
import os
import platform
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HOST = "127.0.0.1"
PG = {"host": HOST, "port": 5432, "user": "postgres"}
MESSAGE_ID = re.compile(rb"^Message-ID: (<[^>]+>)", re.MULTILINE)


# --- child processes ---------------------------------------------------------------------


def django_env(data_dir: Path, values: dict[str, str], *, drop=()) -> dict[str, str]:
    """This process's environment for a Django child, without DJANGO_DEBUG (DEBUG off: no
    query log in memory) and the variables in `drop`, with a fresh SECRET_KEY, DATA_DIR and
    `values`."""
    env = {name: value for name, value in os.environ.items() if name not in {"DJANGO_DEBUG", *drop}}
    return {**env, "SECRET_KEY": secrets.token_urlsafe(48), "DATA_DIR": str(data_dir), **values}


def jobs_django(data_dir: Path, values: dict[str, str], *, drop=()) -> tuple[dict[str, str], str]:
    """Django set up in this process with bench/jobs_settings.py (no Redis) and `values`, its
    database migrated (a PostgreSQL one flushed): the environment for the children, and the
    database's vendor."""
    settings = {"DJANGO_SETTINGS_MODULE": "bench.jobs_settings", "HTTPS": "0", "ERROR_EMAILS": "0"}
    env = django_env(data_dir, {**settings, **values}, drop={"REDIS_URL", *drop})
    os.environ.clear()
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    if connection.vendor == "postgresql":
        call_command("flush", "--no-input", verbosity=0)
    return env, connection.vendor


def manage(env: dict, *args: str, capture: bool = False) -> subprocess.CompletedProcess:
    """`manage.py <args>` in a child process, bounded to 10 minutes (its output captured, as
    text, when `capture`)."""
    return subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=capture,
        text=True,
        timeout=600,
    )


def django_json(env: dict, code: str):
    """Run `code` in `manage.py shell`, bounded to 15 minutes: its last output line, as JSON."""
    done = subprocess.run(
        [PYTHON, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode:
        raise SystemExit(f"a Django step failed:\n{done.stderr[-3000:]}")
    return last_json(done.stdout)


def last_json(output: str):
    """The last line of a child's `output`, where the bench's commands print their result."""
    return json.loads(output.strip().splitlines()[-1])


def gunicorn(env: dict, stdout) -> subprocess.Popen:
    """gunicorn with the production configuration, as `make serve` runs it, writing to
    `stdout`, in a process group of its own (stop it with `stop_process(..., group=True)`)."""
    return subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=stdout,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def jobs_worker(env: dict, *options: str, stdout=subprocess.DEVNULL) -> subprocess.Popen:
    """`manage.py jobs_worker` with `options` (no autoreload, no start-up delay, quiet)."""
    return subprocess.Popen(
        [
            PYTHON,
            "manage.py",
            "jobs_worker",
            "--no-reload",
            "--no-startup-delay",
            "-v",
            "0",
            *options,
        ],
        cwd=ROOT,
        env=env,
        stdout=stdout,
        stderr=subprocess.STDOUT,
    )


def wait_until(ready, process: subprocess.Popen, timeout: float, *, pause: float) -> bool:
    """Ask `ready()` every `pause` seconds until it says yes (True), or `process` has exited
    or `timeout` seconds have passed (False)."""
    deadline = time.monotonic() + timeout
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(pause)
    return True


def _send(process: subprocess.Popen, signum: int, group: bool) -> None:
    if group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)


def wait_or_kill(process: subprocess.Popen, timeout: float, *, group: bool = False) -> None:
    """Wait up to `timeout` seconds for `process` to exit, then SIGKILL it (its process group
    when `group`)."""
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _send(process, signal.SIGKILL, group)
        process.wait(timeout=10)


def stop_process(
    process, *, timeout: float, signum: int = signal.SIGTERM, group: bool = False
) -> None:
    """`signum` to `process` (None, or one that has exited: nothing to do), to its process
    group when `group`, then `wait_or_kill`."""
    if process is None or process.poll() is not None:
        return
    _send(process, signum, group)
    wait_or_kill(process, timeout, group=group)


def stop_processes(processes: list[subprocess.Popen], *, timeout: float) -> None:
    """SIGTERM to every running process first (they stop together), then `wait_or_kill`."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        wait_or_kill(process, timeout)


# --- ports and HTTP ----------------------------------------------------------------------


def port_is_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
        return True


def free_port(candidates) -> int:
    for port in candidates:
        if port_is_free(port):
            return port
    raise SystemExit(f"no free port among {list(candidates)}")


def wait_for_port(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=0.5):
            return
        time.sleep(0.1)
    raise SystemExit(f"nothing answered on {HOST}:{port} within {timeout:.0f} s")


def status_of(port: int, path: str = "/health") -> int:
    """The status of `GET path` on the local `port` (0: no answer within 2 s)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=2)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    except OSError:
        return 0
    finally:
        connection.close()


class Recorder:
    """An HTTP server on a free local port (in a thread, from `start()` or `with` to `stop()`)
    recording every POST in `calls` (time, path, headers, JSON body), answered by `answer()`
    after `delay` seconds."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.calls: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                call = {"at": time.time(), "path": self.path, "headers": dict(self.headers)}
                with recorder._lock:
                    recorder.calls.append({**call, "body": json.loads(body or b"null")})
                if recorder.delay:
                    time.sleep(recorder.delay)
                recorder.answer(self)

            def send(self, status: int, body: bytes = b"") -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up (a quote's deadline)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer((HOST, 0), Handler)
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.port = self.server.server_address[1]
        self.url = f"http://{HOST}:{self.port}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def answer(self, handler) -> None:
        handler.send(200)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --- the drills' PostgreSQL databases (on 127.0.0.1:5432, user postgres) -----------------


def admin_connection():
    import psycopg

    return psycopg.connect(dbname="postgres", autocommit=True, connect_timeout=5, **PG)


def database_drop(name: str) -> None:
    """Drop `name` if it exists (its connections allowed again first: a drill may cut them)."""
    with admin_connection() as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def database_create(name: str) -> None:
    """`name` created empty (dropped first when it exists)."""
    database_drop(name)
    with admin_connection() as conn:
        conn.execute(f"CREATE DATABASE {name}")


def query(database: str, sql: str, params=()) -> list:
    """The rows of `sql` on `database`, in a connection of its own."""
    import psycopg

    with psycopg.connect(dbname=database, connect_timeout=5, **PG) as conn:
        return conn.execute(sql, params).fetchall()


# --- results -----------------------------------------------------------------------------


def messages_by_id(folder: Path) -> Counter[bytes]:
    """How many times each Message-ID was written into `folder` (Django's file e-mail
    backend: one file per message)."""
    ids: Counter[bytes] = Counter()
    for path in folder.iterdir():
        ids.update(MESSAGE_ID.findall(path.read_bytes()))
    return ids


def utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def commit() -> str:
    """The checkout's short commit id."""
    return subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()


def python_and_cores() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores"


def write_result(path: Path | str, result: dict) -> None:
    """`result` as indented JSON into `path`, and printed."""
    text = json.dumps(result, indent=2, default=str)
    Path(path).write_text(text + "\n")
    print(text)
