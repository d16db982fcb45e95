"""Streaming importers (services) behind `import_postal_codes`, `import_shipping_rows` and
the shipping table's CSV upload in the admin."""

from .base import FileFormatError, ImportReport, Rejection
from .postal_codes import postal_codes_import
from .shipping_rows import shipping_rows_import

__all__ = [
    "FileFormatError",
    "ImportReport",
    "Rejection",
    "postal_codes_import",
    "shipping_rows_import",
]
