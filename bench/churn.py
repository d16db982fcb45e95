"""Stock churn for the load benchmark: saves the stock of random products through the ORM,
`--rate` times a second, the way an order or an ERP feed does (`stock.save()`, so the
signals fire and the products' cached answers are retired), for at most `--seconds`.

    .venv/bin/python -m bench.churn [--rate 20] [--seconds 60] [--seed N]

Run by bench/run.py with the server's environment (settings, DATA_DIR, DATABASE_URL,
REDIS_URL, CACHE_KEY_PREFIX) while the churn rows run; it stops by itself at the deadline
or on SIGTERM/SIGINT, and prints what it did as JSON on its last line ("BENCH_CHURN {...}").

Its invalidations reach the gunicorn workers with or without Redis
(infra/caching/versions.py: the namespace versions live in Redis, or in a file every process
of the machine maps).
"""

import argparse
import json
import os
import random
import signal
import time

PREFIX = "BENCH_CHURN "


def churn(*, rate: float, seconds: float, seed: int, stopping=lambda: False) -> dict:
    """Save the stock of random products `rate` times a second (a fixed cadence: a late
    save does not shift the next ones) until `seconds` have passed or `stopping()`; what
    was done, as a dict."""
    from django.db import DatabaseError

    from catalog.models import Stock

    rng = random.Random(f"{seed}:churn")
    ids = list(Stock.objects.in_active_storages().order_by("id").values_list("id", flat=True))
    if not ids:
        raise RuntimeError("no stock rows to churn")
    started = time.monotonic()
    deadline = started + seconds
    saves = errors = late = 0
    slowest = 0.0
    while not stopping():
        due = started + (saves + errors) / rate
        now = time.monotonic()
        if due >= deadline:
            break
        if due > now:
            time.sleep(min(due - now, 0.5))
            continue
        if now - due > 1 / rate:
            late += 1
        began = time.monotonic()
        try:
            stock = Stock.objects.get(pk=ids[rng.randrange(len(ids))])
            stock.available = rng.choice([0, 3, 8, 15, 40])
            stock.save()
            saves += 1
        except (DatabaseError, Stock.DoesNotExist):
            errors += 1
        slowest = max(slowest, time.monotonic() - began)
    elapsed = time.monotonic() - started
    return {
        "rate_asked": rate,
        "saves": saves,
        "errors": errors,
        "late": late,  # saves that started more than one interval after their time
        "seconds": round(elapsed, 1),
        "saves_per_second": round(saves / elapsed, 1) if elapsed else 0.0,
        "slowest_save_ms": round(slowest * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=20, help="stock saves per second")
    parser.add_argument("--seconds", type=float, default=60, help="stop after (at most)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.rate <= 0 or args.seconds <= 0:
        parser.error("--rate and --seconds must be positive")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    import django

    django.setup()
    stopping = False

    def stop(*_) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print("ready", flush=True)
    summary = churn(rate=args.rate, seconds=args.seconds, seed=args.seed, stopping=lambda: stopping)
    print(PREFIX + json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
