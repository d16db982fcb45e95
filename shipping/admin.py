"""Admin of the shipping app."""
