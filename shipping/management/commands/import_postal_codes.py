"""manage.py import_postal_codes: load addresses from a GeoNames dump or a CSV file."""

from functools import partial

from django.conf import settings

from shipping.imports.postal_codes import CSV_COLUMNS, FORMATS, postal_codes_import

from ._progress import FileImportCommand


class Command(FileImportCommand):
    help = (
        "Import postal codes (upsert by country and code), streaming the file in batches. "
        "The format is told by the file: the GeoNames postal-code dump (tab-separated, "
        "country alpha-2 in the first column), or a CSV file with a header row of "
        + ", ".join(CSV_COLUMNS)
        + " and --country for the country of every line (default: the store's)."
    )
    description = "postal codes"

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
        super().add_arguments(parser)

    def importer(self, *, file_format, country, **options):
        return partial(postal_codes_import, file_format=file_format, country=country)
