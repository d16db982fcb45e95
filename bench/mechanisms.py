"""In-process measurement of what each caching mechanism saves (docs/caching.md, "The
mechanisms, measured"), on the benchmark's data set, without a server:

    DATA_DIR=... .venv/bin/python -m bench.mechanisms [--redis redis://127.0.0.1:PORT/0]

Each mechanism is measured on and off (patched out), on the same requests, through
Django's test client (every middleware), in `--rounds` rounds that alternate which side goes
first: the medians of the mean wall milliseconds per request, of this thread's CPU
milliseconds per request (what other jobs on a shared machine change least; a Redis server's
own time is in the wall figure only), of the hit ratio and of the commands sent to Redis.
`--redis` adds the shared-cache rows (RecentAnswers). A "miss" starts from emptied answer
caches and process memory; with Redis the namespace version keys stay (as in a running store:
they have no timeout), except in the row that says the versions were lost too. The horizon
rows give the CPU the first N misses after a cold start cost in all. Prints JSON on the last
line; bench/results/mechanisms-*.json keep past runs.
"""

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

REDIS_CALLS = [0]  # commands this process sent to Redis (with --redis)


def _count_redis_calls(delay_ms: float) -> None:
    """Count the commands sent to Redis; each waits `delay_ms` more (a Redis across a
    network: the local one answers in a few microseconds)."""
    import redis.client

    send = redis.client.Redis.execute_command

    def counted(self, *args, **kwargs):
        REDIS_CALLS[0] += 1
        if delay_ms:
            time.sleep(delay_ms / 1000)
        return send(self, *args, **kwargs)

    redis.client.Redis.execute_command = counted


def _timed(client, paths: list[str]) -> dict:
    hits = 0
    REDIS_CALLS[0] = 0
    started, cpu = time.perf_counter(), time.thread_time()
    for path in paths:
        response = client.get(path, HTTP_HOST="127.0.0.1")
        assert response.status_code == 200, (path, response.status_code, response.content[:200])
        hits += response.get("X-Cache") == "hit"
    seconds, cpu_seconds = time.perf_counter() - started, time.thread_time() - cpu
    return {
        "ms_per_request": round(1000 * seconds / len(paths), 3),
        "cpu_ms_per_request": round(1000 * cpu_seconds / len(paths), 3),
        "hits": hits / len(paths),
        "redis_calls_per_request": round(REDIS_CALLS[0] / len(paths), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="", help="a Redis URL for the shared-cache rows")
    parser.add_argument(
        "--redis-delay-ms", type=float, default=0, help="added to each Redis round trip"
    )
    parser.add_argument("--pages", type=int, default=300, help="random pages per measurement")
    parser.add_argument("--only", default="", help="the rows whose name contains this")
    parser.add_argument("--rounds", type=int, default=3, help="alternated rounds (medians)")
    args = parser.parse_args()
    if args.redis:
        os.environ["REDIS_URL"] = args.redis
        os.environ["CACHE_KEY_PREFIX"] = f"mechanisms-{os.getpid()}"
        _count_redis_calls(args.redis_delay_ms)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    import django

    django.setup()
    from django.core.cache import cache
    from django.test import Client

    from apikit import caching
    from bench import paths as bench_paths
    from bench.dataset.build import SEED
    from infra.caching import kept as kept_module

    folder = Path(os.environ["DATA_DIR"]) / "mechanism-paths"
    manifest = bench_paths.write(folder, seed=SEED, quotes=2000, carts=500)

    def lines(key: str) -> list[str]:
        return Path(manifest["rows"][key]["file"]).read_text().splitlines()

    rng = random.Random(SEED)
    reviews = rng.sample(lines("reviews"), k=min(args.pages, len(lines("reviews"))))
    comments = rng.sample(lines("comments"), k=min(args.pages, len(lines("comments"))))
    quotes = lines("quote")
    carts = rng.sample(lines("upsell"), k=min(args.pages, len(lines("upsell"))))
    client = Client()

    def cold(versions_too: bool = False) -> None:
        if args.redis and not versions_too:  # a running store's Redis keeps its versions
            cache.delete_many([key for key in cache.keys("*") if not key.startswith("ns-version:")])
        else:
            cache.clear()
        caching.RECENT_ANSWERS.clear()
        kept_module.kept_clear()

    def both(name: str, measure: Callable[[], dict], off: list) -> dict:
        """`measure()` with the mechanism and with `off` (patches) in place, alternated
        `--rounds` times: the medians (the machine is shared)."""
        if args.only not in name:
            return {}
        runs: dict[str, list[dict]] = {"with": [], "without": []}

        def without() -> None:
            with ExitStack() as stack:
                for patch in off:
                    stack.enter_context(patch)
                runs["without"].append(measure())

        for round_ in range(args.rounds):
            if round_ % 2:
                without()
            runs["with"].append(measure())
            if not round_ % 2:
                without()
        row = {
            side: {key: statistics.median(run[key] for run in found) for key in found[0]}
            for side, found in runs.items()
        }
        print(name, json.dumps(row), flush=True)
        return row

    def misses(paths: list[str], versions_too: bool = False) -> Callable[[], dict]:
        def measure() -> dict:
            cold(versions_too)
            _timed(client, paths[:5])  # store-wide data (categories, policies) kept first
            return _timed(client, paths[5:])

        return measure

    def horizon(paths: list[str]) -> Callable[[], dict]:
        """The CPU milliseconds the first N misses after a cold start cost in all (what a
        process spends to rebuild after a bump, by how many misses follow it)."""

        def measure() -> dict:
            cold()
            _timed(client, paths[:5])
            spent, total = {}, 0.0
            for count, path in enumerate(paths[5:], start=1):
                cpu = time.thread_time()
                client.get(path, HTTP_HOST="127.0.0.1")
                total += time.thread_time() - cpu
                if count in (10, 25, 50, 100, 200, 300, 600, 1000):
                    spent[f"cpu_ms_first_{count}"] = round(1000 * total, 1)
            return spent

        return measure

    def hits(paths: list[str]) -> Callable[[], dict]:
        def measure() -> dict:
            cold()
            _timed(client, paths)
            return _timed(client, paths)

        return measure

    def never_kept(kind, keys, namespaces, build, warm=None):
        return build(list(dict.fromkeys(keys)))

    results: dict = {"database": "sqlite", "cache": "redis" if args.redis else "locmem"}
    rows = results["rows"] = {}
    no_warm = [mock.patch("infra.caching.kept._to_warm", lambda kind, warm: [])]
    rows["warm batches: review page misses"] = both("warm reviews", misses(reviews), no_warm)
    if args.redis:
        rows["warm batches: review page misses, Redis versions lost too"] = both(
            "warm reviews versions lost", misses(reviews, versions_too=True), no_warm
        )
    rows["warm batches: comment page misses"] = both("warm comments", misses(comments), no_warm)
    rows["warm batches: random quote misses"] = both(
        "warm quotes", misses(rng.sample(quotes, k=min(args.pages, len(quotes)))), no_warm
    )
    rows["warm batches: random cart upsell misses"] = both("warm carts", misses(carts), no_warm)
    everything = rng.sample(lines("reviews"), k=len(lines("reviews")))
    rows["warm batches: CPU of the first N review page misses"] = both(
        "warm horizon reviews", horizon(everything[:605]), no_warm
    )
    rows["warm batches: CPU of the first N random quote misses"] = both(
        "warm horizon quotes", horizon(rng.sample(quotes, k=min(1005, len(quotes)))), no_warm
    )
    rows["summary fragments: review page misses"] = both(
        "fragments", misses(reviews), [mock.patch("catalog.api.fragments.kept_many", never_kept)]
    )
    no_snapshot = [mock.patch("apikit.context.per_request", contextlib.nullcontext)]
    rows["per-request version snapshot: review page hits"] = both(
        "snapshot hits", hits(reviews), no_snapshot
    )
    rows["per-request version snapshot: review page misses"] = both(
        "snapshot misses", misses(reviews), no_snapshot
    )
    if args.redis:
        rows["RecentAnswers: review page hits"] = both(
            "recent", hits(reviews), [mock.patch("apikit.caching._recent_answers", lambda: None)]
        )

    # Admission: ten popular review pages, each asked again after 50 one-off quotes (random
    # carts), with the local cache's bound small enough that those would push them out.
    def mixed() -> dict:
        cold()
        popular = reviews[:10]
        stream = []
        for index in range(300):  # five random carts' quotes, then a popular page
            stream += quotes[5 * index : 5 * index + 5]
            stream.append(popular[index % len(popular)])
        _timed(client, stream[:200])
        measured = [path for path in stream[200:] if path in popular]
        started = time.perf_counter()
        hits = 0
        for path in stream[200:]:
            response = client.get(path, HTTP_HOST="127.0.0.1")
            hits += path in popular and response.get("X-Cache") == "hit"
        seconds = time.perf_counter() - started
        return {
            "ms_per_request": round(1000 * seconds / len(stream[200:]), 3),
            "popular_hits": round(hits / len(measured), 3),
        }

    def plain_lru(self, key):
        if key in self._probation:  # a read only refreshes: one segment, a plain LRU
            self._probation.move_to_end(key)

    if not args.redis:
        from infra.caching import backend

        cache.get("-")  # the backend made, its segments with it
        segments = backend._segments["storefront"]
        bounds = segments.max_bytes, segments.protected_bytes_max
        segments.max_bytes, segments.protected_bytes_max = 256 * 1024, 205 * 1024
        try:
            rows["admission: popular review pages among one-off quotes (256 KB cache)"] = both(
                "admission",
                mixed,
                [mock.patch("infra.caching.admission.Segments.used", plain_lru)],
            )
        finally:
            segments.max_bytes, segments.protected_bytes_max = bounds
    from bench.harness import commit, python_and_cores, utc_now, write_result

    results |= {
        "when": utc_now(),
        "commit": commit(),
        "machine": python_and_cores(),
        "load_average_after": os.getloadavg(),
        "rounds": args.rounds,
        "pages": args.pages,
    }
    only = "-" + args.only.replace(" ", "-") if args.only else ""
    delay = f"-{args.redis_delay_ms:g}ms" if args.redis_delay_ms else ""
    results["redis_delay_ms"] = args.redis_delay_ms
    name = f"mechanisms-sqlite-{results['cache']}{delay}{only}.json"
    write_result(Path("bench/results") / name, results)
    print(json.dumps(results))


if __name__ == "__main__":
    sys.exit(main())
