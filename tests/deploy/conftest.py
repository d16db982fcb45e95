"""Fixtures of the deployment tests."""

from tests.storefront.live_gunicorn import gunicorn_server  # noqa: F401 - real gunicorn
