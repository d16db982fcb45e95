"""What a cache miss of the list, quote and catalogue rows costs, in process (issues 31, 32).

    .venv/bin/python bench/miss_path.py [--requests 300] [--profile reviews] [--json FILE]
    .venv/bin/python bench/miss_path.py --snapshot FILE    # every review and comment page
    .venv/bin/python bench/miss_path.py --compare FILE     # ... the same bytes as FILE?

Uses the load benchmark's SQLite data set (`data/bench/sqlite/`, built or rebuilt as
`bench/run.py` does when missing or stale) and its random-key path lists (`bench/paths.py`):
each row's requests are random paths of its list (a fixed seed), sent through Django's test
client (every middleware, `early_answers` included) to the 127.0.0.1 channel. Before each
request the answer caches are emptied (the local-memory cache, the recent answers, the
remembered records of each URL), so every answer is a miss; what a process keeps of read
models (`infra.caching.kept.kept_many`: product summaries, stocks) stays, as in a running worker,
after a warm-up pass over the row's paths. With `--mixed`, a random quote and a random cart
(misses too) come before each measured request, as in a store's traffic. Prints the median
and p90 of each row's misses, in CPU time of this thread (what other jobs on the machine
change least) and in wall time, and a hit's CPU time for scale; `--profile ROW` prints the
row's cProfile top functions instead. With `--ahead`, the product pages and summaries are
rendered ahead for http://127.0.0.1 first (catalog.api.ahead), as the load benchmark's server
has them; the product-page row, then a row's hit, is left out.
"""

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data" / "bench" / "sqlite"
ROWS = ("reviews", "comments", "quote", "product-page", "listing", "search", "suggest")
SEED = 31


def setup(*, ahead: bool = False) -> None:
    sys.path.insert(0, str(ROOT))
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    for name in ("DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG", "PAGES_AHEAD_ORIGINS"):
        os.environ.pop(name, None)
    if ahead:
        os.environ["PAGES_AHEAD_ORIGINS"] = "http://127.0.0.1"
    os.environ |= {"DATA_DIR": str(DATA_DIR), "DJANGO_SETTINGS_MODULE": "bench.settings"}
    os.environ.setdefault("SECRET_KEY", "bench-miss-path-not-a-secret")
    os.environ.setdefault("HTTPS", "0")
    import django

    django.setup()
    from django.core.management import call_command

    from bench.dataset.build import FULL, build, fingerprint, marker_read
    from bench.dataset.build import SEED as DATA_SEED

    if marker_read() != fingerprint(size=FULL, seed=DATA_SEED):
        print("Building the bench data set into", DATA_DIR, flush=True)
        from django.db import connection

        connection.close()
        for suffix in ("", "-wal", "-shm"):
            (DATA_DIR / f"db.sqlite3{suffix}").unlink(missing_ok=True)
        call_command("migrate", "--noinput", verbosity=0)
        build(size=FULL, seed=DATA_SEED, stdout=sys.stdout)
    if ahead:
        from catalog.api.ahead import render_ahead

        began = time.monotonic()
        done = render_ahead()
        print(f"Rendered ahead in {time.monotonic() - began:.0f} s: {done}", flush=True)


def forget_answers() -> None:
    from django.core.cache import cache

    from apikit import caching

    cache.clear()
    caching.RECENT_ANSWERS.clear()


def client():
    from django.test import Client

    return Client(SERVER_NAME="127.0.0.1", HTTP_HOST="127.0.0.1")


def paths_of(row: str) -> list[str]:
    from bench.dataset.build import SEED as DATA_SEED
    from bench.paths import draw

    return draw(row, seed=DATA_SEED, quotes=2000)[0]


def get(browser, path: str) -> tuple[float, float, bytes]:
    """(wall ms, CPU ms, body) of a miss of `path`."""
    forget_answers()
    began, cpu = time.perf_counter(), time.thread_time()
    response = browser.get(path)
    elapsed = (time.perf_counter() - began) * 1000
    cpu_ms = (time.thread_time() - cpu) * 1000
    if response.status_code != 200 or response["X-Cache"] != "miss":
        raise SystemExit(f"{path}: {response.status_code} {response.get('X-Cache')}")
    return elapsed, cpu_ms, response.content


def others() -> list[str]:
    """Random quotes and carts (the load benchmark's lists), sent between measured requests."""
    from bench.dataset.build import SEED as DATA_SEED
    from bench.paths import draw

    return draw("quote", seed=DATA_SEED, quotes=5000)[0] + draw("upsell", seed=DATA_SEED)[0]


def measure(row: str, requests: int, mixed: list[str]) -> dict:
    browser, paths = client(), paths_of(row)
    rng = random.Random(f"{SEED}:{row}")
    for path in rng.sample(paths, min(len(paths), 200)):  # warm-up: kept read models, code
        get(browser, path)

    def one() -> tuple[float, float]:
        for other in rng.sample(mixed, 2) if mixed else ():
            forget_answers()
            browser.get(other)
        return get(browser, rng.choice(paths))[:2]

    walls, cpus = zip(*(one() for _ in range(requests)), strict=True)
    hits = []
    for path in rng.sample(paths, 50):
        browser.get(path)
        cpu = time.thread_time()
        response = browser.get(path)
        hits.append((time.thread_time() - cpu) * 1000)
        assert response["X-Cache"] == "hit", path
    return {
        "paths": len(paths),
        "requests": requests,
        "miss_cpu_median_ms": round(statistics.median(cpus), 2),
        "miss_cpu_p90_ms": round(sorted(cpus)[int(len(cpus) * 0.9)], 2),
        "miss_wall_median_ms": round(statistics.median(walls), 2),
        "miss_wall_p90_ms": round(sorted(walls)[int(len(walls) * 0.9)], 2),
        "hit_cpu_median_ms": round(statistics.median(hits), 2),
    }


def profile(row: str, requests: int) -> None:
    browser, paths = client(), paths_of(row)
    rng = random.Random(f"{SEED}:{row}")
    for path in rng.sample(paths, min(len(paths), 200)):
        get(browser, path)
    chosen = [rng.choice(paths) for _ in range(requests)]
    profiler = cProfile.Profile()
    for path in chosen:
        forget_answers()
        profiler.enable()
        browser.get(path)
        profiler.disable()
    stats = (
        pstats.Stats(profiler).strip_dirs().sort_stats(os.environ.get("PROFILE_SORT", "cumulative"))
    )
    stats.print_stats(60)


def snapshot() -> dict[str, str]:
    """Every review and comment page's body (a hex digest each), as a miss renders it."""
    browser, found = client(), {}
    for row in ("reviews", "comments"):
        for path in paths_of(row):
            found[path] = hashlib.sha256(get(browser, path)[2]).hexdigest()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="measured misses per row")
    parser.add_argument(
        "--rows", default=",".join(ROWS), help="comma-separated, of: " + " ".join(ROWS)
    )
    parser.add_argument(
        "--mixed", action="store_true", help="a random quote and cart miss before each request"
    )
    parser.add_argument(
        "--ahead", action="store_true", help="pages and summaries rendered ahead first"
    )
    parser.add_argument("--profile", choices=ROWS, help="cProfile one row instead")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--snapshot", type=Path, help="write every page's digest to this file")
    parser.add_argument("--compare", type=Path, help="compare every page's digest to this file")
    args = parser.parse_args()
    setup(ahead=args.ahead)
    if args.profile:
        profile(args.profile, args.requests)
        return
    if args.snapshot or args.compare:
        found = snapshot()
        if args.snapshot:
            args.snapshot.write_text(json.dumps(found, indent=0))
            print(f"{len(found)} pages written to {args.snapshot}")
        if args.compare:
            expected = json.loads(args.compare.read_text())
            differ = [path for path in expected if found.get(path) != expected[path]]
            print(f"{len(expected)} pages compared, {len(differ)} differ", *differ[:10], sep="\n")
            sys.exit(1 if differ or set(found) != set(expected) else 0)
        return
    results, mixed = {}, others() if args.mixed else []
    for row in args.rows.split(","):
        if args.ahead and row == "product-page":
            continue
        results[row] = measure(row, args.requests, mixed)
        print(row, json.dumps(results[row]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
