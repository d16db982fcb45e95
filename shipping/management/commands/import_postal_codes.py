"""manage.py import_postal_codes: load addresses from a GeoNames dump or a CSV file."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from shipping.imports.postal_codes import CSV_COLUMNS, FORMATS, postal_codes_import

from ._progress import add_batch_arguments, run_file_import


class Command(BaseCommand):
    help = (
        "Import postal codes (upsert by country and code), streaming the file in batches. "
        "The format is told by the file: the GeoNames postal-code dump (tab-separated, "
        "country alpha-2 in the first column), or a CSV file with a header row of "
        + ", ".join(CSV_COLUMNS)
        + " and --country for the country of every line (default: the store's)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="Path of the file (UTF-8).")
        parser.add_argument(
            "--format",
            choices=FORMATS,
            dest="file_format",
            help="Only to overrule the format told by the file.",
        )
        parser.add_argument(
            "--country",
            default=settings.STORE_COUNTRY,
            help="ISO 3166-1 alpha-3 (or alpha-2) country of a CSV file (default: the store's, "
            "STORE_COUNTRY).",
        )
        add_batch_arguments(parser)

    def handle(self, *args, file, file_format, country, batch_size, dry_run, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1.")
        run_file_import(
            self,
            path=file,
            description="postal codes",
            run=postal_codes_import,
            file_format=file_format,
            country=country,
            dry_run=dry_run,
            batch_size=batch_size,
        )
