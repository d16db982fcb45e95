"""The load benchmark's table and the facts recorded next to it (machine, versions)."""

import os
import platform
import statistics
import subprocess
from pathlib import Path

from bench import wrk
from bench.targets import Target

ROOT = Path(__file__).resolve().parent.parent
MEMORY_GOAL_MB = 150
DRIFT_WARNING = 0.15  # the ceiling before and after the rows differ by more: warn


def median_of(runs, attribute: str) -> float:
    return statistics.median(getattr(run, attribute) for run in runs) if runs else 0.0


def ceiling_report(before: Target, after: Target) -> dict:
    """The constant view's requests/s: the median of all its runs, before and after the
    other rows, and how far the two moved apart (the machine's load changing); and its
    workers' CPU time per request, the same way."""
    ceiling = {
        "rps": round(median_of(before.runs + after.runs, "rps"), 1),
        "before_rps": round(median_of(before.runs, "rps"), 1),
        "after_rps": round(median_of(after.runs, "rps"), 1),
        "cpu_ms_per_request": round(statistics.median(before.cpu_ms + after.cpu_ms), 3),
    }
    low, high = sorted([ceiling["before_rps"], ceiling["after_rps"]])
    ceiling["drift"] = round((high - low) / high, 3) if high else 0.0
    return ceiling


def memory_report(workers: list[dict | None], restarts: int) -> dict:
    workers = [worker for worker in workers if worker]
    biggest = max((worker["rss_mb"] for worker in workers), default=None)
    if biggest is None:
        verdict = "unknown"
    else:
        verdict = "met" if biggest < MEMORY_GOAL_MB else "not met"
    return {
        "workers": workers,
        "goal_mb": MEMORY_GOAL_MB,
        "verdict": verdict,
        "worker_restarts": restarts,
    }


def row_report(target: Target, ceiling: float, ceiling_cpu_ms: float) -> dict:
    rps = median_of(target.runs, "rps")
    cpu_ms = statistics.median(target.cpu_ms) if target.cpu_ms else 0.0
    errors = sum(run.errors for run in target.runs)
    ratio = rps / ceiling if ceiling and target.runs else 0.0
    if target.runs and not all(run.requests for run in target.runs):
        target.problem = target.problem or "a run completed no request"
    if target.problem:
        verdict = "FAILED"
    elif errors:
        verdict = "FAILED (errors)"
    elif target.goal is None:
        verdict = "-"
    else:
        verdict = "met" if ratio >= target.goal else "not met"
    return {
        "endpoint": target.name,
        "request": f"{target.method} {target.path}",
        "status": target.status,
        "response_bytes": target.size,
        "rps": round(rps, 1),
        "p50_ms": round(median_of(target.runs, "p50_ms"), 2),
        "p99_ms": round(median_of(target.runs, "p99_ms"), 2),
        "x_ceiling": round(ratio, 3),
        "cpu_ms_per_request": round(cpu_ms, 3),
        "x_ceiling_cpu": round(ceiling_cpu_ms / cpu_ms, 3) if cpu_ms else 0.0,
        "goal_x_ceiling": target.goal,
        "verdict": verdict,
        "requests": sum(run.requests for run in target.runs),
        "status_errors": sum(run.status_errors for run in target.runs),
        "socket_errors": sum(run.socket_errors for run in target.runs),
        "problem": target.problem,
        "runs": [
            {
                "rps": round(run.rps, 1),
                "p50_ms": run.p50_ms,
                "p99_ms": run.p99_ms,
                "max_ms": run.max_ms,
                "requests": run.requests,
                "errors": run.errors,
                "cpu_ms_per_request": round(cpu_ms, 3),
            }
            for run, cpu_ms in zip(target.runs, target.cpu_ms, strict=True)
        ],
    }


def print_table(rows: list[dict], memory: dict, ceiling: dict) -> None:
    header = (
        f"{'endpoint':30} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'x ceil':>7} "
        f"{'goal':>6} {'CPU ms':>7} {'x CPU':>6} {'KB':>6} {'errors':>6}  verdict"
    )
    print("\n" + header + "\n" + "-" * len(header))
    for row in rows:
        goal = f">={row['goal_x_ceiling']}" if row["goal_x_ceiling"] is not None else "-"
        errors = row["status_errors"] + row["socket_errors"]
        print(
            f"{row['endpoint']:30} {row['rps']:8,.0f} {row['p50_ms']:8.1f} {row['p99_ms']:8.1f} "
            f"{row['x_ceiling']:7.3f} {goal:>6} {row['cpu_ms_per_request']:7.2f} "
            f"{row['x_ceiling_cpu']:6.3f} "
            f"{row['response_bytes'] / 1024:6.1f} "
            f"{errors:6d}  {row['verdict']}"
        )
        if row["problem"]:
            print(f"{'':30} ! {row['problem']}")
    judged = [row for row in rows if row["goal_x_ceiling"] is not None]
    met = sum(row["verdict"] == "met" for row in judged)
    failed = [row["endpoint"] for row in rows if row["verdict"].startswith("FAILED")]
    print(
        f"\nGoals met: {met} of {len(judged)}."
        + (f" FAILED: {', '.join(failed)}." if failed else "")
    )
    print(
        f"Ceiling (constant view): {ceiling['rps']:,.0f} req/s, median of its runs "
        f"before ({ceiling['before_rps']:,.0f}) and after ({ceiling['after_rps']:,.0f}) the rest."
    )
    print(
        "CPU ms: the workers' CPU time per request (user + system, median of the runs); "
        "x CPU: the constant view's divided by the row's. Other jobs on the machine move it "
        "far less than req/s; time spent in a database or cache server is not in it."
    )
    if ceiling["drift"] > DRIFT_WARNING:
        print(
            f"WARNING: the ceiling moved {ceiling['drift']:.0%} during the run: the machine's "
            "load changed (other jobs?), so the ratios are uncertain. Run again when idle."
        )
    workers = ", ".join(
        f"{w['rss_mb']:.0f} MB (peak {w['peak_rss_mb']:.0f})" for w in memory["workers"]
    )
    print(
        f"Worker memory after the run (VmRSS): {workers or 'unknown'}; goal < {MEMORY_GOAL_MB} MB: "
        f"{memory['verdict']}. Worker restarts during the run: {memory['worker_restarts']}."
    )


def machine(config: dict, env: dict, tool: str) -> dict:
    """Where and with what the numbers were taken."""
    from importlib.metadata import version

    def first(path: str, key: str) -> str | None:
        try:
            for line in Path(path).read_text().splitlines():
                if line.startswith(key):
                    return line.split(":", 1)[1].strip()
        except OSError:
            return None
        return None

    memory_kb = first("/proc/meminfo", "MemTotal")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.strip()
    info = {
        "platform": platform.platform(),
        "cpu": first("/proc/cpuinfo", "model name"),
        "cpus": os.cpu_count(),
        "memory_gb": round(int(memory_kb.split()[0]) / 1024**2, 1) if memory_kb else None,
        "python": platform.python_version(),
        "django": version("django"),
        "gunicorn": version("gunicorn"),
        "wrk": wrk.wrk_version(tool),
        "git_commit": commit + ("-dirty" if dirty else ""),
    }
    if config["database"] == "sqlite":
        import sqlite3

        info["sqlite"] = sqlite3.sqlite_version
    else:
        import psycopg

        with psycopg.connect(env["DATABASE_URL"]) as connection:
            info["postgresql"] = connection.execute("SHOW server_version").fetchone()[0]
    if config["cache"] == "redis":
        import redis

        info["redis"] = redis.Redis.from_url(env["REDIS_URL"]).info("server")["redis_version"]
    return info
