"""Models of the marketing app."""
