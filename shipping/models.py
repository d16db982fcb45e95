"""Models of the shipping app."""
