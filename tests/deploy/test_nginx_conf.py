"""deploy/nginx.conf: valid for nginx, and it keeps slow clients away from gunicorn.

Runs the sample server block (ports, certificate and folders swapped for the test's own, on
127.0.0.1) in front of a real gunicorn with ONE sync worker, the easiest to pin: slow-body
clients talk to nginx, which buffers their bodies, so the worker keeps serving others.
Needs the nginx and openssl programs (skipped without them).
"""

import gzip
import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.storefront.live_gunicorn import free_port

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "deploy" / "nginx.conf"

NGINX = shutil.which("nginx")
OPENSSL = shutil.which("openssl")

pytestmark = pytest.mark.skipif(
    not (NGINX and OPENSSL),
    reason="needs the nginx and openssl programs",
)


def render(tmp_path: Path, *, http_port: int, https_port: int, upstream_port: int) -> Path:
    """The sample inside a minimal nginx.conf, pointed at the test's ports and folders."""
    subprocess.run(  # noqa: S603 - fixed command line
        [
            OPENSSL,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=shop.example.com",
            "-keyout",
            str(tmp_path / "key.pem"),
            "-out",
            str(tmp_path / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )
    (tmp_path / "static").mkdir()
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "a.txt").write_text("media file")
    (tmp_path / "static" / "site.css").write_text(
        "".join(f".c{n} {{ color: red; }}\n" for n in range(200))
    )
    server = (
        SAMPLE.read_text()
        .replace("listen 80;", f"listen 127.0.0.1:{http_port};")
        .replace("listen [::]:80;", "")
        .replace("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
        .replace("listen [::]:443 ssl http2;", "")
        .replace("127.0.0.1:8000", f"127.0.0.1:{upstream_port}")
        .replace("/etc/letsencrypt/live/shop.example.com/fullchain.pem", str(tmp_path / "cert.pem"))
        .replace("/etc/letsencrypt/live/shop.example.com/privkey.pem", str(tmp_path / "key.pem"))
        .replace("/srv/store/staticfiles/", f"{tmp_path}/static/")
        .replace("/srv/store/media/", f"{tmp_path}/media/")
        .replace("client_body_timeout 10s;", "client_body_timeout 2s;")
    )
    conf = tmp_path / "nginx.conf"
    # Run as root (CI), nginx's workers would drop to "nobody", who cannot read tmp_path.
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf.write_text(
        f"{user}pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\naccess_log off;\nclient_body_temp_path {tmp_path}/body;\n"
        f"proxy_temp_path {tmp_path}/proxy;\n{server}\n}}\n"
    )
    return conf


def test_the_sample_is_valid_for_nginx(tmp_path):
    conf = render(tmp_path, http_port=8880, https_port=8881, upstream_port=8882)
    result = subprocess.run(  # noqa: S603 - fixed command line
        [NGINX, "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


@pytest.fixture
def proxied(tmp_path, gunicorn_server):
    upstream = gunicorn_server(
        GUNICORN_WORKER_CLASS="sync",
        GUNICORN_WORKERS="1",
        GUNICORN_THREADS="1",
        HTTPS="1",
        TRUST_X_FORWARDED_PROTO="1",
        NUM_PROXIES="1",
        SERVE_MEDIA="0",
    )
    http_port = free_port()
    with socket.socket() as hold:  # keep it taken while another free port is picked
        hold.bind(("127.0.0.1", http_port))
        https_port = free_port()
    conf = render(tmp_path, http_port=http_port, https_port=https_port, upstream_port=upstream)
    nginx = subprocess.Popen(  # noqa: S603 - fixed command line
        [NGINX, "-c", str(conf), "-p", str(tmp_path), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", https_port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield http_port, https_port
    nginx.terminate()
    nginx.wait(timeout=10)


def tls_context() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def https_get(port: int, path: str, headers=None, timeout=5.0):
    connection = http.client.HTTPSConnection(
        "127.0.0.1", port, timeout=timeout, context=tls_context()
    )
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1", **(headers or {})})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def https_headers(port: int, path: str, headers=None) -> list[tuple[str, str]]:
    """Every header line of a GET's answer (repeated names kept)."""
    connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=5, context=tls_context())
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1", **(headers or {})})
        response = connection.getresponse()
        response.read()
        return response.getheaders()
    finally:
        connection.close()


def slow_body_client(port: int, stop: threading.Event) -> None:
    try:
        raw = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock = tls_context().wrap_socket(raw, server_hostname="shop.example.com")
        sock.sendall(
            b"POST /publics/payments/conditions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"
        )
        while not stop.wait(0.5):
            sock.sendall(b" ")
        sock.close()
    except OSError:
        pass


def test_slow_body_clients_never_reach_the_single_sync_worker(proxied):
    _, https_port = proxied
    stop = threading.Event()
    slow = [
        threading.Thread(target=slow_body_client, args=(https_port, stop), daemon=True)
        for _ in range(4)
    ]
    for thread in slow:
        thread.start()
    time.sleep(1)
    try:
        began = time.monotonic()
        for _ in range(20):
            status, _, _ = https_get(https_port, "/publics/payments/card-flags")
            assert status == 200
        assert time.monotonic() - began < 5
    finally:
        stop.set()


def test_a_stalled_body_is_dropped_by_nginx_not_held_by_gunicorn(proxied):
    _, https_port = proxied
    raw = socket.create_connection(("127.0.0.1", https_port), timeout=10)
    sock = tls_context().wrap_socket(raw, server_hostname="shop.example.com")
    sock.sendall(
        b"POST /publics/payments/conditions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    began = time.monotonic()
    answer = sock.recv(1024)  # nginx gives up after client_body_timeout (2 s in this test)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 408") or answer == b""
    assert time.monotonic() - began < 8
    assert https_get(https_port, "/publics/payments/card-flags")[0] == 200


def test_through_the_proxy_the_scheme_is_https_and_client_headers_are_not_trusted(proxied):
    http_port, https_port = proxied
    # HTTPS=1 and TRUST_X_FORWARDED_PROTO=1: nginx's X-Forwarded-Proto is trusted, so no redirect.
    status, _, body = https_get(https_port, "/nope")
    assert status == 404 and json.loads(body)["data"]["errorCode"] == "NOT_FOUND"
    # Plain HTTP: nginx redirects; a client's own X-Forwarded-Proto/-Ssl changes nothing.
    connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=5)
    connection.request(
        "GET", "/nope", headers={"X-Forwarded-Proto": "https", "X-Forwarded-Ssl": "on"}
    )
    assert connection.getresponse().status == 301
    connection.close()


def test_media_and_static_come_from_nginx(proxied):
    _, https_port = proxied
    status, _, body = https_get(https_port, "/media/a.txt")
    assert status == 200 and body == b"media file"


def test_answers_are_compressed_once_and_static_files_by_nginx(proxied):
    _, https_port = proxied
    gzip_please = {"Accept-Encoding": "gzip"}
    plain_status, _, plain = https_get(https_port, "/api/schema/?format=json")
    status, headers, body = https_get(https_port, "/api/schema/?format=json", gzip_please)

    # the application compressed it; nginx (which would gzip this type) left it alone
    assert (plain_status, status, headers["Content-Encoding"]) == (200, 200, "gzip")
    assert gzip.decompress(body) == plain
    vary = [
        value
        for name, value in https_headers(https_port, "/api/schema/?format=json", gzip_please)
        if name.lower() == "vary"
    ]
    assert ",".join(vary).lower().count("accept-encoding") == 1
    # a static file: compressed by nginx, with its Vary
    status, headers, body = https_get(https_port, "/static/site.css", gzip_please)
    assert (status, headers["Content-Encoding"], headers["Vary"]) == (
        200,
        "gzip",
        "Accept-Encoding",
    )
    assert gzip.decompress(body).startswith(b".c0 { color: red; }")
    # nothing for a client that does not ask
    assert "Content-Encoding" not in https_get(https_port, "/static/site.css")[1]
