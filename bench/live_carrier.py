"""The live-carrier row's setup (issue 22): a shipping table of kind live for Brazil whose
integration asks the fake carrier (bench/fake_carrier.py) that bench/run.py serves on a
free port; added just before the row and removed right after, so the table-only quote rows
never see it.

    .venv/bin/python -m bench.live_carrier add http://127.0.0.1:PORT
    .venv/bin/python -m bench.live_carrier remove

Run with the server's environment (settings, DATA_DIR, DATABASE_URL, REDIS_URL,
CACHE_KEY_PREFIX): the save bumps the shipping namespace, which every gunicorn worker reads.
"""

import os
import sys

CARRIER = "Bench live carrier"
TOKEN_VARIABLE = "BENCH_CARRIER_TOKEN"  # noqa: S105 (a variable name, not a token)
# The row measures the calling path: the budget never stops a call (the carrier's answers
# are cached for 5 minutes, so each random cart and postal code calls once per run).
CALLS_PER_MINUTE = 10_000_000


def remove() -> None:
    from shipping.models import Carrier

    for carrier in Carrier.objects.filter(name=CARRIER):
        for table in carrier.tables.all():
            table.delete()  # its integration and call log go with it
        carrier.delete()


def add(url: str) -> int:
    """The live table's id (an earlier one removed first)."""
    from shipping.models import Carrier, CarrierIntegration, ShippingTable, ShippingTableKind

    remove()
    table = ShippingTable.objects.create(
        label="Live carrier",
        carrier=Carrier.objects.create(name=CARRIER),
        kind=ShippingTableKind.LIVE,
        country="BRA",
    )
    CarrierIntegration.objects.create(
        table=table,
        base_url=url,
        token_variable=TOKEN_VARIABLE,
        calls_per_minute=CALLS_PER_MINUTE,
    )
    return table.pk


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    import django

    django.setup()
    if sys.argv[1:2] == ["add"] and len(sys.argv) == 3:
        print(add(sys.argv[2]))
    elif sys.argv[1:] == ["remove"]:
        remove()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
