"""Admin of the feedback app."""
