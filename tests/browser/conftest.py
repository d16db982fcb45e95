"""The browser suite: headless Debian chromium against pytest-django's live server.

Runs when the `chromium` and `chromedriver` programs (Debian packages chromium and
chromium-driver) and the selenium package are there; otherwise every test is skipped with
the missing program named. Nothing is downloaded. A failing step leaves screenshots and
page HTML in tmp/artifacts/browser/<test>/ (BROWSER_ARTIFACTS overrides the folder).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import threading
from pathlib import Path

import pytest
from django.test import override_settings

CHROMIUM = os.environ.get("CHROMIUM_BIN") or shutil.which("chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN") or shutil.which("chromedriver")
ARTIFACTS = Path(
    os.environ.get("BROWSER_ARTIFACTS")
    or Path(__file__).resolve().parents[2] / "tmp" / "artifacts" / "browser"
)


def missing_program() -> str | None:
    if CHROMIUM is None:
        return "the chromium program (Debian package chromium) is not installed"
    if CHROMEDRIVER is None:
        return "the chromedriver program (Debian package chromium-driver) is not installed"
    if importlib.util.find_spec("selenium") is None:
        return "the selenium package is not installed (pip install -r requirements-dev.txt)"
    return None


MISSING = missing_program()


@pytest.fixture(scope="session")
def chromium_driver(plain_http_live_server):
    """One headless chromium for the session. It depends on the live server so that it quits
    first: its keep-alive connections then close while the server still shares the test
    database connection with its request threads."""
    if MISSING:
        pytest.skip(MISSING)
    from .admin_pages import start_chromium

    assert CHROMIUM and CHROMEDRIVER
    driver = start_chromium(CHROMIUM, CHROMEDRIVER)
    yield driver
    driver.quit()
    for thread in threading.enumerate():
        if "process_request_thread" in thread.name:
            thread.join(timeout=5)


@pytest.fixture(scope="session")
def plain_http_live_server(request):
    """pytest-django's live server, started with the HTTPS redirect off.

    Django's SecurityMiddleware reads SECURE_SSL_REDIRECT once, when the server thread builds
    its handler, which is before any function-scoped `settings` change could apply.
    """
    if MISSING:
        pytest.skip(MISSING)
    with override_settings(SECURE_SSL_REDIRECT=False):
        return request.getfixturevalue("live_server")


@pytest.fixture
def browser(chromium_driver, plain_http_live_server, settings, tmp_path, request):
    """A fresh session in the shared chromium, on the live server, plain HTTP."""
    from .admin_pages import Browser

    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.MEDIA_ROOT = tmp_path / "media"
    chromium_driver.delete_all_cookies()
    artifacts = ARTIFACTS / request.node.name
    shutil.rmtree(artifacts, ignore_errors=True)
    session = Browser(chromium_driver, plain_http_live_server.url, artifacts)
    yield session
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.passed:
        shutil.rmtree(artifacts, ignore_errors=True)  # artifacts are kept for failures only
    chromium_driver.get("about:blank")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.rep_call = report
    return report
