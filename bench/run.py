"""Load benchmark: gunicorn serving the demo store on 127.0.0.1, a closed-loop load per
endpoint, requests/s and p50/p99 next to a constant-JSON view served by the same gunicorn.

    .venv/bin/python bench/run.py [--seconds 10] [--connections 8] [--workers 2]

Uses a fresh SQLite database in a temporary folder (or DATABASE_URL / REDIS_URL when set),
migrates and loads the demo store, then writes bench/results/latest.json and prints a table.
Traffic goes only to 127.0.0.1, and everything stops by itself.
"""

import argparse
import json
import os
import platform
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import Target, run  # noqa: E402

PYTHON = sys.executable


def bench_env(data_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "SECRET_KEY": secrets.token_urlsafe(48),
            "DATA_DIR": str(data_dir),
            "HTTPS": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # The load comes from one IP: keep throttles out of the measurement.
            "THROTTLE_PUBLIC_WRITE": "100000000/min",
            "LOG_LEVEL": "WARNING",
            "GUNICORN_ACCESSLOG": "/dev/null",
        }
    )
    env.pop("DJANGO_DEBUG", None)
    return env


def manage(env, *args):
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True)


def sample_ids(env) -> dict:
    """Ids of demo records to aim the load at (read through Django in a subprocess)."""
    code = r"""
import json
from django.apps import apps
out = {}
def first(label, **filters):
    try:
        model = apps.get_model(label)
    except LookupError:
        return None
    row = model.objects.filter(**filters).order_by("pk").values_list("pk", flat=True).first()
    return row
out["category"] = first("catalog.Category", active=True, parent__isnull=False)
out["product"] = first("catalog.Product", active=True, parent__isnull=True)
out["cart_product"] = first("catalog.Product", sku="DEMO-0001")
try:
    from django.db.models import Count
    Group = apps.get_model("marketing.BannerGroup")
    out["banner_codes"] = list(Group.objects.order_by("pk").values_list("code", flat=True)[:3])
except LookupError:
    out["banner_codes"] = []
try:
    Postal = apps.get_model("shipping.PostalCode")
    row = Postal.objects.order_by("pk").values_list("country", "code").first()
    out["postal"] = list(row) if row else None
except LookupError:
    out["postal"] = None
print(json.dumps(out))
"""
    result = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def targets(ids: dict) -> list[Target]:
    found = [
        Target("constant JSON (baseline)", "GET", "/bench/constant"),
        Target("card flags", "GET", "/publics/payments/card-flags"),
        Target(
            "payment conditions (3 items)",
            "POST",
            "/publics/payments/conditions",
            body=json.dumps(
                {"items": [{"reference": f"r{i}", "value": 100 + i * 37.5} for i in range(3)]}
            ).encode(),
        ),
        Target("category tree", "GET", "/publics/products/categories/tree"),
    ]
    if ids.get("category"):
        found.append(
            Target(
                "category subtree", "GET", f"/publics/products/categories/{ids['category']}/tree"
            )
        )
    if ids.get("banner_codes"):
        codes = ",".join(ids["banner_codes"])
        found.append(Target("banners", "GET", f"/api/v3/publics/template/banners?codes={codes}"))
    if ids.get("postal"):
        country, code = ids["postal"]
        found.append(
            Target("zipcode consult", "GET", f"/shipping/zipcode/consult/{country}/{code}")
        )
        if ids.get("product"):
            found.append(
                Target(
                    "shipping quote (1 item)",
                    "GET",
                    f"/publics/products/quote?targetZipCode={code}&targetCountryCode={country}"
                    f"&items[0][productId]={ids['product']}&items[0][quantity]=1",
                )
            )
    found += [
        Target(
            "upsell (cart)",
            "GET",
            f"/cart/upsell/cart?variationMap[{ids.get('cart_product') or 0}]=",
        ),
        Target("product reviews", "GET", "/review/product?limit=20"),
        Target("store reviews", "GET", "/review/sales-channel?limit=20"),
        Target("comments", "GET", "/publics/products/comments?limit=20"),
    ]
    return found


def wait_until_up(port: int, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not come up")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "latest.json"))
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="storefront-bench-") as tmp:
        env = bench_env(Path(tmp))
        manage(env, "migrate", "--noinput", "-v0")
        manage(env, "seed_demo")
        ids = sample_ids(env)
        env["GUNICORN_BIND"] = f"127.0.0.1:{args.port}"
        env["GUNICORN_WORKERS"] = str(args.workers)
        server = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        try:
            wait_until_up(args.port)
            results = []
            for target in targets(ids):
                run("127.0.0.1", args.port, target, seconds=1, connections=2)  # warm-up
                results.append(
                    run(
                        "127.0.0.1",
                        args.port,
                        target,
                        seconds=args.seconds,
                        connections=args.connections,
                    )
                )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)

    baseline = results[0]
    rows = []
    print(f"{'endpoint':34} {'req/s':>9} {'ratio':>6} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6}")
    for result in results:
        ratio = result.rps / baseline.rps if baseline.rps else 0
        print(
            f"{result.name:34} {result.rps:9.1f} {ratio:6.2f} {result.p50_ms:8.2f} "
            f"{result.p99_ms:8.2f} {result.errors:6d}"
        )
        rows.append(
            {
                "endpoint": result.name,
                "requests": result.requests,
                "errors": result.errors,
                "rps": round(result.rps, 1),
                "ratio_to_constant": round(ratio, 3),
                "p50_ms": round(result.p50_ms, 2),
                "p99_ms": round(result.p99_ms, 2),
            }
        )
    report = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "settings": {
            "seconds": args.seconds,
            "connections": args.connections,
            "gunicorn_workers": args.workers,
            "database": "DATABASE_URL" if os.environ.get("DATABASE_URL") else "sqlite",
            "cache": "redis" if os.environ.get("REDIS_URL") else "locmem",
        },
        "results": rows,
    }
    Path(args.output).write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwritten to {args.output}")


if __name__ == "__main__":
    main()
