"""wrk, the load tool of the benchmark: installed when missing, run with bench/wrk.lua."""

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "wrk.lua"
RESULT_PREFIX = "BENCH_RESULT "


@dataclass(frozen=True)
class WrkRun:
    """One wrk run, as its done() callback reported it."""

    requests: int
    seconds: float
    bytes: int
    status_errors: int  # responses with a status of 400 or more
    socket_errors: int  # connect, read and write errors, and timeouts
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    cache_hits: int = 0  # answers with X-Cache: hit (counted with count_cache only)
    cache_misses: int = 0  # X-Cache: miss
    cache_uncounted: int = 0  # answers without the header (errors, uncached views)
    cache_counted: bool = False
    paths: int = 0  # the paths file's lines (random-key rows)

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def errors(self) -> int:
        return self.status_errors + self.socket_errors

    @property
    def hit_ratio(self) -> float | None:
        """Hits over the answers that said hit or miss; None when not counted."""
        answered = self.cache_hits + self.cache_misses
        return self.cache_hits / answered if self.cache_counted and answered else None


def ensure_wrk() -> str:
    """The path of wrk; installs the Debian package when it is missing and we are root."""
    found = shutil.which("wrk")
    if found:
        return found
    if os.name == "posix" and os.geteuid() == 0 and shutil.which("apt-get"):
        print("wrk is missing: installing the Debian package (apt-get install -y wrk)")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        command = ["apt-get", "install", "-y", "-q", "wrk"]
        if subprocess.run(command, env=env, check=False).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, check=False)
            subprocess.run(command, env=env, check=False)
        found = shutil.which("wrk")
        if found:
            return found
    sys.exit(
        "The benchmark needs wrk (https://github.com/wg/wrk). Install it, e.g. "
        "`sudo apt-get install wrk` on Debian/Ubuntu or `brew install wrk` on macOS, "
        "then run `make bench` again (as root on Debian it installs itself)."
    )


def wrk_version(wrk: str) -> str:
    result = subprocess.run([wrk, "-v"], capture_output=True, text=True, check=False)
    return (result.stdout or result.stderr).splitlines()[0].strip()


def run(
    wrk: str,
    url: str,
    *,
    seconds: float,
    connections: int,
    threads: int,
    timeout: float,
    method: str = "GET",
    body: str = "",
    paths_file: str = "",
    count_cache: bool = False,
    seed: int = 1,
    accept_encoding: str = "",
) -> WrkRun:
    """Drive `url` for `seconds` and return what wrk measured (latency in milliseconds).

    With `paths_file`, each request is a random line of it (on `url`'s host and port);
    with `count_cache`, the answers' X-Cache headers are counted (wrk's response()
    callback, which makes wrk parse every answer's headers); `accept_encoding` is sent as
    the Accept-Encoding header (wrk's `bytes` are then the compressed bytes)."""
    assert url.startswith("http://127.0.0.1:"), "the benchmark only loads 127.0.0.1"
    command = [
        wrk,
        f"--threads={threads}",
        f"--connections={connections}",
        f"--duration={max(1, round(seconds))}s",
        f"--timeout={max(1, round(timeout))}s",
        f"--script={SCRIPT}",
        url,
    ]
    env = {
        **os.environ,
        "BENCH_METHOD": method,
        "BENCH_BODY": body,
        "BENCH_PATHS_FILE": paths_file,
        "BENCH_COUNT_CACHE": "1" if count_cache else "0",
        "BENCH_SEED": str(seed),
        "BENCH_ACCEPT_ENCODING": accept_encoding,
    }
    result = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=seconds + 60, check=False
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith(RESULT_PREFIX)]
    if result.returncode != 0 or not lines:
        raise RuntimeError(f"wrk failed ({result.returncode}): {result.stderr or result.stdout}")
    raw = json.loads(lines[-1][len(RESULT_PREFIX) :])
    return WrkRun(
        requests=raw["requests"],
        seconds=raw["duration_us"] / 1e6,
        bytes=raw["bytes"],
        status_errors=raw["status_errors"],
        socket_errors=raw["connect_errors"]
        + raw["read_errors"]
        + raw["write_errors"]
        + raw["timeouts"],
        p50_ms=raw["p50_us"] / 1000,
        p90_ms=raw["p90_us"] / 1000,
        p99_ms=raw["p99_us"] / 1000,
        max_ms=raw["max_us"] / 1000,
        cache_hits=raw.get("cache_hits", 0),
        cache_misses=raw.get("cache_misses", 0),
        cache_uncounted=raw.get("cache_uncounted", 0),
        cache_counted=bool(raw.get("cache_counted", False)),
        paths=raw.get("paths", 0),
    )
