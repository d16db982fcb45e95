"""A real replica (issue 23 item 3): a PostgreSQL primary and a streaming standby
(`initdb`, `pg_basebackup -R`) on free ports, two gunicorn instances sharing Redis with
DATABASE_URL = the primary and DATABASE_REPLICA_URLS = the standby.

Which server ran a read is told by pg_stat_statements, which counts each server's own
statements (a standby's counts are its own, not replicated): the tests count the queries
on the postal-code table. The tests run in file order on one pair of servers; the last
one stops the standby.
"""

import glob
import json
import os
import pwd
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .live_gunicorn import ROOT, serve

pytestmark = pytest.mark.replica

PROGRAMS = ("initdb", "pg_basebackup", "pg_ctl", "postgres")
REDIS_DB = 11
ZIP_PATH = "/shipping/zipcode/consult/BRA/01310-100"
GRACE_SECONDS = 1
CODES = 20  # postal codes read once each: every read of one is a read of the database
TABLE_QUERIES = (
    "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query LIKE %s"
    " AND query NOT LIKE %s"
)


def _server_programs() -> Path | None:
    """The newest /usr/lib/postgresql/*/bin holding every program (else PATH's)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda folder: [int(part) for part in re.findall(r"\d+", folder)],
    )
    for folder in reversed(found):
        if all(os.access(f"{folder}/{name}", os.X_OK) for name in PROGRAMS):
            return Path(folder)
    on_path = [shutil.which(name) for name in PROGRAMS]
    if all(on_path):
        return Path(on_path[0]).parent  # type: ignore[arg-type]
    return None


def _redis():
    import redis

    client = redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB, socket_connect_timeout=1)
    try:
        client.ping()
    except Exception:
        pytest.skip("No Redis server answers on 127.0.0.1:6379 (redis-server).")
    return client


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A primary and its standby in a folder of their own; as root, run as `postgres`
    (initdb refuses root)."""

    def __init__(self, programs: Path) -> None:
        self.programs = programs
        # In memory where there is a tmpfs: a disk's I/O, shared with other work, is most of
        # the time of migrating and removing two clusters.
        shm = "/dev/shm"  # noqa: S108 - mkdtemp makes a folder of our own there
        memory = shm if os.access(shm, os.W_OK) else None
        self.folder = Path(tempfile.mkdtemp(prefix="replica-", dir=memory))
        self.user = pwd.getpwuid(os.getuid()).pw_name
        self.prefix: list[str] = []
        if os.getuid() == 0:
            self.user = "postgres"
            self.prefix = ["runuser", "-u", "postgres", "--"]
            entry = pwd.getpwnam("postgres")
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self.ports = {"primary": _free_port(), "standby": _free_port()}

    def run(self, program: str, *args: str) -> None:
        done = subprocess.run(  # noqa: S603 - fixed programs, our arguments
            [*self.prefix, str(self.programs / program), *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, f"{program}: {done.stdout[-1000:]}{done.stderr[-2000:]}"

    def data(self, name: str) -> str:
        return str(self.folder / name)

    def pg_ctl(self, name: str, action: str) -> None:
        self.run("pg_ctl", "-D", self.data(name), "-l", f"{self.data(name)}.log", "-w",
                 "-m", "fast", action)  # fmt: skip

    def start(self) -> None:
        self.run("initdb", "-D", self.data("primary"), "-A", "trust", "-U", self.user,
                 "-E", "UTF8", "--no-sync")  # fmt: skip
        with open(self.data("primary") + "/postgresql.conf", "a") as conf:
            conf.write(
                f"port = {self.ports['primary']}\n"
                "listen_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.folder}'\n"
                "wal_level = replica\n"
                "shared_preload_libraries = 'pg_stat_statements'\n"
                "pg_stat_statements.track_utility = off\n"
                "fsync = off\nfull_page_writes = off\n"
            )
        self.pg_ctl("primary", "start")
        self.sql("primary", "CREATE DATABASE store", database="postgres")
        self.sql("primary", "CREATE EXTENSION pg_stat_statements")
        self.run("pg_basebackup", "-h", "127.0.0.1", "-p", str(self.ports["primary"]),
                 "-U", self.user, "-D", self.data("standby"), "-R", "-X", "stream", "-c", "fast",
                 "--no-sync")  # fmt: skip
        with open(self.data("standby") + "/postgresql.conf", "a") as conf:
            conf.write(f"port = {self.ports['standby']}\n")
        self.pg_ctl("standby", "start")
        assert self.sql("standby", "SELECT pg_is_in_recovery()") is True

    def stop(self) -> None:
        for name in ("standby", "primary"):
            if Path(self.data(name), "postmaster.pid").exists():
                self.run("pg_ctl", "-D", self.data(name), "-w", "-m", "fast", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, name: str) -> str:
        return f"postgres://{self.user}@127.0.0.1:{self.ports[name]}/store"

    def sql(self, name: str, query: str, *params: str, database: str = "store"):
        import psycopg

        dsn = f"host=127.0.0.1 port={self.ports[name]} user={self.user} dbname={database}"
        with psycopg.connect(dsn, autocommit=True) as db:
            cursor = db.execute(query, params or None)
            row = cursor.fetchone() if cursor.description else None
            return None if row is None else row[0]

    def table_queries(self, name: str) -> int:
        """Statements this server ran on the postal-code table."""
        return int(self.sql(name, TABLE_QUERIES, "%shipping_postalcode%", "%pg_stat%"))

    def reset_counts(self, *names: str) -> None:
        for name in names or ("primary", "standby"):
            self.sql(name, "SELECT pg_stat_statements_reset()")

    def wait_caught_up(self) -> None:
        target = self.sql("primary", "SELECT pg_current_wal_insert_lsn()::text")
        for _ in range(200):
            if self.sql("standby", "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", target):
                return
            time.sleep(0.05)
        pytest.fail("The standby did not catch up")


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(  # noqa: S603 - fixed command line
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _set_public_place(env: dict[str, str], text: str) -> None:
    """An ORM write of every postal code in a process of its own (a command, an import)."""
    _manage(
        env,
        "shell",
        "-c",
        "from infra.caching.versions import cache_namespace_bump\n"
        "from shipping.models import PostalCode\n"
        "from shipping.selectors import POSTAL_CODES_CACHE\n"
        f"PostalCode.objects.update(public_place={text!r})\n"
        "cache_namespace_bump(POSTAL_CODES_CACHE)",
    )


SETUP = """
from django.core.management import call_command
call_command("migrate", interactive=False, verbosity=0, skip_checks=True)
from django.contrib.auth import get_user_model
from tests.shipping.factories import PostalCodeFactory
PostalCodeFactory()
for number in range({codes}):
    PostalCodeFactory(code="0200" + str(number).zfill(4))
get_user_model().objects.create_superuser("boss", "boss@example.com", {password!r})
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """(cluster, ports of the two instances, their environment)."""
    programs = _server_programs()
    if programs is None:
        pytest.skip(
            "PostgreSQL server programs (initdb, pg_basebackup, pg_ctl, postgres) not found "
            "under /usr/lib/postgresql/*/bin nor on PATH."
        )
    redis = _redis()
    redis.flushdb()
    cluster = Cluster(programs)
    instances = []
    try:
        cluster.start()
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DJANGO_DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
        }
        env.update(
            {
                "HTTPS": "0",
                "SECRET_KEY": secrets.token_urlsafe(48),
                "ALLOWED_HOSTS": "127.0.0.1",
                "DATA_DIR": str(tmp_path_factory.mktemp("replica-data")),
                "DATABASE_URL": cluster.url("primary"),
                "DATABASE_REPLICA_URLS": cluster.url("standby"),
                "DATABASE_REPLICA_GRACE_SECONDS": str(GRACE_SECONDS),
                "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
                "GUNICORN_GRACEFUL_TIMEOUT": "2",
            }
        )
        password = secrets.token_urlsafe(16)
        _manage(env, "shell", "-c", SETUP.format(codes=CODES, password=password))
        env["ADMIN_TEST_PASSWORD"] = password
        for _ in range(2):
            instances.append(serve(tmp_path_factory.mktemp("gunicorn"), env))
        yield cluster, [port for _, port in instances], env
    finally:
        for process, _ in instances:
            process.terminate()
        for process, _ in instances:
            try:
                process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        cluster.stop()
        redis.flushdb()


def _get(port: int, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, {}


_unread = iter(range(CODES))


def _places(ports: list[int]) -> set[str]:
    """The public place each instance answers, for the shared postal code (its answer cached
    since the last change) and for one no process read yet (a read of the database);
    never a 5xx."""
    found = set()
    for port in ports:
        code = f"0200{next(_unread):04d}"
        for path in (ZIP_PATH, f"/shipping/zipcode/consult/BRA/{code[:5]}-{code[5:]}"):
            status, answer = _get(port, path)
            assert status == 200, (port, path, status)
            found.add(answer["data"]["publicPlace"])
    return found


def _settled(cluster: Cluster) -> None:
    """The standby has every change and the grace period is over."""
    cluster.wait_caught_up()
    time.sleep(GRACE_SECONDS + 0.2)


def test_public_reads_are_served_by_the_standby(store):
    cluster, ports, _ = store
    _settled(cluster)
    cluster.reset_counts()
    assert _places(ports) == {"Avenida Paulista"}
    assert cluster.table_queries("standby") >= 2  # a new code in each instance
    assert cluster.table_queries("primary") == 0


def test_after_a_change_every_instance_reads_the_primary_until_the_standby_has_it(store):
    cluster, ports, env = store
    _settled(cluster)
    cluster.sql("standby", "SELECT pg_wal_replay_pause()")
    try:
        _places(ports)  # the shared URL's answer cached before the change
        cluster.reset_counts()
        _set_public_place(env, "Rua Nova")
        # Right after the change (the grace period), in both instances.
        assert _places(ports) == {"Rua Nova"}
        assert cluster.table_queries("standby") == 0
        assert cluster.table_queries("primary") >= 3  # the shared code's, two new ones
        # The standby has not replayed it: the lag is real.
        old = "SELECT public_place FROM shipping_postalcode WHERE code = '01310100'"
        assert cluster.sql("standby", old) == "Avenida Paulista"
        # The grace is over, replay still paused: still the primary, for the answers cached
        # meanwhile (the shared code's) and the ones built now.
        cluster.reset_counts()
        time.sleep(GRACE_SECONDS + 0.2)
        assert _places(ports) == {"Rua Nova"}
        assert cluster.table_queries("standby") == 0
        assert cluster.table_queries("primary") >= 2
        # The admin reads the primary too.
        assert "Rua Nova" in _admin_postal_codes(ports[1], env)
        assert cluster.table_queries("standby") == 0
    finally:
        cluster.sql("standby", "SELECT pg_wal_replay_resume()")
    # Replayed (and a second passed: each instance asks a lagging standby again once a
    # second): public reads go back to the standby, and nothing went back in time.
    _settled(cluster)
    cluster.reset_counts()
    assert _places(ports) == {"Rua Nova"}
    assert cluster.table_queries("standby") >= 2
    assert cluster.table_queries("primary") == 0


def _admin_postal_codes(port: int, env: dict[str, str]) -> str:
    """The postal codes' admin list, signed in as a superuser made for the test."""
    import http.cookiejar
    from urllib.parse import urlencode

    password = env["ADMIN_TEST_PASSWORD"]
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    base = f"http://127.0.0.1:{port}/admin/"
    page = opener.open(base + "login/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    form = urlencode(
        {"csrfmiddlewaretoken": token.group(1), "username": "boss", "password": password}
    )
    request = urllib.request.Request(  # noqa: S310 - 127.0.0.1 only
        base + "login/?next=/admin/", data=form.encode(), headers={"Referer": base}
    )
    opener.open(request, timeout=10)
    return opener.open(base + "shipping/postalcode/", timeout=10).read().decode()


def test_with_the_standby_stopped_reads_fall_back_to_the_primary(store):
    cluster, ports, _ = store
    _settled(cluster)
    cluster.pg_ctl("standby", "stop")
    cluster.reset_counts("primary")
    for _ in range(3):
        assert _places(ports) == {"Rua Nova"}
    assert cluster.table_queries("primary") >= 6
