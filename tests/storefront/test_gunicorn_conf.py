"""config/gunicorn.conf.py: forwarded-scheme trust follows TRUST_X_FORWARDED_PROTO."""

import os
import runpy
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from gunicorn.config import Config

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "config" / "gunicorn.conf.py"


def load_conf(monkeypatch, **env: str) -> Config:
    """The conf module read with `env`, applied to gunicorn's own Config (its validators)."""
    for name in ("TRUST_X_FORWARDED_PROTO", "GUNICORN_FORWARDED_ALLOW_IPS", "FORWARDED_ALLOW_IPS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    namespace = runpy.run_path(str(CONF))
    config = Config()
    for name, value in namespace.items():
        if name in config.settings:
            config.set(name, value)
    return config


@pytest.mark.parametrize("value", [None, "0", "false", "off"])
def test_without_trust_no_peer_and_no_header_sets_the_scheme(monkeypatch, value):
    env = {} if value is None else {"TRUST_X_FORWARDED_PROTO": value}
    config = load_conf(monkeypatch, **env)
    assert config.forwarded_allow_ips == []
    assert config.secure_scheme_headers == {}
    assert config.forwarder_headers == []


def test_with_trust_only_the_proxy_and_only_x_forwarded_proto_count(monkeypatch):
    config = load_conf(monkeypatch, TRUST_X_FORWARDED_PROTO="1")
    assert config.forwarded_allow_ips == ["127.0.0.1", "::1"]
    assert config.secure_scheme_headers == {"X-FORWARDED-PROTO": "https"}


def test_proxy_addresses_come_from_the_environment(monkeypatch):
    config = load_conf(
        monkeypatch, TRUST_X_FORWARDED_PROTO="yes", GUNICORN_FORWARDED_ALLOW_IPS="10.0.0.0/8"
    )
    assert config.forwarded_allow_ips == ["10.0.0.0/8"]


def test_an_unreadable_boolean_stops_gunicorn_with_its_name(monkeypatch):
    with pytest.raises(ValueError, match="TRUST_X_FORWARDED_PROTO"):
        load_conf(monkeypatch, TRUST_X_FORWARDED_PROTO="maybe")


# --- a real gunicorn on 127.0.0.1 ----------------------------------------------------


def free_port() -> int:
    for port in range(8880, 8890):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.fail("No free port in 8880-8889 on 127.0.0.1.")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def get(url: str, headers: dict[str, str]) -> int:
    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 - 127.0.0.1 only
    try:
        with opener.open(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def serve(tmp_path, trust: str):
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_DEBUG", "DATABASE_URL", "REDIS_URL", "FORWARDED_ALLOW_IPS"}
    }
    env.update(
        {
            "HTTPS": "1",
            "TRUST_X_FORWARDED_PROTO": trust,
            "SECRET_KEY": "k" * 60,
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATA_DIR": str(tmp_path / "data"),
            "GUNICORN_BIND": f"127.0.0.1:{port}",
            "GUNICORN_WORKERS": "1",
            "GUNICORN_ACCESSLOG": "/dev/null",
        }
    )
    process = subprocess.Popen(  # noqa: S603 - fixed command line
        [sys.executable, "-m", "gunicorn", "-c", str(CONF), "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    process.kill()
    pytest.fail("gunicorn did not start")


@pytest.fixture
def gunicorn_server(tmp_path):
    started = []

    def start(trust: str) -> str:
        process, url = serve(tmp_path, trust)
        started.append(process)
        return url

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=10)


def test_real_gunicorn_ignores_forwarded_scheme_headers_without_trust(gunicorn_server):
    url = gunicorn_server("0") + "/no-such-endpoint"
    # HTTPS=1: a plain-HTTP request is redirected, whatever scheme header the client sends.
    assert get(url, {}) == 301
    assert get(url, {"X-Forwarded-Ssl": "on"}) == 301
    assert get(url, {"X-Forwarded-Proto": "https"}) == 301
    assert get(url, {"X-Forwarded-Protocol": "ssl"}) == 301


def test_real_gunicorn_trusts_x_forwarded_proto_from_the_proxy_with_trust(gunicorn_server):
    url = gunicorn_server("1") + "/no-such-endpoint"
    assert get(url, {"X-Forwarded-Proto": "https"}) == 404  # secure: no redirect, the 404
    assert get(url, {"X-Forwarded-Ssl": "on"}) == 301
