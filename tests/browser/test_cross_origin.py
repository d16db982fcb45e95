"""A page on another origin calls the API from headless chromium (issue 33): the demo store
under `make run`'s environment with no setting changed (tests/storefront/live_demo.py), and a
page served from http://localhost:5173 (Vite's development origin) by a static server of the
test. Chromium maps that origin (and an unlisted one, http://localhost:4000) onto the static
server's free port, so the test never needs port 5173 itself."""

from __future__ import annotations

import functools
import http.server
import json
import threading

import pytest

from tests.storefront.live_gunicorn import free_port

from .conftest import CHROMEDRIVER, CHROMIUM, MISSING

pytestmark = [pytest.mark.browser, pytest.mark.skipif(MISSING is not None, reason=str(MISSING))]

PAGE = b"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Another origin</title></head><body><p>A page on another origin.</p></body></html>"""

# Runs in the page: each call gives its status, the headers a script may read and the body,
# or the error fetch() raised (a blocked call is a TypeError, "Failed to fetch").
CALL = """
const [url, init, done] = arguments;
fetch(url, init).then(async (response) => {
  const text = await response.text();
  done({status: response.status, etag: response.headers.get('ETag'),
        replayed: response.headers.get('Idempotent-Replayed'),
        limit: response.headers.get('RateLimit-Limit'),
        body: text ? JSON.parse(text) : null});
}).catch((error) => done({error: `${error.name}: ${error.message}`}));
"""


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def page_port():
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield port
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def chromium(page_port):
    from .admin_pages import start_chromium

    assert CHROMIUM and CHROMEDRIVER
    rules = f"MAP localhost:5173 127.0.0.1:{page_port}, MAP localhost:4000 127.0.0.1:{page_port}"
    driver = start_chromium(CHROMIUM, CHROMEDRIVER, f"--host-resolver-rules={rules}")
    driver.set_script_timeout(30)
    yield driver
    driver.quit()


def call(driver, url: str, **init) -> dict:
    return driver.execute_async_script(CALL, url, {"cache": "no-store", **init})


def test_a_page_on_another_origin_calls_gets_and_a_json_post(chromium, demo_server):
    api = demo_server.url
    chromium.get("http://localhost:5173/")
    assert chromium.execute_script("return location.origin") == "http://localhost:5173"
    fetch = functools.partial(call, chromium)

    flags = fetch(f"{api}/publics/payments/card-flags")
    assert "error" not in flags, flags  # a blocked call: the origin is not allowed
    assert flags["status"] == 200 and set(flags["body"]["data"]) >= {"visa", "master"}
    assert flags["etag"]  # exposed: the page can revalidate
    again = fetch(f"{api}/publics/payments/card-flags", headers={"If-None-Match": flags["etag"]})
    assert again["status"] == 304 and again["etag"] == flags["etag"]
    tree = fetch(f"{api}/publics/products/categories/tree")
    assert tree["status"] == 200 and tree["body"][0]["name"]
    reviews = fetch(f"{api}/review/product?condition%5Bscore%5D%5Bgte%5D=4&limit=5")
    assert reviews["status"] == 200
    registers = reviews["body"]["data"]["registers"]
    assert registers and all(review["score"] >= 4 for review in registers)
    banners = fetch(f"{api}/api/v3/publics/template/banners?codes=not-a-group")
    assert banners["status"] == 404  # a refusal the page can read: the error envelope
    assert banners["body"]["data"]["errorCode"] == "SERVICE_STORE_BANNER_GROUP_NOT_FOUND"

    items = [{"reference": "sku-1", "value": 199.9}]
    conditions = fetch(
        f"{api}/publics/payments/conditions",
        method="POST",
        headers={"Content-Type": "application/json"},
        body=json_text({"items": items}),
    )
    assert conditions["status"] == 200, conditions
    assert conditions["body"]["data"][0]["reference"] == "sku-1"

    interest = {
        "productId": registers[0]["productId"],
        "origin": "notify-me",
        "name": "Ana Souza",
        "email": "ana@example.com",
    }
    headers = {"Content-Type": "application/json", "Idempotency-Key": "browser-test-1"}
    created = fetch(
        f"{api}/publics/products/interests",
        method="POST",
        headers=headers,
        body=json_text(interest),
    )
    assert created["status"] == 201, created
    assert created["limit"]  # RateLimit-* exposed
    replay = fetch(
        f"{api}/publics/products/interests",
        method="POST",
        headers=headers,
        body=json_text(interest),
    )
    assert (replay["status"], replay["replayed"]) == (201, "true")
    assert replay["body"]["id"] == created["body"]["id"]


def test_an_unlisted_origin_is_blocked_by_the_browser(chromium, demo_server):
    chromium.get("http://localhost:4000/")
    blocked = call(chromium, f"{demo_server.url}/publics/payments/card-flags")
    assert blocked == {"error": "TypeError: Failed to fetch"}


def json_text(value) -> str:
    return json.dumps(value)
