"""Models of the shipping app: postal codes, carriers, shipping tables and rows, pickups,
holidays."""

from .holidays import Holiday, HolidayScope
from .imports import ImportKind, JobStatus, PostalFileFormat, PostalImportJob, StagedImport
from .postal_codes import PostalCode
from .tables import (
    MAX_ORDER_VALUE,
    MAX_WEIGHT,
    ROW_COLUMNS,
    VARIABLE_FIELDS,
    Carrier,
    Pickup,
    PickupType,
    ShippingRow,
    ShippingTable,
    ShippingTableKind,
)

__all__ = [
    "MAX_ORDER_VALUE",
    "MAX_WEIGHT",
    "ROW_COLUMNS",
    "VARIABLE_FIELDS",
    "Carrier",
    "Holiday",
    "HolidayScope",
    "ImportKind",
    "JobStatus",
    "Pickup",
    "PickupType",
    "PostalCode",
    "PostalFileFormat",
    "PostalImportJob",
    "ShippingRow",
    "ShippingTable",
    "ShippingTableKind",
    "StagedImport",
]
