"""The load benchmark's table and the facts recorded next to it (machine, versions)."""

import os
import platform
import statistics
import subprocess
from pathlib import Path

from bench import wrk
from bench.harness import ROOT, commit
from bench.targets import CHURN_GOAL, GZIP_GOAL, Target

MEMORY_GOAL_MB = 150  # issue 9: after the whole run
MEMORY_GOAL_RANDOM_MB = 200  # issue 19: after the random-key rows
DRIFT_WARNING = 0.15  # the ceiling's checks differ by more: warn
CEILING_EVERY = 6  # rows measured between two checks of the ceiling


def median_of(runs, attribute: str) -> float:
    return statistics.median(getattr(run, attribute) for run in runs) if runs else 0.0


def hit_ratio(runs) -> float | None:
    """Cache hits over the answers counted (X-Cache hit or miss) in all the runs; None
    when the rows' answers were not counted."""
    counted = [run for run in runs if run.cache_counted]
    answered = sum(run.cache_hits + run.cache_misses for run in counted)
    return sum(run.cache_hits for run in counted) / answered if answered else None


def ceiling_report(checks: list[Target]) -> dict:
    """The constant view's requests/s: the median of all its runs (measured before the
    rows, after every CEILING_EVERY rows and after the last), and how far its checks moved
    apart (the machine's load changing); and its workers' CPU time per request, the same way."""
    every = [check.runs for check in checks]
    ceiling = {
        "rps": round(median_of([run for runs in every for run in runs], "rps"), 1),
        "before_rps": round(median_of(checks[0].runs, "rps"), 1),
        "after_rps": round(median_of(checks[-1].runs, "rps"), 1),
        "checks_rps": [round(median_of(runs, "rps"), 1) for runs in every],
        "cpu_ms_per_request": round(
            statistics.median([ms for check in checks for ms in check.cpu_ms]), 3
        ),
    }
    low, high = min(ceiling["checks_rps"]), max(ceiling["checks_rps"])
    ceiling["drift"] = round((high - low) / high, 3) if high else 0.0
    return ceiling


def local_ceilings(rows: list[Target], checks: list[int], ceilings: list[Target]) -> None:
    """Set each row's `ceiling_rps`: the mean of the constant view's checks measured just
    before and just after it (`checks[i]`: the index of the check before row i), so a row is
    compared with the machine as it was when the row ran, not with its start or end."""
    rps = [median_of(check.runs, "rps") for check in ceilings]
    for row, before in zip(rows, checks, strict=True):
        after = min(before + 1, len(rps) - 1)
        row.ceiling_rps = (rps[before] + rps[after]) / 2


def _memory_verdict(workers: list[dict], goal_mb: float) -> str:
    biggest = max((worker["rss_mb"] for worker in workers), default=None)
    if biggest is None:
        return "unknown"
    return "met" if biggest < goal_mb else "not met"


def memory_report(
    workers: list[dict | None], restarts: int, *, after_random: list[dict | None] | None = None
) -> dict:
    """The workers' memory after the whole run (issue 9's goal) and, when random-key rows
    ran, right after the last of them (issue 19's goal)."""
    workers = [worker for worker in workers if worker]
    report = {
        "workers": workers,
        "goal_mb": MEMORY_GOAL_MB,
        "verdict": _memory_verdict(workers, MEMORY_GOAL_MB),
        "worker_restarts": restarts,
    }
    if after_random is not None:
        after = [worker for worker in after_random if worker]
        report["after_random_rows"] = {
            "workers": after,
            "goal_mb": MEMORY_GOAL_RANDOM_MB,
            "verdict": _memory_verdict(after, MEMORY_GOAL_RANDOM_MB),
        }
    return report


def churn_report(rows: list[dict]) -> None:
    """Churn rows: their rate as a fraction of the same row's without churn (its runs taken
    between theirs), against CHURN_GOAL; the verdict replaces theirs (they have no goal of
    their own)."""
    for row in rows:
        if row.get("group") != "churn":
            continue
        base = row["rps_without_churn"]
        ratio = row["rps"] / base if base else None
        row["x_without_churn"] = round(ratio, 3) if ratio is not None else None
        row["goal_x_without_churn"] = CHURN_GOAL
        if row["verdict"].startswith("FAILED"):
            continue
        if ratio is None:
            row["verdict"] = "-"
            row["problem"] = row["problem"] or "no run without churn completed a request"
        else:
            row["verdict"] = "met" if ratio >= CHURN_GOAL else "not met"


def gzip_report(rows: list[dict]) -> None:
    """Gzip rows: their rate as a fraction of the same row's without Accept-Encoding, in the
    same run, against GZIP_GOAL, and their bytes beside the plain row's; the verdict replaces
    theirs (their goal is this one)."""
    by_name = {row["endpoint"]: row for row in rows}
    for row in rows:
        plain = by_name.get(row.get("plain_row") or "")
        if plain is None:
            continue
        ratio = row["rps"] / plain["rps"] if plain["rps"] else None
        row["x_plain"] = round(ratio, 3) if ratio is not None else None
        row["goal_x_plain"] = GZIP_GOAL
        row["plain_response_bytes"] = plain["response_bytes"]
        if row["verdict"].startswith("FAILED"):
            continue
        row["verdict"] = "-" if ratio is None else "met" if ratio >= GZIP_GOAL else "not met"


def _churn_fields(target: Target) -> dict:
    """A churn row's runs without churn (taken between its own) and the churn's counts."""
    summaries = [summary for summary in target.churn_runs if summary]
    seconds = sum(summary["seconds"] for summary in summaries)
    saves = sum(summary["saves"] for summary in summaries)
    ratio_hits = hit_ratio(target.runs_without_churn)
    return {
        "without_churn": target.without_churn,
        "rps_without_churn": round(median_of(target.runs_without_churn, "rps"), 1),
        "cache_hit_ratio_without_churn": None if ratio_hits is None else round(ratio_hits, 3),
        "cpu_ms_per_request_without_churn": (
            round(statistics.median(target.cpu_ms_without_churn), 3)
            if target.cpu_ms_without_churn
            else None
        ),
        "runs_without_churn": [
            {
                "rps": round(run.rps, 1),
                "p50_ms": run.p50_ms,
                "p99_ms": run.p99_ms,
                "requests": run.requests,
                "errors": run.errors,
                "cache_hit_ratio": None if run.hit_ratio is None else round(run.hit_ratio, 3),
            }
            for run in target.runs_without_churn
        ],
        "churn": {
            "rate_asked": summaries[0]["rate_asked"] if summaries else None,
            "saves": saves,
            "errors": sum(summary["errors"] for summary in summaries),
            "saves_per_second": round(saves / seconds, 1) if seconds else 0.0,
            "slowest_save_ms": max((s["slowest_save_ms"] for s in summaries), default=None),
            "runs": summaries,
        },
    }


def row_report(target: Target, ceiling_cpu_ms: float) -> dict:
    """The row's figures; `x_ceiling` against the constant view measured next to it."""
    ceiling = target.ceiling_rps
    rps = median_of(target.runs, "rps")
    cpu_ms = statistics.median(target.cpu_ms) if target.cpu_ms else 0.0
    errors = sum(run.errors for run in target.runs)
    ratio = rps / ceiling if ceiling and target.runs else 0.0
    ratio_hits = hit_ratio(target.runs)
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
        "ceiling_rps": round(ceiling, 1),
        "cpu_ms_per_request": round(cpu_ms, 3),
        "x_ceiling_cpu": round(ceiling_cpu_ms / cpu_ms, 3) if cpu_ms else 0.0,
        "goal_x_ceiling": target.goal,
        "verdict": verdict,
        "group": target.group,
        "accept_encoding": target.accept_encoding or None,
        "plain_row": target.plain_row,
        "paths": target.paths or None,
        "cache_hit_ratio": None if ratio_hits is None else round(ratio_hits, 3),
        "cache_hits": sum(run.cache_hits for run in target.runs),
        "cache_misses": sum(run.cache_misses for run in target.runs),
        "cache_uncounted": sum(run.cache_uncounted for run in target.runs),
        **(_churn_fields(target) if target.group == "churn" else {}),
        **({"carrier_calls": target.carrier_calls} if target.live else {}),
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
                "cache_hit_ratio": None if run.hit_ratio is None else round(run.hit_ratio, 3),
            }
            for run, cpu_ms in zip(target.runs, target.cpu_ms, strict=True)
        ],
    }


def print_table(rows: list[dict], memory: dict, ceiling: dict) -> None:
    width = max(30, *(len(row["endpoint"]) for row in rows))
    header = (
        f"{'endpoint':{width}} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'x ceil':>7} "
        f"{'goal':>6} {'CPU ms':>7} {'x CPU':>6} {'KB':>6} {'hits':>5} {'errors':>6}  verdict"
    )
    print("\n" + header + "\n" + "-" * len(header))
    for row in rows:
        goal = f">={row['goal_x_ceiling']}" if row["goal_x_ceiling"] is not None else "-"
        hits = row.get("cache_hit_ratio")
        hits = f"{hits:.0%}" if hits is not None else "-"
        errors = row["status_errors"] + row["socket_errors"]
        verdict = row["verdict"]
        if row.get("x_without_churn") is not None:
            verdict += (
                f" ({row['x_without_churn']:.2f} x without churn, goal >="
                f"{row['goal_x_without_churn']})"
            )
        if row.get("x_plain") is not None:
            verdict += f" ({row['x_plain']:.2f} x plain, goal >={row['goal_x_plain']})"
        print(
            f"{row['endpoint']:{width}} {row['rps']:8,.0f} {row['p50_ms']:8.1f} "
            f"{row['p99_ms']:8.1f} {row['x_ceiling']:7.3f} {goal:>6} "
            f"{row['cpu_ms_per_request']:7.2f} {row['x_ceiling_cpu']:6.3f} "
            f"{row['response_bytes'] / 1024:6.1f} {hits:>5} "
            f"{errors:6d}  {verdict}"
        )
        if row["problem"]:
            print(f"{'':{width}} ! {row['problem']}")
    judged = [
        row
        for row in rows
        if row["goal_x_ceiling"] is not None or row.get("goal_x_without_churn") is not None
    ]
    met = sum(row["verdict"] == "met" for row in judged)
    failed = [row["endpoint"] for row in rows if row["verdict"].startswith("FAILED")]
    print(
        f"\nGoals met: {met} of {len(judged)}."
        + (f" FAILED: {', '.join(failed)}." if failed else "")
    )
    checks = ", ".join(f"{rps:,.0f}" for rps in ceiling["checks_rps"])
    print(
        f"Ceiling (constant view): {ceiling['rps']:,.0f} req/s, median of its runs; measured "
        f"{len(ceiling['checks_rps'])} times ({checks}): each row's x ceiling is against the "
        "mean of the checks just before and after it."
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
    after = memory.get("after_random_rows")
    if after:
        workers = ", ".join(
            f"{w['rss_mb']:.0f} MB (peak {w['peak_rss_mb']:.0f})" for w in after["workers"]
        )
        print(
            f"Worker memory after the random-key rows: {workers or 'unknown'}; goal < "
            f"{after['goal_mb']} MB: {after['verdict']}."
        )
    if any(row.get("cache_hit_ratio") is not None for row in rows):
        print(
            "hits: share of the random-key rows' answers served from the rendered-answer "
            "cache (X-Cache: hit, over hit + miss, all runs)."
        )
    churned = [row for row in rows if row.get("churn")]
    for row in churned:
        churn = row["churn"]
        hits = row["cache_hit_ratio_without_churn"]
        print(
            f"Churn ({row['endpoint']}): {churn['saves']:,} stock saves "
            f"({churn['saves_per_second']:g}/s, asked {churn['rate_asked']:g}/s, "
            f"{churn['errors']} failed, slowest {churn['slowest_save_ms']} ms); without churn "
            f"(runs in between): {row['rps_without_churn']:,.0f} req/s"
            + (f", {hits:.0%} cache hits." if hits is not None else ".")
        )
    if churned and churned[0].get("churn_note"):
        print(f"NOTE: {churned[0]['churn_note']}.")


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
        "git_commit": commit() + ("-dirty" if dirty else ""),
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
