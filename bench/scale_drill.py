"""Scale-out drill (issue 23 item 4): two app instances behind the sample nginx config, two job
workers, PostgreSQL and Redis, under random-key reads and public writes, while (a) one
instance is killed, (b) both are restarted in turn with a new release (a rolling deploy) and
(c) a job worker is killed mid-job.

    .venv/bin/python bench/scale_drill.py [--seconds-per-phase 8] [--output FILE]
    make scale-drill

Setup: the throwaway database `scale_drill_store` on the PostgreSQL server at 127.0.0.1:5432
(user postgres; dropped at the end), Redis at 127.0.0.1:6379 database 13 (flushed before and
after), a small benchmark data set (bench/dataset) and its random-key path lists
(bench/paths), a webhook endpoint subscribed to every event pointing at a receiver this
script runs on a free port (it records each POST by its X-Webhook-Id, answering after
50 ms), e-mails written one file per message (bench/jobs_settings.py, file backend).
Instances: gunicorn with config/gunicorn.conf.py (1 gthread worker x 4 threads each),
RELEASE=drill-1, behind nginx (deploy/nginx.conf rendered with the two instances' ports into
a temporary folder, its TLS server turned into plain HTTP on a free port, run in the
foreground with its own pid and log files; the drill's copy adds an `X-Upstream` header so
each answer names the instance that served it). Workers: `manage.py jobs_worker` x 2,
JOBS_LEASE_SECONDS=2.

Load, through nginx the whole time: 4 connections of GETs over the random paths, and 2 of
public writes (a question on a product, a notify-me interest), each with an Idempotency-Key
and retried with the same key (up to 4 times) after a 502/503/504 or a lost connection, as
docs/api.md tells clients to.

Phases (each `--seconds-per-phase`, after a warm-up):
- (a) instance 1 SIGKILLed (its whole process group), restarted with the same release after
  2 s; nginx retries idempotent requests on the other (proxy_next_upstream).
- (b) rolling deploy to RELEASE=drill-2: per instance, marked `down` in the upstream and
  nginx reloaded (drain), SIGTERM (gunicorn finishes what it is serving), started with the
  new release, /health awaited, put back in the upstream and nginx reloaded; then the other.
- (c) `send_stock_notifications` queues the first back-in-stock wave (the products have units
  for every interest written so far: one e-mail each), and a worker
  is SIGKILLed three times while it runs a job (a job row is running) and started again.
After the load: the notifications once more (for interests written after (c)), then the
queue is awaited until empty.

Checks: failed requests per phase (no answer, or 5xx; a write counts once, after its
retries); every acknowledged (2xx) write is in the database; one e-mail per interest (files
by Message-ID: none missing, none twice); one delivery per event (a delivery row for every
comment and interest, each received; a delivery received again, after its worker was killed
mid-call, is counted and must carry the same X-Webhook-Id); every answer's X-Release is
the release of the instance that served it (by X-Upstream and the instances' lifetimes),
cached hits included (a stored answer carries the release that rendered it).

Writes bench/results/scale_drill.json (and prints it); exit status 1 when a goal is missed. The
temporary folder (instance, worker and nginx logs) is deleted when every goal is met, else kept.
"""

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import (
    HOST,
    PG,
    PYTHON,
    ROOT,
    Recorder,
    commit,
    database_create,
    database_drop,
    django_env,
    django_json,
    free_port,
    gunicorn,
    jobs_worker,
    messages_by_id,
    python_and_cores,
    query,
    status_of,
    stop_process,
    stop_processes,
    utc_now,
    wait_for_port,
    wait_or_kill,
    wait_until,
    write_result,
)

DATABASE = "scale_drill_store"
REDIS_DB = 13
NGINX = "/usr/sbin/nginx"
RETRY_STATUSES = {0, 502, 503, 504}


# --- the services ------------------------------------------------------------------------


def redis_cli(command: str) -> str:
    """`command`'s output on the drill's Redis database."""
    return subprocess.run(
        ["redis-cli", "-h", HOST, "-p", "6379", "-n", str(REDIS_DB), command],
        check=True,
        capture_output=True,
        text=True,
        timeout=30,
    ).stdout


SETUP = """
import json
from django.core.management import call_command
from bench.dataset.build import Size, build
from bench import paths
from catalog.models import Product, Stock
from infra.events import EVENT_TYPES
from webhooks.models import Endpoint
import sys
from pathlib import Path
from io import StringIO

call_command("migrate", verbosity=0)
size = Size(categories=%(categories)d, products=%(products)d, reviews=%(reviews)d,
            top_reviews=40, store_reviews=40, comments=%(comments)d, top_comments=20)
build(size=size, seed=23, stdout=StringIO())
manifest = paths.write(Path(%(paths_dir)r), seed=23, quotes=2000, carts=2000)
Endpoint.objects.create(url=%(hook)r, events=sorted(EVENT_TYPES), description="scale drill")
in_stock = Stock.objects.filter(available__gt=0).values("product_id")
products = list(Product.objects.sellable().filter(pk__in=in_stock).filter(parent=None)
                .order_by("pk").values_list("pk", flat=True)[:5])
# Back-in-stock waves: units x 3 interests a wave; enough units that one wave holds them all.
Stock.objects.filter(product_id__in=products).update(available=100_000)
print(json.dumps({"products": products, "manifest": manifest}))
"""

FINAL = """
import json
from django.core.management import call_command
from io import StringIO
from django_tasks_db.models import DBTaskResult
from catalog.models import ProductInterest
from feedback.models import Comment
from jobs.models import OutboundEmail
from webhooks.models import Delivery
import time
from collections import Counter
from django.utils import timezone
from catalog.models import Restock
# The drill does not wait the staff's hours between waves: the open restocks' next is due.
Restock.objects.filter(ended_at__isnull=True).update(next_wave_at=timezone.now())
call_command("send_stock_notifications", stdout=StringIO())
deadline = time.monotonic() + %(timeout)d
while time.monotonic() < deadline:
    left = DBTaskResult.objects.filter(status__in=["READY", "RUNNING"]).count()
    pending = Delivery.objects.filter(status="pending").count()
    queued = OutboundEmail.objects.filter(status="queued").count()
    if left == 0 and pending == 0 and queued == 0:
        break
    time.sleep(0.5)
print(json.dumps({
    "comments": list(Comment.objects.filter(message__startswith="scale drill ")
                     .values_list("message", flat=True)),
    "interests": list(ProductInterest.objects.filter(email__startswith="drill-")
                      .values_list("email", "pk", "status")),
    "deliveries": [[str(e), t, s, a] for e, t, s, a in Delivery.objects.filter(
        endpoint__description="scale drill").values_list(
        "event_id", "event_type", "status", "attempts")],
    "emails": dict(Counter(OutboundEmail.objects.values_list("status", flat=True))),
    "email_ids": list(OutboundEmail.objects.values_list("message_id", flat=True)),
    "jobs": dict(Counter(DBTaskResult.objects.values_list("status", flat=True))),
    "queue_drained": time.monotonic() < deadline,
}))
"""


def jobs_running() -> int:
    """Jobs a worker has claimed and not finished (django-tasks' database backend)."""
    sql = "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status = 'RUNNING'"
    return int(query(DATABASE, sql)[0][0])


class Instance:
    """One app instance: a gunicorn master and its workers, in their own process group."""

    def __init__(self, name: str, port: int, env: dict, folder: Path) -> None:
        self.name, self.port, self.env, self.folder = name, port, env, folder
        self.process: subprocess.Popen | None = None
        self.release = ""
        self.lives: list[list] = []  # [release, started (monotonic), ended or None]

    def start(self, release: str) -> None:
        env = {**self.env, "RELEASE": release, "GUNICORN_BIND": f"{HOST}:{self.port}"}
        with (self.folder / f"{self.name}.log").open("ab") as log:
            self.process = gunicorn(env, log)
        self.release = release
        self.lives.append([release, time.monotonic(), None])
        if not wait_until(lambda: status_of(self.port) == 200, self.process, 90, pause=0.2):
            raise SystemExit(f"{self.name} did not come up: {self.folder}/{self.name}.log")

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.lives[-1][2] = time.monotonic()

    def terminate(self, timeout: float = 40) -> float:
        """SIGTERM to the master (gunicorn's graceful stop); seconds until it exited."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        wait_or_kill(self.process, timeout, group=True)
        self.lives[-1][2] = time.monotonic()
        return time.monotonic() - started

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.terminate(timeout=20)
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)

    def releases_between(self, start: float, end: float) -> set[str]:
        """Releases of this port's processes alive at some moment of [start, end]."""
        return {
            release
            for release, born, died in self.lives
            if born <= end and (died is None or died >= start)
        }


def render_nginx(sample: str, *, port: int, upstreams: list[tuple[int, bool]], folder: Path):
    """deploy/nginx.conf for this machine: the upstream's servers, a plain-HTTP server on
    `port` instead of the TLS one (same locations and proxy settings), paths in `folder`."""
    servers = "".join(f"    server {HOST}:{p}{'' if up else ' down'};\n" for p, up in upstreams)
    text = re.sub(r"upstream storefront \{.*?\n\}", "upstream storefront {\n" + servers + "}",
                  sample, count=1, flags=re.S)  # fmt: skip
    # Drop the port-80 redirect server; the TLS server listens on `port` in plain HTTP.
    text = re.sub(r"# Plain HTTP:.*?\n\}\n", "", text, count=1, flags=re.S)
    text = re.sub(r"\n\s*listen 443 ssl http2;\n\s*listen \[::\]:443 ssl http2;",
                  f"\n    listen {HOST}:{port};", text)  # fmt: skip
    text = re.sub(r"\n\s*ssl_[a-z_]+ [^\n]*;", "", text)
    text = re.sub(r"\n    location /(static|media)/ \{.*?\n    \}\n", "\n", text, flags=re.S)
    # The drill's addition: which instance answered.
    text = text.replace(
        "        proxy_pass http://storefront;",
        "        proxy_pass http://storefront;\n"
        "        add_header X-Upstream $upstream_addr always;",
    )
    logs = folder / "nginx"
    logs.mkdir(exist_ok=True)
    # Run as root, nginx's workers would drop to "nobody", who cannot use the folder.
    user = "user root;" if os.geteuid() == 0 else ""
    conf = f"""
{user}
worker_processes 1;
daemon off;
pid {logs}/nginx.pid;
error_log {logs}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log {logs}/access.log;
    client_body_temp_path {logs}/body;
    proxy_temp_path {logs}/proxy;
    fastcgi_temp_path {logs}/fastcgi;
    uwsgi_temp_path {logs}/uwsgi;
    scgi_temp_path {logs}/scgi;
{text}
}}
"""
    path = folder / "nginx.conf"
    path.write_text(conf)
    return path


class Nginx:
    def __init__(self, port: int, folder: Path) -> None:
        self.port, self.folder = port, folder
        self.sample = (ROOT / "deploy" / "nginx.conf").read_text()
        self.process: subprocess.Popen | None = None
        self.conf: Path | None = None

    def configure(self, upstreams: list[tuple[int, bool]]) -> None:
        self.conf = render_nginx(
            self.sample, port=self.port, upstreams=upstreams, folder=self.folder
        )

    def start(self, upstreams) -> None:
        self.configure(upstreams)
        subprocess.run([NGINX, "-t", "-q", "-c", str(self.conf)], check=True, timeout=30)
        self.process = subprocess.Popen([NGINX, "-c", str(self.conf)], start_new_session=True)
        wait_for_port(self.port, 10)

    def reload(self, upstreams) -> None:
        """New configuration; old nginx workers finish their requests (graceful)."""
        self.configure(upstreams)
        self.process.send_signal(signal.SIGHUP)
        time.sleep(0.5)  # the new workers take over

    def stop(self) -> None:
        stop_process(self.process, signum=signal.SIGQUIT, timeout=15)


class Workers:
    def __init__(self, env: dict, folder: Path, count: int) -> None:
        self.env, self.folder = env, folder
        self.processes = [self._start(i) for i in range(count)]

    def _start(self, index: int) -> subprocess.Popen:
        with (self.folder / f"worker-{index}.log").open("ab") as log:
            return jobs_worker(self.env, "--interval", "0.2", stdout=log)

    def kill_and_restart(self, index: int) -> None:
        self.processes[index].send_signal(signal.SIGKILL)
        self.processes[index].wait(timeout=30)
        self.processes[index] = self._start(index)

    def stop(self) -> None:
        stop_processes(self.processes, timeout=15)


class Receiver(Recorder):
    """The webhook receiver: answers every POST with a 200 after `delay`."""

    @property
    def received(self) -> Counter[str]:
        """POSTs received by X-Webhook-Id."""
        return Counter(call["headers"].get("X-Webhook-Id", "") for call in self.calls)


# --- the load ----------------------------------------------------------------------------


class Load:
    """Readers and writers through nginx until `stop` is set; every answer is recorded as
    (sent, done, kind, status, X-Release, upstream port, X-Cache)."""

    def __init__(self, port: int, paths: list[str], products: list[int], seed: int) -> None:
        self.port, self.paths, self.products = port, paths, products
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.answers: list[tuple] = []
        self.writes: list[dict] = []  # one per logical write, after its retries
        self.retried: set[int] = set()  # ids of the records of GETs sent again
        self.local = threading.local()
        self.rng = random.Random(seed)
        self.threads: list[threading.Thread] = []
        self.later: list[threading.Thread] = []  # writes waiting for a dead request's claim

    def _connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(HOST, self.port, timeout=40)

    def _request(self, conn, method, path, body=None, headers=None):
        """(connection, status, headers, body, sent, done); status 0 when no answer came."""
        sent = time.monotonic()
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            payload = response.read()
            answer = (response.status, dict(response.getheaders()), payload)
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = self._connection()
            answer = (0, {}, b"")
        done = time.monotonic()
        status, head, _ = answer
        upstream = head.get("X-Upstream", "").split(",")[-1].strip()
        port = int(upstream.rsplit(":", 1)[1]) if ":" in upstream else None
        record = (sent, done, method, status, head.get("X-Release"), port, head.get("X-Cache"))
        with self.lock:
            self.answers.append(record)
        self.local.last = record  # this thread's last answer
        return conn, status, answer[2]

    def reader(self, seed: int) -> None:
        rng, conn = random.Random(seed), self._connection()
        while not self.stop.is_set():
            path = rng.choice(self.paths)
            conn, status, _ = self._request(conn, "GET", path)
            record = self.local.last
            if status == 0:
                # A kept-alive connection closed by nginx (a reload ends its idle ones) as the
                # request went out: browsers and HTTP libraries send a GET again on a new
                # connection. Counted apart (closed_connections_retried).
                with self.lock:
                    self.retried.add(id(record))
                conn, _, _ = self._request(conn, "GET", path)
        conn.close()

    def writer(self, seed: int) -> None:
        rng, conn = random.Random(seed), self._connection()
        while not self.stop.is_set():
            key = str(uuid.uuid4())
            product = rng.choice(self.products)
            if rng.random() < 0.5:
                kind, marker = "comment", f"scale drill {key}"
                path = f"/publics/products/{product}/comments"
                body = {"message": marker, "customerName": "Drill", "customerEmail": "d@x.io"}
            else:
                kind, marker = "interest", f"drill-{key[:18]}@example.com"  # 50 at most
                path = "/publics/products/interests"
                body = {"productId": product, "origin": "notify-me", "name": "Drill",
                        "email": marker}  # fmt: skip
            write = {"kind": kind, "marker": marker, "started": time.monotonic(), "tries": 0}
            data = json.dumps(body).encode()
            headers = {"Content-Type": "application/json", "Idempotency-Key": key}
            conn, status = self.post(conn, write, path, data, headers, retries=5)
            if status == 409:
                # The key is still claimed by a request that died with its instance: retry
                # after Retry-After (1 s), as docs/api.md says, on a thread of its own.
                thread = threading.Thread(target=self.post_later, args=(write, path, data, headers))
                thread.start()
                self.later.append(thread)
            time.sleep(rng.uniform(0.02, 0.1))
        conn.close()

    def post(self, conn, write, path, data, headers, *, retries):
        """POST until an answer other than a lost connection or a 502/503/504 (or `retries`
        tries); the write's final status is recorded."""
        for n in range(retries):
            write["tries"] += 1
            conn, status, answer = self._request(conn, "POST", path, data, headers)
            if status not in RETRY_STATUSES:
                break
            time.sleep(0.2 * (n + 1))
        write.update(status=status, done=time.monotonic())
        if not 200 <= status < 300:
            write["answer"] = answer[:300].decode("utf-8", "replace")
        with self.lock:
            if not write.get("recorded"):
                write["recorded"] = True
                self.writes.append(write)
        return conn, status

    def post_later(self, write, path, data, headers) -> None:
        conn, deadline = self._connection(), time.monotonic() + 90
        write["in_progress_409"] = True
        while time.monotonic() < deadline:
            time.sleep(1)
            conn, status = self.post(conn, write, path, data, headers, retries=3)
            if status != 409:
                break
        conn.close()

    def start(self, readers: int, writers: int) -> None:
        self.threads = [threading.Thread(target=self.reader, args=(i,)) for i in range(readers)] + [
            threading.Thread(target=self.writer, args=(100 + i,)) for i in range(writers)
        ]
        for thread in self.threads:
            thread.start()

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)
        for thread in self.later:
            thread.join(timeout=100)


# --- the drill ---------------------------------------------------------------------------


def summarize(load: Load, phases: dict, instances: list[Instance]) -> dict:
    by_port = {instance.port: instance for instance in instances}
    out: dict = {}
    for name, (start, end) in phases.items():
        answers = [a for a in load.answers if start <= a[0] < end]
        writes = [w for w in load.writes if start <= w["started"] < end]
        reads = [a for a in answers if a[2] == "GET"]
        out[name] = {
            "seconds": round(end - start, 1),
            "reads": len(reads),
            "reads_failed": sum(
                1 for a in reads if (a[3] == 0 or a[3] >= 500) and id(a) not in load.retried
            ),
            "reads_sent_again_after_a_closed_connection": sum(
                1 for a in reads if id(a) in load.retried
            ),
            "reads_other_non_2xx": sum(1 for a in reads if 300 <= a[3] < 500),
            "writes": len(writes),
            "writes_failed": sum(1 for w in writes if not 200 <= w["status"] < 300),
            "writes_retried": sum(1 for w in writes if w["tries"] > 1),
            "writes_held_by_a_dead_requests_claim": [
                {"seconds_to_answer": round(w["done"] - w["started"], 1), "status": w["status"]}
                for w in writes
                if w.get("in_progress_409")
            ],
            "post_answers_retried_by_client": Counter(
                a[3] for a in answers if a[2] == "POST" and a[3] in RETRY_STATUSES
            ),
            "failed_writes_by_status": Counter(
                f"{w['kind']} {w['status']}" for w in writes if not 200 <= w["status"] < 300
            ),
            "failed_reads_sample": [
                {"at": round(a[0] - start, 2), "status": a[3], "upstream": a[5]}
                for a in reads
                if (a[3] == 0 or a[3] >= 500)
            ][:5],
            "failed_write_answers": sorted(
                {w.get("answer", "") for w in writes if not 200 <= w["status"] < 300}
            )[:3],
        }
    mismatched, unknown, checked, hits_checked = 0, 0, 0, 0
    releases: Counter[str] = Counter()
    for sent, done, _method, status, release, port, cache in load.answers:
        if status == 0:
            continue
        instance = by_port.get(port)
        if release is None and status >= 500:
            continue  # nginx's own answer (502: the instance died while serving it)
        if instance is None or release is None:
            unknown += 1
            continue
        checked += 1
        hits_checked += cache == "hit"
        releases[release] += 1
        if release not in instance.releases_between(sent, done):
            mismatched += 1
    out["releases"] = {
        "answers_checked": checked,
        "cache_hits_checked": hits_checked,
        "release_mismatches": mismatched,
        "answers_without_release_or_upstream": unknown,
        "answers_by_release": dict(releases),
    }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds-per-phase", type=float, default=8)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--instance-workers", type=int, default=1)
    parser.add_argument("--products", type=int, default=200, help="data set's main products")
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "scale_drill.json"))
    args = parser.parse_args()
    if not Path(NGINX).exists():
        raise SystemExit(f"{NGINX} is missing (Debian package nginx-light)")
    if int(redis_cli("dbsize").strip() or 0):
        raise SystemExit(f"Redis database {REDIS_DB} at 127.0.0.1:6379 is not empty: in use?")

    seconds = args.seconds_per_phase
    folder = Path(tempfile.mkdtemp(prefix="scale-drill-"))
    mail_dir = folder / "mail"
    mail_dir.mkdir()
    receiver = Receiver(delay=0.05)
    receiver.start()
    values = {
        "DJANGO_SETTINGS_MODULE": "bench.jobs_settings",
        "HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{DATABASE}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
        "CACHE_KEY_PREFIX": "scale-drill",
        "NUM_PROXIES": "1",
        "THROTTLE_PUBLIC_WRITE": "1000000/min",  # all the load comes from one address
        "DRILL_EMAIL_DIR": str(mail_dir),
        "JOBS_LEASE_SECONDS": "2",
        "ERROR_EMAILS": "0",
        "LOG_LEVEL": "WARNING",
        "GUNICORN_WORKERS": str(args.instance_workers),
        "GUNICORN_ACCESSLOG": "/dev/null",
        "WEBHOOKS_ALLOW_HTTP": "1",
        "WEBHOOKS_ALLOW_PRIVATE": "1",
    }
    env = django_env(folder / "data", values, drop={"RELEASE"})
    ports = [free_port(range(8900, 8950)) for _ in range(1)]
    ports.append(free_port(p for p in range(ports[0] + 1, 8950)))
    proxy_port = free_port(p for p in range(ports[1] + 1, 8960))
    instances = [Instance(f"instance-{i + 1}", p, env, folder) for i, p in enumerate(ports)]
    nginx = Nginx(proxy_port, folder)
    workers = None
    load = None
    result: dict = {}
    passed = False
    try:
        database_create(DATABASE)
        redis_cli("flushdb")
        started = time.monotonic()
        setup = django_json(
            env,
            SETUP
            % {
                "categories": args.products + 100,
                "products": args.products,
                "reviews": args.products * 5,
                "comments": args.products * 2,
                "paths_dir": str(folder / "paths"),
                "hook": f"http://{HOST}:{receiver.port}/hook",
            },
        )
        setup_seconds = time.monotonic() - started
        paths: list[str] = []
        for row in setup["manifest"]["rows"].values():
            paths += Path(row["file"]).read_text().splitlines()
        for instance in instances:
            instance.start("drill-1")
        nginx.start([(p, True) for p in ports])
        workers = Workers(env, folder, 2)
        load = Load(proxy_port, paths, setup["products"], seed=23)
        load.start(args.readers, args.writers)
        phases: dict[str, tuple[float, float]] = {}
        events: list[str] = []

        mark = time.monotonic()
        time.sleep(seconds)
        phases["steady"] = (mark, time.monotonic())

        # (a) one instance lost
        mark = time.monotonic()
        instances[0].kill()
        events.append(f"(a) {instances[0].name} SIGKILLed at {mark - started:.1f} s")
        time.sleep(2)
        instances[0].start("drill-1")
        time.sleep(max(0, mark + seconds - time.monotonic()))
        phases["a_instance_killed"] = (mark, time.monotonic())

        # (b) rolling deploy
        mark = time.monotonic()
        drain_seconds = []
        for index, instance in enumerate(instances):
            nginx.reload([(p, p != instance.port) for p in ports])
            drain_seconds.append(round(instance.terminate(), 2))
            instance.start("drill-2")
            nginx.reload([(p, True) for p in ports])
            events.append(f"(b) {instance.name} on drill-2 at {time.monotonic() - started:.1f} s")
            if index == 0:
                time.sleep(seconds / 2)
        time.sleep(seconds / 2)
        phases["b_rolling_deploy"] = (mark, time.monotonic())

        # (c) a worker killed mid-job
        mark = time.monotonic()
        notify = subprocess.Popen(
            [PYTHON, "manage.py", "send_stock_notifications"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        worker_kills = 0
        rng = random.Random(23)
        deadline = mark + max(seconds, 6)
        while time.monotonic() < deadline and worker_kills < 3:
            running = jobs_running()
            if running:
                victim = rng.randrange(2)
                workers.kill_and_restart(victim)
                worker_kills += 1
                events.append(
                    f"(c) worker {victim + 1} SIGKILLed at {time.monotonic() - started:.1f} s, "
                    f"{running} job(s) running"
                )
                time.sleep(1)
            else:
                time.sleep(0.05)
        notify.wait(timeout=120)
        time.sleep(max(0, deadline - time.monotonic()))
        phases["c_worker_killed"] = (mark, time.monotonic())
        load.finish()

        final = django_json(env, FINAL % {"timeout": 120})

        # --- checks ----------------------------------------------------------------
        acknowledged = [w for w in load.writes if 200 <= w["status"] < 300]
        comments = set(final["comments"])
        interests = {email: (pk, status) for email, pk, status in final["interests"]}
        lost = [
            w["marker"]
            for w in acknowledged
            if w["marker"] not in (comments if w["kind"] == "comment" else interests)
        ]
        messages = messages_by_id(mail_dir)
        expected_mail = {f"<back-in-stock.{pk}@store.example>".encode() for pk, _ in
                         interests.values()}  # fmt: skip
        deliveries = final["deliveries"]
        by_type = Counter(t for _, t, _, _ in deliveries)
        received = receiver.received
        summary = summarize(load, phases, instances)
        failed_in_b = (
            summary["b_rolling_deploy"]["reads_failed"]
            + summary["b_rolling_deploy"]["writes_failed"]
        )
        result = {
            "when": utc_now(),
            "commit": commit(),
            "machine": f"{python_and_cores()} (shared with other jobs)",
            "setup": {
                "instances": 2,
                "gunicorn_per_instance": f"{args.instance_workers} gthread worker(s) x 4 threads",
                "job_workers": 2,
                "jobs_lease_seconds": 2,
                "load": f"{args.readers} reading + {args.writers} writing connections via nginx",
                "random_paths": len(paths),
                "data_set_products": args.products,
                "setup_seconds": round(setup_seconds, 1),
                "seconds_per_phase": seconds,
            },
            "events": events,
            "drain_seconds_sigterm": drain_seconds,
            "phases": summary,
            "writes": {
                "acknowledged": len(acknowledged),
                "not_acknowledged": len(load.writes) - len(acknowledged),
                "acknowledged_lost": len(lost),
                "comments_in_db": len(comments),
                "interests_in_db": len(interests),
            },
            "emails": {
                "expected": len(expected_mail),
                "written": sum(messages.values()),
                "missing": len(expected_mail - set(messages)),
                "doubled": sum(n - 1 for n in messages.values() if n > 1),
                "outbound_statuses": final["emails"],
            },
            "webhooks": {
                "deliveries": len(deliveries),
                "by_event": dict(by_type),
                # one event per written row: 0 when the counts are equal (both ways)
                "comment_events_missing": len(comments) - by_type["comment.created"],
                "interest_events_missing": len(interests) - by_type["interest.created"],
                "not_received": sum(1 for e, _, _, _ in deliveries if received[e] == 0),
                # The same event id again: the worker died after the receiver had it and
                # before the success was recorded; receivers deduplicate on X-Webhook-Id
                # (docs/webhooks.md), so the effect stays single.
                "redelivered_same_event_id": sum(1 for e, _, _, _ in deliveries if received[e] > 1),
                "received_unknown_event_ids": len(set(received) - {e for e, *_ in deliveries}),
                "delivery_statuses": dict(Counter(s for _, _, s, _ in deliveries)),
                "attempts_above_one": sum(1 for *_, a in deliveries if a > 1),
            },
            "jobs": {
                "worker_kills_mid_job": worker_kills,
                "statuses": final["jobs"],
                "queue_drained": final["queue_drained"],
            },
        }
        releases = summary["releases"]
        goals = {
            "0 failed requests in (b)": failed_in_b == 0,
            "0 acknowledged writes lost": not lost,
            "0 e-mails lost or doubled": result["emails"]["missing"] == 0
            and result["emails"]["doubled"] == 0,
            "0 webhook events lost or doubled (one event per write, each received, "
            "redeliveries only under the same X-Webhook-Id)": result["webhooks"]["not_received"]
            == 0
            and result["webhooks"]["received_unknown_event_ids"] == 0
            and result["webhooks"]["comment_events_missing"] == 0
            and result["webhooks"]["interest_events_missing"] == 0,
            "0 jobs left": final["queue_drained"],
            "every answer from its release": releases["release_mismatches"] == 0
            and releases["answers_without_release_or_upstream"] == 0,
        }
        result["goals"] = {name: "met" if ok else "NOT met" for name, ok in goals.items()}
        write_result(args.output, result)
        passed = all(goals.values())
        return 0 if passed else 1
    finally:
        if load is not None:
            load.finish()
        if workers is not None:
            workers.stop()
        nginx.stop()
        for instance in instances:
            instance.stop()
        receiver.stop()
        with contextlib.suppress(Exception):
            redis_cli("flushdb")
        with contextlib.suppress(Exception):
            database_drop(DATABASE)
        if passed:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print(f"logs (kept): {folder}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
