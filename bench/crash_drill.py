"""Worker crash drill (issue 14): 1,500 back-in-stock e-mails sent by job workers that are
killed (SIGKILL) again and again; counts duplicates and losses.

    .venv/bin/python bench/crash_drill.py                       # SQLite (a fresh file)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/jobs_db .venv/bin/python bench/crash_drill.py

1. A fresh database (SQLite in a temporary folder, or the PostgreSQL database named by
   DATABASE_URL, flushed) gets one product in stock and 1,500 notify-me interests.
2. `manage.py send_stock_notifications` queues the 1,500 e-mails (one job each).
3. Two `manage.py jobs_worker` processes run them; every 1.5-4 s one of them, at random,
   is killed with SIGKILL (mid-job more often than not) and a new one started. Jobs left
   running by a killed worker are made ready again after the lease (JOBS_LEASE_SECONDS=2).
4. Every e-mail is written by Django's file backend (one file per message). Duplicates:
   messages whose Message-ID was written more than once; losses: interests with no message.

Writes bench/results/crash_drill-<database>.json (and prints it). The machine is shared:
the timings vary from run to run; the counts are what the drill is for.
"""

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
MESSAGE_ID = re.compile(rb"^Message-ID: (<[^>]+>)", re.MULTILINE)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--interests", type=int, default=1500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    work = Path(tempfile.mkdtemp(prefix="crash-drill-"))
    mail_dir = work / "mail"
    mail_dir.mkdir()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.jobs_settings",
        "DATA_DIR": str(work),
        "SECRET_KEY": "crash-drill-only",
        "HTTPS": "0",
        "DRILL_EMAIL_DIR": str(mail_dir),
        "JOBS_LEASE_SECONDS": "2",
        "ERROR_EMAILS": "0",
    }
    env.pop("REDIS_URL", None)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from catalog.models import ProductInterest
    from jobs.models import OutboundEmail
    from tests.catalog.factories import ProductFactory, StockFactory

    database = connection.vendor
    call_command("migrate", verbosity=0)
    if database == "postgresql":
        call_command("flush", "--no-input", verbosity=0)
    product = ProductFactory(name="Drill shirt")
    StockFactory(product=product, available=10)
    ProductInterest.objects.bulk_create(
        ProductInterest(
            product=product, origin="notify-me", name=f"C {i}", email=f"c{i}@example.com"
        )
        for i in range(args.interests)
    )
    connection.close()

    started = time.monotonic()
    subprocess.run(
        [PYTHON, "manage.py", "send_stock_notifications"],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    queued_seconds = time.monotonic() - started

    def start_worker() -> subprocess.Popen:
        return subprocess.Popen(
            [
                PYTHON,
                "manage.py",
                "jobs_worker",
                "--no-reload",
                "--no-startup-delay",
                "--interval",
                "0.2",
                "-v",
                "0",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    workers = [start_worker() for _ in range(args.workers)]
    kills = 0
    run_started = time.monotonic()
    try:
        while time.monotonic() - run_started < args.timeout:
            time.sleep(rng.uniform(1.5, 4.0))
            left = OutboundEmail.objects.filter(status="queued").count()
            connection.close()
            if left == 0:
                break
            victim = rng.randrange(len(workers))
            workers[victim].send_signal(signal.SIGKILL)
            workers[victim].wait()
            kills += 1
            workers[victim] = start_worker()
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                worker.kill()
    run_seconds = time.monotonic() - run_started

    ids: Counter[bytes] = Counter()
    files = 0
    for path in mail_dir.iterdir():
        files += 1
        ids.update(MESSAGE_ID.findall(path.read_bytes()))
    expected = {
        f"<back-in-stock.{pk}@store.example>".encode()
        for pk in ProductInterest.objects.values_list("pk", flat=True)
    }
    statuses = Counter(OutboundEmail.objects.values_list("status", flat=True))
    result = {
        "database": database,
        "interests": args.interests,
        "workers": args.workers,
        "kills": kills,
        "messages_written": sum(ids.values()),
        "files": files,
        "unique_message_ids": len(ids),
        "duplicates": sum(n - 1 for n in ids.values() if n > 1),
        "losses": len(expected - set(ids)),
        "unexpected_ids": len(set(ids) - expected),
        "outbound_email_statuses": dict(statuses),
        "queue_seconds": round(queued_seconds, 1),
        "send_seconds_with_kills": round(run_seconds, 1),
        "note": "2-core machine shared by ~8 engineers; timings vary, the counts matter",
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    out = ROOT / "bench" / "results" / f"crash_drill-{database}.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0 if result["losses"] == 0 and statuses.get("queued", 0) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
