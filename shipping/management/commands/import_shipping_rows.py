"""manage.py import_shipping_rows TABLE FILE: load a shipping table's rows from a CSV file."""

from functools import partial

from django.core.management.base import CommandError

from shipping.imports.shipping_rows import shipping_rows_import
from shipping.models import ROW_COLUMNS, ShippingTable

from ._progress import FileImportCommand


class Command(FileImportCommand):
    help = (
        "Import the rows of a shipping table from a CSV file with a header row: "
        + ", ".join(ROW_COLUMNS)
        + ". A line with the same ranges as an existing row updates it; others are added."
    )
    description = "rows"

    def add_arguments(self, parser):
        parser.add_argument("table", type=int, help="Id of the shipping table.")
        parser.add_argument("file", help="Path of the CSV file (UTF-8).")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="Delete the table's rows the file does not contain (only when no line is "
            "rejected).",
        )
        super().add_arguments(parser)

    def importer(self, *, table, replace, **options):
        shipping_table = ShippingTable.objects.select_related("carrier").filter(pk=table).first()
        if shipping_table is None:
            raise CommandError(f"There is no shipping table with id {table}.")
        self.stdout.write(f"Importing rows of {shipping_table} (table {shipping_table.pk}).")
        return partial(shipping_rows_import, table=shipping_table, replace=replace)
