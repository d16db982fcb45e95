"""Models of the shipping app: postal codes, carriers, shipping tables and rows, pickups,
holidays, carrier integrations."""

# ruff: noqa: F401  (this module re-exports the models other modules import)

from .holidays import Holiday, HolidayScope
from .imports import ImportKind, JobStatus, PostalFileFormat, PostalImportJob, StagedImport
from .integrations import CallStatus, CarrierCall, CarrierIntegration
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
