"""Job engine figures (issue 14): jobs per second, and the latency a job adds to a public write.

    .venv/bin/python bench/jobs_bench.py                       # SQLite (a fresh file)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/jobs_db .venv/bin/python bench/jobs_bench.py

1. Throughput: N e-mails queued (jobs.services.email_enqueue, console e-mail backend with
   output discarded), then `manage.py jobs_worker --batch` with 1 and then 2 processes;
   jobs per second = N / wall time until the queue is empty (process start-up included).
2. Latency: `POST /publics/products/interests` (a new interest each time, in-process Django
   test client, so no network) R times with no webhook endpoint (no job) and R times with
   one endpoint subscribed to `interest.created` (the request also renders the payload and
   writes one delivery and one job row); median and p95 of each, and the difference.

Short runs on a 2-core machine shared by ~8 engineers: the figures vary run to run.
Writes bench/results/jobs_bench-<database>.json.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import ROOT, jobs_django, jobs_worker, utc_now, write_result


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def figures(times: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(times), 2), "p95": round(percentile(times, 0.95), 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    env, database = jobs_django(
        Path(tempfile.mkdtemp(prefix="jobs-bench-")),
        {
            "THROTTLE_PUBLIC_WRITE": "1000000/min",
            "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
        },
        drop={"DRILL_EMAIL_DIR"},
    )
    from django.db import connection, transaction
    from django.test import Client

    from jobs.models import OutboundEmail
    from jobs.services import email_enqueue
    from tests.catalog.factories import ProductFactory
    from webhooks.models import Endpoint

    throughput = {}
    for workers in (1, 2):
        with transaction.atomic():
            for i in range(args.jobs):
                email_enqueue(
                    key=f"bench.{workers}.{i}", to=f"c{i}@example.com", subject="Hi", text="Hello"
                )
        connection.close()
        started = time.monotonic()
        procs = [jobs_worker(env, "--batch") for _ in range(workers)]
        for proc in procs:
            proc.wait()
        seconds = time.monotonic() - started
        sent = OutboundEmail.objects.filter(key__startswith=f"bench.{workers}.", status="sent")
        assert sent.count() == args.jobs, "not every job ran"
        throughput[f"{workers}_worker"] = {
            "jobs": args.jobs,
            "seconds": round(seconds, 2),
            "jobs_per_second": round(args.jobs / seconds, 1),
        }

    product = ProductFactory()
    client = Client(HTTP_HOST="127.0.0.1")

    def timed_posts(tag: str) -> list[float]:
        times = []
        for i in range(args.requests):
            body = {
                "productId": product.pk,
                "origin": "notify-me",
                "name": "Ana",
                "email": f"{tag}{i}@example.com",
            }
            started = time.perf_counter()
            response = client.post(
                "/publics/products/interests", body, content_type="application/json"
            )
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 201, response.content
        return times

    timed_posts("warm")  # caches, connections
    without = timed_posts("a")
    Endpoint.objects.create(url="http://127.0.0.1:9/none", events=["interest.created"])
    with_job = timed_posts("b")
    latency = {
        "requests_each": args.requests,
        "no_job_ms": figures(without),
        "with_job_ms": figures(with_job),
    }
    latency["added_median_ms"] = round(
        latency["with_job_ms"]["median"] - latency["no_job_ms"]["median"], 2
    )
    result = {
        "database": database,
        "throughput": throughput,
        "public_write_latency": latency,
        "note": "short runs on a 2-core machine shared by ~8 engineers; figures vary",
        "when": utc_now(),
    }
    write_result(ROOT / "bench" / "results" / f"jobs_bench-{database}.json", result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
