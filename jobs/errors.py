"""Refusals of the jobs app."""


class EmailNotSent(Exception):
    """The e-mail backend refused a message; the job is retried later."""
