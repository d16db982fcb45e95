"""A small closed-loop HTTP load generator (keep-alive connections, one thread each).

Pure standard library so the benchmark needs nothing beyond the project's venv.
"""

import http.client
import statistics
import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    name: str
    method: str
    path: str
    body: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Result:
    name: str
    requests: int
    errors: int
    seconds: float
    p50_ms: float
    p99_ms: float

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def _worker(host, port, target, deadline, latencies, errors, lock):
    conn = http.client.HTTPConnection(host, port, timeout=10)
    headers = dict(target.headers)
    if target.body is not None:
        headers.setdefault("Content-Type", "application/json")
    local, local_errors = [], 0
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        try:
            conn.request(target.method, target.path, body=target.body, headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status >= 400:
                local_errors += 1
        except (OSError, http.client.HTTPException):
            local_errors += 1
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=10)
            continue
        local.append((time.perf_counter() - start) * 1000)
    conn.close()
    with lock:
        latencies.extend(local)
        errors.append(local_errors)


def run(host: str, port: int, target: Target, *, seconds: float, connections: int) -> Result:
    latencies: list[float] = []
    errors: list[int] = []
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds
    threads = [
        threading.Thread(
            target=_worker, args=(host, port, target, deadline, latencies, errors, lock)
        )
        for _ in range(connections)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    if latencies:
        ordered = sorted(latencies)
        p50 = statistics.median(ordered)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    else:
        p50 = p99 = 0.0
    return Result(target.name, len(latencies), sum(errors), elapsed, p50, p99)
