"""Admin of the shipping app, one module per area: postal codes, carriers and shipping tables
(rows, pickup points), carrier integrations, holidays, and the CSV import screens they share."""

from . import carriers, holidays, postal_codes, tables  # noqa: F401
