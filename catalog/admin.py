"""Admin of the catalog app."""
