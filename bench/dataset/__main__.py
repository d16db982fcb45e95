"""`python -m bench.dataset [--check] [--seed N]`: build the data set into a freshly
migrated database (settings from DJANGO_SETTINGS_MODULE, default bench.settings), or with
--check only tell whether the database holds it (exit status 3 when it does not). Both
print `describe()` as JSON on the last line of the output."""

import argparse
import json
import os
import sys
import time

import django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="default: build.SEED")
    parser.add_argument(
        "--check", action="store_true", help="exit 3 unless the database holds this data set"
    )
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    django.setup()
    from .build import FULL, SEED, build, describe, fingerprint, marker_read

    seed = SEED if args.seed is None else args.seed
    if args.check:
        if marker_read() != fingerprint(size=FULL, seed=seed):
            sys.exit(3)
        print(json.dumps(describe()))
        return
    started = time.perf_counter()
    print(f"Building the data set (seed {seed}):", flush=True)
    description = build(size=FULL, seed=seed, stdout=sys.stdout)
    print(f"  total: {time.perf_counter() - started:.1f} s")
    print(json.dumps(description))


if __name__ == "__main__":
    main()
