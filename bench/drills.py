"""Failure drills (issue 11): gunicorn (2 workers) with its own Redis and PostgreSQL
database, then one line per drill with its figure.

    .venv/bin/python bench/drills.py [--port 8890] [--output bench/results/drills.txt]

- drill 1: Redis stopped (SIGSTOP) for 20 s under a read load: reads per second before,
  during and after, and the recovery time after SIGCONT (until every worker's cache
  circuit breaker has closed again). Goal: during >= half of before; recovery < 5 s.
- drill 2: 80 comment posts from 8 parallel connections with Redis up (accepted vs the
  limit); then Redis killed: 25 wrong customer logins (processed vs refused) and 80 comment
  posts (accepted: public writes fail open by decision).
- drill 5: the app's PostgreSQL access cut for 10 s under a load (ALTER DATABASE ...
  ALLOW_CONNECTIONS false + terminating its backends): answers by status.
- drill 10: the same comment posted twice with the same Idempotency-Key: rows written.

It starts `redis-server --save ''` on a free port in 6390-6399, creates (or resets) the
database `drills_store` on the PostgreSQL server at 127.0.0.1:5432 (user postgres),
migrates and loads the demo store, and serves it on 127.0.0.1:<port>. Traffic goes only to
127.0.0.1 (the per-drill client addresses are X-Forwarded-For values behind NUM_PROXIES=1);
every loop is bounded in count and time; everything started is stopped at the end, on
error too. The output is also written to --output.
"""

import argparse
import contextlib
import datetime as dt
import http.client
import json
import re
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
    ROOT,
    admin_connection,
    commit,
    database_create,
    database_drop,
    django_env,
    django_json,
    free_port,
    manage,
    port_is_free,
    python_and_cores,
    query,
    stop_process,
    wait_for_port,
)
from bench.server import Server

DATABASE = "drills_store"


# --- processes -------------------------------------------------------------------------


class Redis:
    def __init__(self, port: int, folder: Path) -> None:
        self.port, self.folder, self.process = port, folder, None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", HOST, "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.folder)]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, 10)

    def signal(self, signum) -> None:
        self.process.send_signal(signum)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a stopped process cannot die of SIGTERM
        stop_process(self.process, timeout=10)


def database_access(allowed: bool) -> None:
    with admin_connection() as conn:
        conn.execute(f"ALTER DATABASE {DATABASE} ALLOW_CONNECTIONS {str(allowed).lower()}")
        if not allowed:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [DATABASE],
            )


# The records the drills aim at: the first main product, the first banner groups' codes.
SAMPLE_IDS = """
import json
from django.apps import apps
Product = apps.get_model("catalog.Product")
Group = apps.get_model("marketing.BannerGroup")
product = Product.objects.filter(active=True, parent__isnull=True).order_by("pk").first()
print(json.dumps({
    "product": product.pk if product else None,
    "banner_codes": list(Group.objects.order_by("pk").values_list("code", flat=True)[:3]),
}))
"""


# --- HTTP ------------------------------------------------------------------------------


class Client:
    """One keep-alive connection; answers are (status, headers, body) or (0, {}, b"")."""

    def __init__(self, port: int, client_ip: str | None = None) -> None:
        self.port, self.client_ip = port, client_ip
        self.conn = http.client.HTTPConnection(HOST, port, timeout=10)

    def request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        if self.client_ip:
            headers["X-Forwarded-For"] = self.client_ip
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            payload = response.read()
            return response.status, dict(response.getheaders()), payload
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
            return 0, {}, b""

    def close(self) -> None:
        self.conn.close()


def load(port, paths, *, seconds, connections, max_requests=200_000):
    """Closed-loop GETs over `paths` for `seconds`: list of (finish time, status)."""
    deadline = time.monotonic() + seconds
    done: list[tuple[float, int]] = []
    lock = threading.Lock()
    budget = max_requests // connections

    def worker(offset):
        client, local = Client(port), []
        for n in range(budget):
            if time.monotonic() >= deadline:
                break
            status, _, _ = client.request("GET", paths[(n + offset) % len(paths)])
            local.append((time.monotonic(), status))
        client.close()
        with lock:
            done.extend(local)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 30)
    return done


def parallel_posts(port, path, body, *, total, connections, client_ip):
    statuses: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(connections)

    def worker():
        client = Client(port, client_ip)
        start.wait(timeout=30)
        for _ in range(total // connections):
            status, _, _ = client.request("POST", path, body)
            with lock:
                statuses.append(status)
        client.close()

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return Counter(statuses)


def health(port) -> tuple[float, int, dict]:
    client = Client(port)
    start = time.monotonic()
    status, _, body = client.request("GET", "/health")
    elapsed = time.monotonic() - start
    client.close()
    try:
        return elapsed, status, json.loads(body)
    except ValueError:
        return elapsed, status, {}


def wait_for_breakers_closed(port, timeout=20.0) -> bool:
    """Until /health says the cache is in use on both workers (several answers in a row)."""
    deadline, in_a_row = time.monotonic() + timeout, 0
    while time.monotonic() < deadline and in_a_row < 6:
        _, _, body = health(port)
        in_a_row = (
            in_a_row + 1
            if body.get("cacheBreaker") == "closed" and body.get("cache") == "ok"
            else 0
        )
        time.sleep(0.2)
    return in_a_row >= 6


# --- drills ----------------------------------------------------------------------------


DETAILS: list[str] = []  # written to the output file after the drill lines

LOG_TIME = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) ")


def log_times(log_file: Path, needle: str, since: float) -> list[float]:
    """Unix times of the log lines containing `needle`, written after `since`."""
    found = []
    for line in log_file.read_text(errors="replace").splitlines():
        match = LOG_TIME.match(line)
        if match and needle in line:
            moment = dt.datetime.strptime(match.group(1), "%Y-%m-%d %H:%M:%S,%f")
            stamp = moment.replace(tzinfo=dt.UTC).timestamp()  # the app runs with TIME_ZONE=UTC
            if stamp >= since - 0.01:
                found.append(stamp)
    return found


def rate(done, start, end) -> float:
    count = sum(1 for t, status in done if start <= t < end and status == 200)
    return count / (end - start)


def drill_1(port, redis, log_file, paths) -> str:
    before_s, during_s, after_s = 10, 20, 15
    result = {}

    def stopper(load_start):
        time.sleep(max(0, load_start + before_s - time.monotonic()))
        result["stop"] = time.monotonic()
        result["stop_wall"] = time.time()
        redis.signal(signal.SIGSTOP)
        time.sleep(5)
        result["health"] = health(port)
        time.sleep(max(0, result["stop"] + during_s - time.monotonic()))
        redis.signal(signal.SIGCONT)
        result["cont"] = time.monotonic()
        result["cont_wall"] = time.time()

    load_start = time.monotonic()
    thread = threading.Thread(target=stopper, args=(load_start,))
    thread.start()
    done = load(port, paths, seconds=before_s + during_s + after_s, connections=4)
    thread.join(timeout=60)
    stop, cont = result["stop"], result["cont"]
    before = rate(done, load_start + 1, stop)
    during = rate(done, stop, cont)
    after = rate(done, cont + 5, cont + after_s)
    errors = sum(1 for _, status in done if status != 200)
    closed = log_times(log_file, "Cache circuit breaker closed", result["cont_wall"])
    opened = log_times(log_file, "Cache circuit breaker open", result["stop_wall"])
    recovery = f"{max(closed) - result['cont_wall']:.1f} s" if closed else "not seen"
    buckets = [
        f"{rate(done, load_start + i, load_start + i + 5):.0f}"
        for i in range(0, before_s + during_s + after_s, 5)
    ]
    DETAILS.append(
        f"# drill 1: reads/s per 5 s from the load's start (SIGSTOP at {stop - load_start:.0f} s, "
        f"SIGCONT at {cont - load_start:.0f} s): {' '.join(buckets)}"
    )
    h_seconds, h_status, h_body = result["health"]
    ok = during >= before / 2 and closed and max(closed) - result["cont_wall"] < 5
    return (
        f"drill 1 (Redis SIGSTOP 20 s under reads): {before:.0f} reads/s before, "
        f"{during:.0f} during ({during / before:.0%}), {after:.0f} after; recovery {recovery} "
        f"after SIGCONT (last breaker close); breaker open/close log lines {len(opened)}/"
        f"{len(closed)} (2 workers); /health during the stop {h_seconds * 1000:.0f} ms "
        f"{h_status} {h_body.get('status')} breaker={h_body.get('cacheBreaker')}; "
        f"non-200 answers {errors}; goal (>= half rate, < 5 s) {'met' if ok else 'NOT met'}"
    )


def _tally(statuses: Counter, done: int, word: str) -> str:
    """The answers counted by status: done (`done`), refused (429) and the others."""
    other = sum(statuses.values()) - statuses[done] - statuses[429]
    return f"{word} {statuses[done]}, refused {statuses[429]}, other {other}"


def drill_2(port, redis, product_id) -> list[str]:
    comment_path = f"/publics/products/{product_id}/comments"
    comment = {"message": "Drill comment", "customerName": "Drill", "customerEmail": "d@x.io"}

    def comment_posts(client_ip: str) -> str:
        statuses = parallel_posts(
            port, comment_path, comment, total=80, connections=8, client_ip=client_ip
        )
        return _tally(statuses, 201, "accepted")

    lines = [
        "drill 2a (Redis up, 80 comment posts, 8 connections, one IP): "
        f"{comment_posts('192.0.2.21')} (limit 30/min)"
    ]

    email = f"drill-{uuid.uuid4().hex[:8]}@example.com"
    register = Client(port, "192.0.2.22")
    register.request(
        "POST", "/publics/customers", {"name": "Drill", "email": email, "password": "Dr1ll!pass"}
    )
    register.close()

    redis.signal(signal.SIGKILL)
    redis.process.wait(timeout=10)
    login = Client(port, "192.0.2.23")
    statuses = Counter(
        login.request("POST", "/publics/customers/login", {"email": email, "password": "no"})[0]
        for _ in range(25)
    )
    login.close()
    lines.append(
        "drill 2b (Redis killed, 25 wrong logins, one IP, one e-mail): "
        f"{_tally(statuses, 401, 'processed')} "
        "(limits 5/min per e-mail, 10/min per IP, counted in the database)"
    )
    lines.append(
        "drill 2c (Redis killed, 80 comment posts, 8 connections, one IP): "
        f"{comment_posts('192.0.2.24')} "
        "(limit 30/min; public writes fail open while the cache is down, by decision)"
    )
    redis.start()
    if not wait_for_breakers_closed(port):
        lines.append("drill 2: the cache breakers did not close within 20 s of Redis' restart")
    return lines


def drill_5(port, paths) -> str:
    normal_s, outage_s, after_s = 5, 10, 10
    marks = {}

    def cutter(load_start):
        time.sleep(max(0, load_start + normal_s - time.monotonic()))
        marks["cut"] = time.monotonic()
        database_access(False)
        time.sleep(outage_s)
        database_access(True)
        marks["back"] = time.monotonic()

    load_start = time.monotonic()
    thread = threading.Thread(target=cutter, args=(load_start,))
    thread.start()
    try:
        done = load(port, paths, seconds=normal_s + outage_s + after_s, connections=4)
    finally:
        thread.join(timeout=60)
        database_access(True)
    cut, back = marks["cut"], marks["back"]
    during = Counter(status for t, status in done if cut <= t < back)
    after = Counter(status for t, status in done if back + 2 <= t)
    first_ok = min((t for t, status in done if t >= back and status == 200), default=None)
    recovery = f"{first_ok - back:.1f} s" if first_ok is not None else "not seen"
    return (
        f"drill 5 (PostgreSQL access cut 10 s under uncached reads): during the cut "
        f"{during[500]} x 500, {during[503]} x 503, {during[200]} x 200, other "
        f"{sum(during.values()) - during[500] - during[503] - during[200]}; after it "
        f"{after[200]} x 200 of {sum(after.values())}, first 200 {recovery} after access returned"
    )


def drill_10(port, product_id) -> str:
    key = f"drill-{uuid.uuid4()}"
    message = f"Idempotency drill {key}"
    body = {"message": message, "customerName": "Drill", "customerEmail": "d@x.io"}
    client = Client(port, "192.0.2.30")
    path = f"/publics/products/{product_id}/comments"
    first, second = (client.request("POST", path, body, {"Idempotency-Key": key}) for _ in range(2))
    client.close()
    sql = "SELECT count(*) FROM feedback_comment WHERE message = %s"
    (rows,) = query(DATABASE, sql, [message])[0]
    same = first[2] == second[2]
    return (
        f"drill 10 (same comment posted twice with one Idempotency-Key): answers "
        f"{first[0]}/{second[0]}, identical bodies {'yes' if same else 'no'}, rows written "
        f"{rows} (goal: 1)"
    )


# --- main ------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8890)
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "drills.txt"))
    args = parser.parse_args()
    if not port_is_free(args.port):
        raise SystemExit(f"port {args.port} is taken")

    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="storefront-drills-") as tmp:
        folder = Path(tmp)
        redis = Redis(free_port(range(6390, 6400)), folder)
        log_file = folder / "gunicorn.log"
        env = django_env(
            folder / "data",
            {
                "HTTPS": "0",
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
                "REDIS_URL": f"redis://127.0.0.1:{redis.port}/0",
                "NUM_PROXIES": "1",
                "TIME_ZONE": "UTC",  # log times comparable with this script's clock
                "LOG_LEVEL": "WARNING",
                # No recycling: a worker booted mid-drill starts with a closed breaker and
                # hides the recovery (at cached rates, 2,000 requests go by in seconds).
                "GUNICORN_MAX_REQUESTS": "0",
                "GUNICORN_ACCESSLOG": "/dev/null",
            },
        )
        try:
            database_create(DATABASE)
            redis.start()
            manage(env, "migrate", "--noinput", "-v0")
            manage(env, "seed_demo", capture=True)
            ids = django_json(env, SAMPLE_IDS)
            with Server(env, port=args.port, workers=2, log=log_file):
                if not wait_for_breakers_closed(args.port):
                    raise SystemExit("the service did not report a healthy cache")

                product = ids["product"]
                codes = ",".join(ids["banner_codes"]) or "home"
                reads = [
                    "/publics/payments/card-flags",
                    "/publics/products/categories/tree",
                    f"/api/v3/publics/template/banners?codes={codes}",
                    "/publics/products/comments?limit=10",
                    f"/review/product?limit=10&condition[productId]={product}",
                ]
                # Every URL once: an answer seen before would come from the cache of answers.
                uncached = [
                    f"/publics/products/comments?limit=10&offset={n}"
                    if n % 2
                    else f"/review/product?limit=10&offset={n}&condition[productId]={product}"
                    for n in range(20_000)
                ]
                load(args.port, reads, seconds=3, connections=4)  # warm-up

                steps = [
                    lambda: [drill_1(args.port, redis, log_file, reads)],
                    lambda: drill_2(args.port, redis, product),
                    lambda: [drill_5(args.port, uncached)],
                    lambda: [drill_10(args.port, product)],
                ]
                for step in steps:
                    for line in step():
                        print(line, flush=True)
                        lines.append(line)
        finally:
            redis.stop()
            with contextlib.suppress(Exception):
                database_drop(DATABASE)

    header = (
        f"# bench/drills.py on {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %z}, commit "
        f"{commit()}, {python_and_cores()}, gunicorn 2 sync workers, PostgreSQL + Redis on "
        "127.0.0.1"
    )
    Path(args.output).write_text("\n".join([header, *lines, *DETAILS]) + "\n")


if __name__ == "__main__":
    main()
