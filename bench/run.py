"""Load benchmark: the store at a real store's size, served by gunicorn as in production,
driven by wrk, each endpoint's requests/s next to a constant-JSON view's (the ceiling).

    make bench                      (SQLite + local-memory cache)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_store \\
        REDIS_URL=redis://127.0.0.1:6379/9 make bench
    .venv/bin/python bench/run.py --seconds 3 --runs 1      (a quick look)

See bench/README.md for what each row is and how to read the ratio. Traffic goes to
127.0.0.1 only, and every step stops by itself.
"""

import argparse
import gzip
import http.client
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import live_carrier, wrk
from bench.fake_carrier import FakeCarrier
from bench.harness import (
    PYTHON,
    ROOT,
    django_env,
    last_json,
    manage,
    stop_process,
    wait_until,
)
from bench.report import (
    CEILING_EVERY,
    ceiling_report,
    churn_report,
    gzip_report,
    hit_ratio,
    local_ceilings,
    machine,
    median_of,
    memory_report,
    print_table,
    row_report,
)
from bench.server import Server, rss_of
from bench.targets import (
    CONSTANT,
    GOALS,
    GOALS_POSTGRESQL_REDIS,
    GROUPS,
    Target,
    random_targets,
    targets,
)
from config.env import git_commit

# --- configuration and data set ----------------------------------------------


def configuration() -> dict:
    database_url = os.environ.get("DATABASE_URL", "")
    scheme = urlsplit(database_url).scheme if database_url else "sqlite"
    database = "postgresql" if scheme in {"postgres", "postgresql"} else scheme
    cache = "redis" if os.environ.get("REDIS_URL") else "locmem"
    return {"database": database, "cache": cache, "name": f"{database}-{cache}"}


def postgres_reset(database_url: str, *, drop: bool) -> None:
    """Create the benchmark's own database (dropped first when `drop`); connects to the
    server's `postgres` database only to run CREATE/DROP DATABASE."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    if not name or name in {"postgres", "template0", "template1"}:
        sys.exit(f"DATABASE_URL must name the benchmark's own database, not {name or '(none)'}")
    admin_url = urlunsplit(parts._replace(path="/postgres", query=""))
    with psycopg.connect(admin_url, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if exists and drop:
            print(f"Dropping database {name}")
            connection.execute(
                sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name))
            )
        if drop or not exists:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def python_module(env: dict, module: str, *args: str) -> subprocess.CompletedProcess:
    """`python -m <module> <args>`, its output captured (its exit status not checked)."""
    return subprocess.run(
        [PYTHON, "-m", module, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def prepare_dataset(env: dict, config: dict, data_dir: Path, *, rebuild: bool) -> dict:
    """Reuse the database when it holds this data set, else (re)build it. Returns the
    data set's description with `reused` and `build_seconds`."""

    if config["database"] == "postgresql":
        postgres_reset(env["DATABASE_URL"], drop=False)
    elif config["database"] != "sqlite":
        sys.exit(f"Unsupported DATABASE_URL scheme: {config['database']}")
    checked = None if rebuild else python_module(env, "bench.dataset", "--check")
    if checked is not None and checked.returncode == 0:
        described = last_json(checked.stdout)
        print(f"Reusing the data set in the database (fingerprint {described['fingerprint']})")
        return {**described, "reused": True, "build_seconds": None}
    started = time.perf_counter()
    if config["database"] == "postgresql":
        postgres_reset(env["DATABASE_URL"], drop=True)
    else:
        for path in (
            data_dir / "db.sqlite3",
            data_dir / "db.sqlite3-wal",
            data_dir / "db.sqlite3-shm",
        ):
            path.unlink(missing_ok=True)
    manage(env, "migrate", "--noinput", "-v0")
    built = python_module(env, "bench.dataset")
    print(built.stdout.rsplit("\n{", 1)[0].rstrip())
    if built.returncode != 0:
        sys.exit(f"Building the data set failed:\n{built.stderr}")
    described = last_json(built.stdout)
    return {**described, "reused": False, "build_seconds": round(time.perf_counter() - started, 1)}


def prepare_paths(env: dict, data_dir: Path) -> dict:
    """The random-key rows' path lists (bench/paths.py), drawn from the database into
    data/bench/<database>/paths/; returns their manifest."""
    began = time.perf_counter()
    drawn = python_module(env, "bench.paths", str(data_dir / "paths"))
    if drawn.returncode != 0:
        sys.exit(f"Drawing the random-key paths failed:\n{drawn.stderr}")
    manifest = last_json(drawn.stdout)
    sizes = ", ".join(f"{key} {row['paths']:,}" for key, row in manifest["rows"].items())
    print(f"Random-key paths ({time.perf_counter() - began:.1f} s): {sizes}")
    return manifest


def render_pages_ahead(env: dict, port: int) -> dict:
    """Every product page rendered ahead for the server's origin, as the store's jobs worker
    keeps them (catalog.api.ahead): the missing and stale ones, in one process, before the
    server starts, in passes shorter than `manage`'s bound (PostgreSQL renders them in about
    ten minutes). Returns the passes' lines and their seconds."""
    began, lines = time.perf_counter(), []
    env["PAGES_AHEAD_ORIGINS"] = f"http://127.0.0.1:{port}"
    for _ in range(10):
        done = manage(env, "render_pages_ahead", "--seconds", "420", capture=True)
        lines.append(done.stdout.strip().splitlines()[-1])
        print(lines[-1], flush=True)
        if " 0 left for the next pass" in lines[-1]:
            break
    seconds = round(time.perf_counter() - began, 1)
    print(f"Product pages ahead: {len(lines)} pass(es), {seconds} s")
    return {"seconds": seconds, "done": " / ".join(lines)}


# --- measuring -----------------------------------------------------------------


def preflight(target: Target, port: int) -> None:
    """One request (random-key rows: one per sample path): the answer must be 2xx (no
    redirect followed) and right for the data set; otherwise the row is a failure and is
    not measured."""
    for path, check in target.samples or [(target.path, target.check)]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Content-Type": "application/json"} if target.body else {}
        if target.accept_encoding:
            headers["Accept-Encoding"] = target.accept_encoding
        try:
            connection.request(target.method, path, body=target.body or None, headers=headers)
            response = connection.getresponse()
            raw = response.read()
        finally:
            connection.close()
        if path == target.path:  # the bytes on the wire: compressed in the gzip rows
            target.status, target.size = response.status, len(raw)
        encoding = response.getheader("Content-Encoding") or ""
        if target.accept_encoding and encoding != "gzip":
            target.problem = f"asked gzip, answered {encoding or 'plain'}"
            return
        if encoding == "gzip":
            raw = gzip.decompress(raw)
        if not 200 <= response.status < 300:
            target.problem = f"HTTP {response.status}: {raw[:200].decode(errors='replace')}"
        else:
            try:
                target.problem = check(json.loads(raw))
            except (ValueError, AttributeError, TypeError, KeyError) as error:
                target.problem = f"unexpected answer ({error!r})"
        if target.problem:
            if target.samples:
                target.problem = f"{path}: {target.problem}"
            return


LIVE_CARRIER_SECONDS = 0.05


def live_carrier_command(env: dict, *args: str) -> None:
    command = [PYTHON, "-m", "bench.live_carrier", *args]
    subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def live_row(target: Target, args, tool: str, server: Server, env: dict, carrier) -> None:
    """The live-carrier row: its table added (bench/live_carrier.py), checked, measured,
    and removed again, whatever happens."""
    live_carrier_command(env, "add", carrier.url)
    try:
        preflight(target, args.port)
        if not target.problem:
            measure(target, args, tool, server)
    finally:
        live_carrier_command(env, "remove")
    target.carrier_calls = len(carrier.calls)  # the fake's count, warm-up and checks included


def settle(port: int, workers: int, *, limit: float = 180) -> None:
    """Wait until gunicorn has worked through the requests wrk left queued when it stopped
    (sync workers still answer every accepted connection): a round of one quick request
    per worker, repeated until a round comes back fast, or `limit` seconds pass."""

    def probe(_) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=limit)
        try:
            connection.request("GET", "/bench/constant")
            connection.getresponse().read()
        finally:
            connection.close()

    deadline = time.monotonic() + limit
    with ThreadPoolExecutor(max_workers=workers) as pool:
        while time.monotonic() < deadline:
            began = time.monotonic()
            list(pool.map(probe, range(workers)))
            if time.monotonic() - began < 0.25:
                return


def measure(target: Target, args, tool: str, server: Server, env: dict | None = None) -> None:
    """Warm-up, then the runs; each run also notes the workers' CPU time per request.
    Random-key rows draw each request from their paths file (a different seed each run)
    and count the answers' X-Cache headers. Churn rows (`env` given): each run is one while
    bench/churn.py saves stock, between two runs without churn (without, with, without,
    with, ..., without), so the runs without churn meet the caches before and after the
    state each run with churn met (the caches keep filling during the row)."""
    url = f"http://127.0.0.1:{args.port}{target.path}"
    options = {
        "connections": args.connections,
        "threads": args.threads,
        "timeout": args.timeout,
        "method": target.method,
        "body": target.body,
        "paths_file": target.paths_file,
        "count_cache": bool(target.paths_file),
        "accept_encoding": target.accept_encoding,
    }

    def one(seed: int, runs: list, cpu_ms: list) -> None:
        cpu_before = server.cpu_seconds()
        run = wrk.run(tool, url, seconds=args.seconds, seed=seed, **options)
        cpu = server.cpu_seconds() - cpu_before
        runs.append(run)
        cpu_ms.append(1000 * cpu / run.requests if run.requests else 0.0)
        settle(args.port, args.workers)

    if args.warmup:
        wrk.run(tool, url, seconds=args.warmup, seed=1000, **options)
        settle(args.port, args.workers)
    if env is not None:  # churn: a run without churn first, then one after each with
        one(0, target.runs_without_churn, target.cpu_ms_without_churn)
    for number in range(args.runs):
        if env is None:
            one(number + 1, target.runs, target.cpu_ms)
            continue
        # bounded: a run, plus settle()'s wait, plus the child's start
        log = Path(env["DATA_DIR"]) / "churn.log"
        with Churn(env, rate=args.churn_rate, seconds=args.seconds + 240, log=log) as churn:
            one(number + 1, target.runs, target.cpu_ms)
        if not churn.summary:
            target.problem = f"bench/churn.py reported nothing; its log: {log}"
        target.churn_runs.append(churn.summary)
        one(number + 1, target.runs_without_churn, target.cpu_ms_without_churn)


class Churn:
    """bench/churn.py in a child process, for the time of a `with` block: stopped (SIGTERM,
    then SIGKILL) at its end, and bounded by `seconds` whatever happens here."""

    def __init__(self, env: dict, *, rate: float, seconds: float, log: Path):
        self.command = [
            PYTHON,
            "-m",
            "bench.churn",
            f"--rate={rate:g}",
            f"--seconds={seconds:.0f}",
        ]
        self.env, self.log = env, log
        self.process: subprocess.Popen | None = None
        self.summary: dict = {}

    def __enter__(self) -> "Churn":
        self.output = self.log.open("w+")
        self.process = subprocess.Popen(
            self.command, cwd=ROOT, env=self.env, stdout=self.output, stderr=subprocess.STDOUT
        )
        if not wait_until(lambda: "ready" in self.log.read_text(), self.process, 60, pause=0.1):
            self.stop()
            raise RuntimeError(f"bench/churn.py did not start; its log: {self.log}")
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        stop_process(self.process, timeout=15)
        self.output.close()
        for line in self.log.read_text().splitlines():
            if line.startswith("BENCH_CHURN "):
                self.summary = json.loads(line[len("BENCH_CHURN ") :])


def redis_ready(url: str) -> None:
    """django-redis turns a Redis outage into cache misses: check it answers first."""
    import redis

    try:
        redis.Redis.from_url(url, socket_timeout=3).ping()
    except redis.RedisError as error:
        sys.exit(f"REDIS_URL does not answer ({error}): start Redis or unset REDIS_URL.")


REDIS_PREFIX = "bench-{}"  # the configuration's name: the runs of one data set share it


def redis_forget(url: str, prefix: str) -> int:
    """Delete the keys the bench's gunicorn wrote under its key prefix but the namespace
    versions (infra.caching.versions.CacheVersions.KEY): every answer and record starts cold,
    and the pages rendered ahead by an earlier run of the same release stay current (their
    versions are those the rows hold), so a second run renders only what changed, not every
    page again (about 20 minutes on PostgreSQL). Returns the keys deleted."""
    import redis

    from infra.caching.versions import CacheVersions

    client = redis.Redis.from_url(url)
    versions = CacheVersions.KEY.format("").encode()
    keys = [key for key in client.scan_iter(match=f"{prefix}:*", count=1000) if versions not in key]
    for start in range(0, len(keys), 1000):
        client.delete(*keys[start : start + 1000])
    return len(keys)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15, help="per run (default 15)")
    parser.add_argument("--runs", type=int, default=3, help="runs per endpoint; the median")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of load before runs")
    parser.add_argument("--timeout", type=float, default=10, help="wrk's request timeout (s)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--worker-class",
        default="",
        help="gunicorn worker class (default: production's, config/gunicorn.conf.py)",
    )
    parser.add_argument(
        "--max-requests",
        type=int,
        default=0,
        help="recycle a worker after this many requests (production: 2000; default 0, "
        "never: the workers live through the whole run)",
    )
    parser.add_argument("--port", type=int, default=8870)
    parser.add_argument(
        "--only",
        help="measure only the rows whose name contains this text (several: comma-separated)",
    )
    parser.add_argument(
        "--rows",
        default=",".join(GROUPS),
        help="row groups to measure, comma-separated: replay (one path per row), random "
        "(random keys), churn (random reviews and comments while stock is saved); "
        "default: all",
    )
    parser.add_argument(
        "--churn-rate", type=float, default=20, help="stock saves per second of the churn rows"
    )
    parser.add_argument("--rebuild", action="store_true", help="rebuild the data set")
    parser.add_argument("--output", help="default: bench/results/load-<database>-<cache>.json")
    args = parser.parse_args()
    if args.runs < 1 or args.seconds < 1 or args.connections < 1:
        parser.error("--runs, --seconds and --connections must be at least 1")
    args.groups = {group.strip() for group in args.rows.split(",") if group.strip()}
    if not args.groups or args.groups - set(GROUPS):
        parser.error(f"--rows takes groups among {', '.join(GROUPS)}")
    return args


def main() -> None:
    args = parse_args()
    tool = wrk.ensure_wrk()
    config = configuration()
    data_dir = ROOT / "data" / "bench" / config["database"]
    data_dir.mkdir(parents=True, exist_ok=True)
    env = django_env(
        data_dir,
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "HTTPS": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # The load comes from one IP: keep the write throttle out of the measurement.
            "THROTTLE_PUBLIC_WRITE": "100000000/min",
            "PYTHONDONTWRITEBYTECODE": "1",
            # one release for every process of the run (answer keys and rows hold it): a
            # commit made while it runs does not split it
            "RELEASE": os.environ.get("RELEASE") or git_commit(str(ROOT)) or "bench",
        },
    )
    prefix = REDIS_PREFIX.format(config["name"])
    if config["cache"] == "redis":
        redis_ready(env["REDIS_URL"])
        env["CACHE_KEY_PREFIX"] = prefix  # cold but for the versions (redis_forget)
        redis_forget(env["REDIS_URL"], prefix)  # what a run stopped halfway left
    print(f"Configuration: {config['name']}; data in {data_dir.relative_to(ROOT)}")
    dataset = prepare_dataset(env, config, data_dir, rebuild=args.rebuild)
    goals = GOALS_POSTGRESQL_REDIS if config["name"] == "postgresql-redis" else GOALS
    rows = targets(dataset)
    if args.groups & {"random", "churn"}:
        rows += random_targets(prepare_paths(env, data_dir))
    rows = [rows[0]] + [t for t in rows[1:] if t.group in args.groups]
    for target in rows:
        target.goal = goals.get(target.name)
    if args.only:
        texts = [text.strip().lower() for text in args.only.split(",") if text.strip()]
        rows = [rows[0]] + [t for t in rows[1:] if any(x in t.name.lower() for x in texts)]
    if any(target.name.startswith("product page") for target in rows):
        dataset["pages_ahead"] = render_pages_ahead(env, args.port)
    env["GUNICORN_ACCESSLOG"] = "/dev/null"  # access lines are formatted, then discarded
    env["GUNICORN_MAX_REQUESTS"] = str(args.max_requests)
    if args.worker_class:
        env["GUNICORN_WORKER_CLASS"] = args.worker_class
    worker_class = env.get("GUNICORN_WORKER_CLASS") or "gthread"
    threads = env.get("GUNICORN_THREADS") or "4"
    workers_label = f"{args.workers} {worker_class} workers" + (
        f" x {threads} threads" if worker_class == "gthread" else ""
    )
    env[live_carrier.TOKEN_VARIABLE] = "bench-token"
    load_before = os.getloadavg()
    started = time.perf_counter()
    server = Server(env, port=args.port, workers=args.workers, log=data_dir / "gunicorn.log")
    # the live row's carrier: Melhor Envio's answer after 50 ms (bench/fake_carrier.py)
    carrier = FakeCarrier(delay=LIVE_CARRIER_SECONDS)
    try:
        with server, carrier:
            for target in rows:
                if not target.live:  # (checked once its live table is there)
                    preflight(target, args.port)
            after_random = None
            ceilings, checks = [rows[0]], [0]  # the constant view's checks; each row's last
            for number, target in enumerate(rows):
                if number > 1 and (number - 1) % CEILING_EVERY == 0:
                    check = Target(CONSTANT, rows[0].path, rows[0].check)
                    measure(check, args, tool, server)
                    ceilings.append(check)
                    print(f"{CONSTANT + ' (check)':48} {median_of(check.runs, 'rps'):8,.0f} req/s")
                checks.append(len(ceilings) - 1)
                if target.live:
                    live_row(target, args, tool, server, env, carrier)
                if target.problem:
                    print(f"{target.name}: FAILED before measuring: {target.problem}")
                elif target.group == "churn":
                    measure(target, args, tool, server, env)
                elif not target.live:
                    measure(target, args, tool, server)
                if target.group != "replay":
                    after_random = [rss_of(pid) for pid in server.workers()]
                if not target.problem:
                    line = f"{target.name:48} {median_of(target.runs, 'rps'):8,.0f} req/s"
                    ratio = hit_ratio(target.runs)
                    if ratio is not None:
                        line += f", {ratio:.0%} cache hits"
                    if target.group == "churn":
                        line += (
                            f" ({median_of(target.runs_without_churn, 'rps'):,.0f} without "
                            "churn, the runs in between)"
                        )
                    print(line, flush=True)
            again = Target(CONSTANT, rows[0].path, rows[0].check)
            measure(again, args, tool, server)
            ceilings.append(again)
            print(f"{CONSTANT + ' (again)':48} {median_of(again.runs, 'rps'):8,.0f} req/s")
            workers = [rss_of(pid) for pid in server.workers()]
            restarts = server.worker_restarts()
    finally:
        if config["cache"] == "redis":
            redis_forget(env["REDIS_URL"], prefix)
    memory = memory_report(workers, restarts, after_random=after_random)
    ceiling = ceiling_report(ceilings)
    local_ceilings(rows, checks[1:], ceilings)
    report = [row_report(t, ceiling["cpu_ms_per_request"]) for t in rows]
    churn_report(report)
    gzip_report(report)
    print_table(report, memory, ceiling)
    output = Path(args.output or ROOT / "bench" / "results" / f"load-{config['name']}.json")
    result = {
        "benchmark": "load (bench/run.py)",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "configuration": config["name"],
        "machine": machine(config, env, tool),
        "settings": {
            "django_settings": "bench.settings",
            "gunicorn": (
                f"config/gunicorn.conf.py, {workers_label}, "
                f"max_requests {args.max_requests or 'off'}"
            ),
            "wrk": (
                f"{args.threads} thread(s), {args.connections} connections, "
                f"{args.seconds:g} s per run, {args.runs} run(s) (median), "
                f"{args.warmup:g} s warm-up, timeout {args.timeout:g} s"
            ),
            "rows": ", ".join(sorted(args.groups)) + (f", only {args.only!r}" if args.only else ""),
            "churn": f"bench/churn.py, {args.churn_rate:g} stock saves/s (ORM save, signals)",
            "database": config["database"],
            "cache": config["cache"],
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "minutes": round((time.perf_counter() - started) / 60, 1),
        },
        "dataset": dataset,
        "ceiling": ceiling,
        "rows": report,
        "memory": memory,
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"\nWritten to {output.relative_to(ROOT) if output.is_relative_to(ROOT) else output}")


if __name__ == "__main__":
    main()
