"""Models of the catalog app."""
