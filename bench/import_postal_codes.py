"""Import benchmark: `manage.py import_postal_codes --format geonames` on a generated file.

    .venv/bin/python bench/import_postal_codes.py [--rows 1000000] [--small-rows 100000]
        [--batch-size N]   (default: the command's own default)

Generates GeoNames-format files (tab-separated, Brazilian codes, all distinct) in a
temporary folder, migrates a fresh SQLite database there (or uses DATABASE_URL when set:
the imported codes are then left in that database), and runs the import command in a
child process for each file: the small file first, then the large one, each on an empty
table. Reports rows per second and the child's peak resident memory (getrusage
ru_maxrss), so the two runs show whether memory grows with the file size. Writes
bench/results/import_postal_codes.json, keeping the runs recorded there for the other
database (run once without and once with DATABASE_URL to record both).
"""

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import PYTHON, ROOT, django_env, last_json, manage

RESULT = ROOT / "bench" / "results" / "import_postal_codes.json"

STATES = [
    ("São Paulo", "SP"),
    ("Rio de Janeiro", "RJ"),
    ("Minas Gerais", "MG"),
    ("Bahia", "BA"),
    ("Paraná", "PR"),
    ("Rio Grande do Sul", "RS"),
    ("Pernambuco", "PE"),
    ("Ceará", "CE"),
]


def generate(path: Path, rows: int, *, seed: int = 1) -> int:
    """Write `rows` distinct GeoNames lines; the file size in bytes."""
    rng = random.Random(seed)
    step = 99_999_999 // rows
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for index in range(rows):
            number = index * step + rng.randrange(step)
            code = f"{number:08d}"
            state, state_code = STATES[number * len(STATES) // 100_000_000]
            latitude = -33.0 + rng.random() * 33.0
            longitude = -73.0 + rng.random() * 38.0
            out.write(
                f"BR\t{code[:5]}-{code[5:]}\tCidade {index % 5000}\t{state}\t{state_code}\t"
                f"Município {index % 900}\t{index % 900}\tBairro {index % 97}\t\t"
                f"{latitude:.4f}\t{longitude:.4f}\t4\n"
            )
    return path.stat().st_size


def child(file: str, batch_size: int | None) -> None:
    """Run the import in this process and print its timing and peak memory as JSON."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from io import StringIO

    from django.core.management import call_command
    from django.db import connection

    from shipping.imports.upsert import DEFAULT_BATCH_SIZE

    batch_size = batch_size or DEFAULT_BATCH_SIZE
    output = StringIO()
    started = time.perf_counter()
    call_command(
        "import_postal_codes",
        "--format",
        "geonames",
        file,
        "--batch-size",
        str(batch_size),
        stdout=output,
    )
    seconds = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(
        json.dumps(
            {
                "seconds": round(seconds, 2),
                "peak_rss_mib": round(peak_kib / 1024, 1),
                "summary": output.getvalue().strip().splitlines()[0],
                "database": connection.vendor,
                "batch_size": batch_size,
            }
        )
    )


CLEAR = """
from django.db import connection
from shipping.models import PostalCode
PostalCode.objects.all().delete()
if connection.vendor == "postgresql":  # empty, not a table of dead rows (autovacuum may lag)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE shipping_postalcode")
"""


def run_one(env, work: Path, rows: int, batch_size: int | None) -> dict:
    path = work / f"geonames-{rows}.txt"
    size = generate(path, rows)
    manage(env, "shell", "-v", "0", "-c", CLEAR)
    batch = ["--batch-size", str(batch_size)] if batch_size else []
    completed = subprocess.run(
        [PYTHON, __file__, "--child", str(path), *batch],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    measured = last_json(completed.stdout)
    path.unlink()
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "rows": rows,
        "file_mib": round(size / 2**20, 1),
        **measured,
        "rows_per_second": round(rows / measured["seconds"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--small-rows", type=int, default=100_000)
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.batch_size)
        return

    with tempfile.TemporaryDirectory(prefix="bench-postal-") as tmp:
        work = Path(tmp)
        values = {"DJANGO_SETTINGS_MODULE": "config.settings", "LOG_LEVEL": "WARNING"}
        env = django_env(work, values)
        manage(env, "migrate", "--noinput", "-v0")
        runs = []
        for rows in (args.small_rows, args.rows):
            print(f"Importing {rows} generated GeoNames rows ...", flush=True)
            result = run_one(env, work, rows, args.batch_size)
            print(
                f"  {result['rows_per_second']} rows/s, {result['seconds']} s, "
                f"peak RSS {result['peak_rss_mib']} MiB ({result['database']})",
                flush=True,
            )
            runs.append(result)

    write_report(runs)


def write_report(runs: list[dict]) -> None:
    """Record the runs, keeping the recorded runs of the other databases (SQLite, PostgreSQL)."""
    kept = []
    if RESULT.exists():
        database = runs[0]["database"]
        kept = [
            r
            for r in json.loads(RESULT.read_text()).get("runs", [])
            if r.get("database") != database
        ]
    report = {
        "benchmark": "import_postal_codes --format geonames",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "platform": platform.platform(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
        },
        "runs": kept + runs,
    }
    RESULT.parent.mkdir(parents=True, exist_ok=True)
    RESULT.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(f"Written {RESULT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
