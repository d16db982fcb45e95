"""Import-command glue: a tqdm progress bar over a file's bytes (only on a terminal), and
the options, checks and open / import / summary sequence both import commands share."""

import os
import sys
from collections.abc import Callable
from contextlib import contextmanager

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from shipping.imports.base import FileFormatError, ImportReport
from shipping.imports.upsert import DEFAULT_BATCH_SIZE


class FileImportCommand(BaseCommand):
    """An import command: its own arguments, then --batch-size and --dry-run (its
    `add_arguments` ends with this one's). `importer(**options)` gives its import, called
    with the file's `stream`, `progress`, `batch_size` and `dry_run`: the file is read with
    a progress bar, its summary written on stdout; an unreadable or malformed file and an
    interrupted import are CommandErrors."""

    description: str  # what the progress bar counts

    def add_arguments(self, parser):
        parser.add_argument(
            "--batch-size",
            type=int,
            default=DEFAULT_BATCH_SIZE,
            help=f"Rows per upsert and transaction (default {DEFAULT_BATCH_SIZE}).",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="Read and validate only; write nothing."
        )

    def importer(self, **options) -> Callable[..., ImportReport]:
        raise NotImplementedError

    def handle(self, *args, file, batch_size, dry_run, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1.")
        run = self.importer(**options)
        try:
            with (
                open(file, "rb") as stream,
                file_progress(file, stdout=self.stdout, description=self.description) as progress,
            ):
                report = run(
                    stream=stream, progress=progress, batch_size=batch_size, dry_run=dry_run
                )
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror or exc}.") from None
        except FileFormatError as exc:
            raise CommandError(str(exc)) from None
        except KeyboardInterrupt:  # before the first batch (the header): nothing was written
            raise CommandError("Import interrupted.") from None
        for line in report.summary_lines():
            self.stdout.write(line)
        if report.interrupted:
            raise CommandError("Import interrupted.")


@contextmanager
def file_progress(path, *, stdout, description: str):
    """Yield a callback taking bytes read (None when stdout is not a terminal)."""
    if not stdout.isatty():  # a command's OutputWrapper, or a file
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
