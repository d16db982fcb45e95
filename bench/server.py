"""gunicorn for the benchmark: started with the production config on 127.0.0.1, its workers'
memory read from /proc, its log kept in a file (worker restarts are counted from it)."""

import os
import subprocess
import sys
from pathlib import Path

from bench.harness import gunicorn, status_of, stop_process, wait_until


class Server:
    """`gunicorn -c config/gunicorn.conf.py config.wsgi`, as `make serve` runs it."""

    def __init__(self, env: dict[str, str], *, port: int, workers: int, log: Path):
        self.port = port
        self.log = log
        self.env = {
            **env,
            "GUNICORN_BIND": f"127.0.0.1:{port}",
            "GUNICORN_WORKERS": str(workers),
        }
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "Server":
        if 0 < status_of(self.port, "/") < 500:
            sys.exit(f"Something already answers on 127.0.0.1:{self.port}: use --port.")
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("wb") as log:
            self.process = gunicorn(self.env, log)
        if not wait_until(lambda: 0 < status_of(self.port) < 500, self.process, 60, pause=0.3):
            self.stop()
            sys.exit(f"gunicorn did not come up; its log: {self.log}")
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        stop_process(self.process, group=True, timeout=40)

    def workers(self) -> list[int]:
        return worker_pids(self.process.pid) if self.process else []

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the workers have used so far."""
        return sum(cpu_seconds_of(pid) for pid in self.workers())

    def worker_restarts(self) -> int:
        """Workers booted after the first ones (max_requests recycling, crashes, timeouts)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        booted = text.count("Booting worker with pid")
        return max(0, booted - int(self.env["GUNICORN_WORKERS"]))


def worker_pids(master: int) -> list[int]:
    """Child processes of the gunicorn master (its workers), from /proc."""
    children = Path(f"/proc/{master}/task/{master}/children")
    try:
        return sorted(int(pid) for pid in children.read_text().split())
    except OSError:
        return []


def cpu_seconds_of(pid: int) -> float:
    """User + system CPU time of a process (/proc/<pid>/stat, fields 14 and 15)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()  # after "pid (comm)": state is field 3
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_of(pid: int) -> dict[str, float] | None:
    """Resident memory of a process in MiB: now (VmRSS) and at its peak (VmHWM)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return None
    values = {}
    for line in lines:
        key, _, rest = line.partition(":")
        if key in {"VmRSS", "VmHWM"}:
            values[key] = round(int(rest.split()[0]) / 1024, 1)  # kB -> MiB
    return {"rss_mb": values.get("VmRSS"), "peak_rss_mb": values.get("VmHWM")}
