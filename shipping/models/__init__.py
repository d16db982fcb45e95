"""Models of the shipping app: postal codes, carriers, shipping tables and rows, pickups."""

from .imports import ImportKind, JobStatus, PostalImportJob, StagedImport
from .postal_codes import PostalCode
from .tables import (
    MAX_ORDER_VALUE,
    MAX_WEIGHT,
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
    "Carrier",
    "ImportKind",
    "JobStatus",
    "Pickup",
    "PickupType",
    "PostalCode",
    "PostalImportJob",
    "ShippingRow",
    "ShippingTable",
    "ShippingTableKind",
    "StagedImport",
]
