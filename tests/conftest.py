"""Shared fixtures: an API client, a clean cache per test, and plain-HTTP settings."""

import os

import pytest
from django.test.client import Client
from django.utils import translation
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from infra import deferred
from tests.helpers import cold_caches
from tests.write_guard import is_public_read, no_writes

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


@pytest.fixture(autouse=True)
def _reads_only_read(monkeypatch):
    """Every public GET/HEAD the suite makes through Django's test client (DRF's APIClient is
    one) runs under the write guard (tests/write_guard.py): a write fails the test. What the
    read recorded (infra.deferred) is then written, as a server's flusher thread would."""
    request = Client.request

    def guarded(self, **environ):
        method, path = environ.get("REQUEST_METHOD", "GET"), environ.get("PATH_INFO", "")
        if not is_public_read(method, path):
            response = request(self, **environ)
        else:
            with no_writes(f"{method} {path}"):
                response = request(self, **environ)
        if deferred.pending():
            deferred.flush()
        return response

    monkeypatch.setattr(Client, "request", guarded)
    yield
    deferred._buffer.clear()  # what a test left unflushed is not the next test's


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


@pytest.fixture(scope="session")
def demo_server(tmp_path_factory):
    """The demo store under `make run`'s environment, served by gunicorn, once per session
    (tests/storefront/live_demo.py)."""
    from tests.storefront.live_demo import MAKE, start_demo

    if MAKE is None:
        pytest.skip("the make program is not installed (the demo's environment is `make -s env`)")
    server = start_demo(tmp_path_factory.mktemp("demo"))
    yield server
    server.process.terminate()
    server.process.wait(timeout=10)
