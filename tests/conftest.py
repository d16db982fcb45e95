"""Shared fixtures: an API client, a clean cache per test, and plain-HTTP settings."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient


@pytest.fixture(autouse=True)
def _plain_http_and_clean_cache(settings):
    # Tests talk plain HTTP to the test server; production redirects to HTTPS.
    settings.SECURE_SSL_REDIRECT = False
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def media_root(settings, tmp_path):
    """Uploaded files go to a temporary folder for the test."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT
