"""Import-command glue: a tqdm progress bar over a file's bytes (only on a terminal), and
the options and open / import / summary sequence both import commands share."""

import os
import sys
from contextlib import contextmanager

from django.core.management.base import CommandError
from tqdm import tqdm

from shipping.imports.base import FileFormatError
from shipping.imports.upsert import DEFAULT_BATCH_SIZE


def add_batch_arguments(parser) -> None:
    parser.add_argument(
        "--batch-size",
        type=int,
        default=DEFAULT_BATCH_SIZE,
        help=f"Rows per upsert and transaction (default {DEFAULT_BATCH_SIZE}).",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="Read and validate only; write nothing."
    )


@contextmanager
def file_progress(path, *, stdout, description: str):
    """Yield a callback taking bytes read (None when stdout is not a terminal)."""
    isatty = getattr(stdout, "isatty", None)
    if not (isatty and isatty()):
        yield None
        return
    with tqdm(
        total=os.path.getsize(path),
        unit="B",
        unit_scale=True,
        desc=description,
        file=sys.stderr,
        leave=False,
    ) as bar:
        yield bar.update


def run_file_import(command, *, path, description: str, run, **arguments):
    """`run(stream=..., progress=..., **arguments)` on the file `path` with a progress bar,
    its summary on the command's stdout; unreadable or malformed files and an interrupted
    import are CommandErrors."""
    try:
        with (
            open(path, "rb") as stream,
            file_progress(path, stdout=command.stdout, description=description) as progress,
        ):
            report = run(stream=stream, progress=progress, **arguments)
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc.strerror or exc}.") from None
    except FileFormatError as exc:
        raise CommandError(str(exc)) from None
    for line in report.summary_lines():
        command.stdout.write(line)
    if report.interrupted:
        raise CommandError("Import interrupted.")
