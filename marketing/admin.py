"""Admin of the marketing app."""
