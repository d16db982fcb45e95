"""Slow-body clients against gunicorn worker classes (issue 11, item 9), on 127.0.0.1 only.

Starts gunicorn (config/gunicorn.conf.py, the real settings, SQLite in a temporary folder)
for each worker class, opens N "slow body" connections that announce a body and then send
one byte per second (never finishing within the run), and meanwhile measures how many fast
requests (GET /publics/payments/card-flags, no database) one closed-loop client completes,
with their p50/p99 latency and how many timed out (5 s). One line per scenario; results in
bench/results/slow_clients.json.

    .venv/bin/python bench/slow_clients.py [--seconds 10] [--port 8885]
"""

import argparse
import http.client
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import ROOT, django_env, gunicorn, status_of, stop_process, wait_until

FAST_PATH = "/publics/payments/card-flags"
SCENARIOS = [
    # (label, worker class, workers, threads, worker connections, slow clients)
    ("sync 2x1", "sync", 2, 1, 1000, 0),
    ("sync 2x1", "sync", 2, 1, 1000, 1),
    ("sync 2x1", "sync", 2, 1, 1000, 2),
    ("gthread 2x4 wc1000", "gthread", 2, 4, 1000, 0),
    ("gthread 2x4 wc1000", "gthread", 2, 4, 1000, 4),
    ("gthread 2x4 wc4", "gthread", 2, 4, 4, 0),
    ("gthread 2x4 wc4", "gthread", 2, 4, 4, 4),
    ("gthread 2x4 wc4", "gthread", 2, 4, 4, 6),
    ("gthread 2x4 wc4", "gthread", 2, 4, 4, 7),
    ("gthread 2x4 wc4", "gthread", 2, 4, 4, 8),
]


def start(
    port: int, worker_class: str, workers: int, threads: int, connections: int, data_dir: str
):
    values = {
        "HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKER_CLASS": worker_class,
        "GUNICORN_WORKERS": str(workers),
        "GUNICORN_THREADS": str(threads),
        "GUNICORN_WORKER_CONNECTIONS": str(connections),
        "GUNICORN_ACCESSLOG": "/dev/null",
        "GUNICORN_LOGLEVEL": "warning",
    }
    env = django_env(Path(data_dir), values, drop={"DATABASE_URL", "REDIS_URL"})
    process = gunicorn(env, subprocess.DEVNULL)
    if not wait_until(lambda: status_of(port, FAST_PATH) > 0, process, 30, pause=0.2):
        stop_process(process, group=True, timeout=10)
        raise SystemExit("gunicorn did not start")
    return process


def slow_client(port: int, stop: threading.Event) -> None:
    """Announce a 100 kB JSON body, then send one byte per second until told to stop."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(
            b"POST /publics/payments/conditions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
        )
        while not stop.wait(1.0):
            sock.sendall(b" ")
        sock.close()
    except OSError:
        pass  # the server dropped it: fine, that is what a defence does


def fast_client(port: int, seconds: float) -> dict:
    latencies, timeouts, errors = [], 0, 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        began = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", FAST_PATH)
            status = connection.getresponse().status
            connection.close()
            if status == 200:
                latencies.append(time.monotonic() - began)
            else:
                errors += 1
        except TimeoutError:
            timeouts += 1
        except OSError:
            errors += 1
    ordered = sorted(latencies)
    return {
        "ok": len(latencies),
        "timeouts": timeouts,
        "errors": errors,
        "p50_ms": round(statistics.median(ordered) * 1000, 1) if ordered else None,
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1)
        if ordered
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--port", type=int, default=8885)
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as data_dir:
        for label, worker_class, workers, threads, connections, slow in SCENARIOS:
            process = start(args.port, worker_class, workers, threads, connections, data_dir)
            done = threading.Event()
            try:
                slow_threads = [
                    threading.Thread(target=slow_client, args=(args.port, done), daemon=True)
                    for _ in range(slow)
                ]
                for thread in slow_threads:
                    thread.start()
                time.sleep(1.0)  # let the slow clients reach the workers
                figures = fast_client(args.port, args.seconds)
            finally:
                done.set()
                stop_process(process, group=True, timeout=30)
            result = {"scenario": label, "slow_clients": slow, **figures}
            results.append(result)
            print(
                f"{label:19} slow={slow:2}  ok={figures['ok']:5}  timeouts={figures['timeouts']:3}"
                f"  errors={figures['errors']:3}  p50={figures['p50_ms']} ms"
                f"  p99={figures['p99_ms']} ms",
                flush=True,
            )
    out = ROOT / "bench" / "results" / "slow_clients.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"seconds": args.seconds, "results": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
