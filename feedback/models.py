"""Models of the feedback app."""
