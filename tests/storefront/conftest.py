"""Fixtures of the storefront tests."""

from .live_gunicorn import gunicorn_server  # noqa: F401 - a real gunicorn on 127.0.0.1
