"""Shared fixtures: an API client, a clean cache per test, and plain-HTTP settings."""

import os

import pytest
from django.utils import translation
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from tests.helpers import cold_caches

# No wall-clock deadlines (a loaded 2-core CI machine is slow); in CI the examples are
# derandomized so a run is reproducible and a new random example never blocks a landing.
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def _versions_file(tmp_path_factory):
    """This run's own namespace versions (another test run on the machine never bumps them)."""
    return tmp_path_factory.mktemp("cache") / "versions"


@pytest.fixture(autouse=True)
def _plain_http_and_clean_cache(settings, _versions_file):
    # Tests talk plain HTTP to the test server; production redirects to HTTPS.
    settings.SECURE_SSL_REDIRECT = False
    settings.CACHE_VERSIONS_FILE = _versions_file
    # Tests read English texts unless they ask for another language: the admin and the
    # customers' e-mails default to Portuguese in the demo (tests/i18n cover pt-BR).
    settings.ADMIN_LANGUAGE_CODE = "en"
    settings.CUSTOMER_LANGUAGE_CODE = "en"
    # A request leaves its language active in the thread (as in a server, where the next
    # request activates its own): a test without a request starts in LANGUAGE_CODE.
    translation.activate(settings.LANGUAGE_CODE)
    cold_caches()
    yield
    cold_caches()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def media_root(settings, tmp_path):
    """Uploaded files go to a temporary folder for the test."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def no_warming(monkeypatch):
    """Misses of read models build what they were asked for only, as when the catalogue's
    first products were all read already (infra.caching.kept.Warm)."""
    monkeypatch.setattr("infra.caching.kept._to_warm", lambda kind, warm: [])
