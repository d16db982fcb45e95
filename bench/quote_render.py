"""In-process render time of the shipping quote's answer on the bench data set: the compiled
renderer (apikit.compiled, what the endpoint runs) against DRF's `QuoteResponseSerializer(...)
.data`, on random quotes of 1-3 priced products to a postal code inside a Brazilian row
(bench/paths.py's draw), half of them with explain and deliveryDates. Checks that both give
the same bytes, then times only the render (not the quote, not the JSON encoding).

    .venv/bin/python -m bench.quote_render [--quotes 400] [--rounds 5]

Needs the SQLite data set (data/bench/sqlite, built by `make bench` or
`python -m bench.dataset`); writes bench/results/quote_render.json.
"""

import argparse
import json
import os
import platform
import random
import secrets
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    os.environ.setdefault("DATA_DIR", str(ROOT / "data" / "bench" / "sqlite"))
    os.environ.setdefault("HTTPS", "0")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(48))
    import django

    django.setup()


def draw(count: int, seed: int) -> list:
    """(outcome, summaries) of `count` random quotes."""
    from bench.paths import _priced_products
    from catalog.api.fragments import product_summaries
    from catalog.models import TradePolicy
    from shipping.models import ShippingRow, ShippingTable
    from shipping.quoting import shipping_quote_get

    rng, products = random.Random(seed), [pk for pk, _ in _priced_products()]
    tables = ShippingTable.objects.active().filter(country="BRA")
    rows = ShippingRow.objects.filter(table__in=tables).order_by("id")
    ranges = [(int(a), int(b)) for a, b in rows.values_list("initial_zipcode", "final_zipcode")]
    policy = TradePolicy.objects.default().pk
    quotes = []
    for index in range(count):
        low, high = ranges[rng.randrange(len(ranges))]
        chosen = rng.sample(products, k=rng.randint(1, 3))
        outcome = shipping_quote_get(
            items=[(pk, rng.randint(1, 3)) for pk in chosen],
            country="BRA",
            zip_code=f"{rng.randint(low, high):08d}",
            trade_policy_id=policy,
            explain=index % 2 == 1,
            delivery_dates=index % 2 == 1,
        )
        summaries = product_summaries(outcome.product_ids, base_url="http://127.0.0.1:8870/")
        quotes.append((outcome, summaries))
    return quotes


def per_quote_ms(render, quotes: list, rounds: int) -> list[float]:
    """Each quote's best render time over `rounds` rounds, in ms."""
    best = [float("inf")] * len(quotes)
    for _ in range(rounds):
        for index, (outcome, summaries) in enumerate(quotes):
            began = time.perf_counter()
            render(outcome, summaries)
            best[index] = min(best[index], (time.perf_counter() - began) * 1000)
    return best


def summary(times: list[float]) -> dict:
    cuts = statistics.quantiles(times, n=10)
    return {
        "median_ms": round(statistics.median(times), 4),
        "p10_ms": round(cuts[0], 4),
        "p90_ms": round(cuts[-1], 4),
        "mean_ms": round(statistics.fmean(times), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quotes", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    setup()
    from apikit.compiled import renderer
    from apikit.renderers import json_bytes
    from shipping.api.serializers import QuoteResponseSerializer

    quotes = draw(args.quotes, args.seed)
    compiled = renderer(QuoteResponseSerializer)

    def fast(outcome, summaries):
        return compiled(outcome, summaries=summaries)

    def drf(outcome, summaries):
        return QuoteResponseSerializer(outcome, context={"summaries": summaries}).data

    for outcome, summaries in quotes:
        if json_bytes(fast(outcome, summaries)) != json_bytes(drf(outcome, summaries)):
            raise SystemExit(f"the compiled answer differs from .data: {outcome}")
    result = {
        "machine": platform.platform(),
        "python": platform.python_version(),
        "quotes": args.quotes,
        "rounds": args.rounds,
        "identical_bytes": True,
        "compiled": summary(per_quote_ms(fast, quotes, args.rounds)),
        "drf_serializer": summary(per_quote_ms(drf, quotes, max(1, args.rounds // 2))),
    }
    (ROOT / "bench" / "results" / "quote_render.json").write_text(
        json.dumps(result, indent=2) + "\n"
    )
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
