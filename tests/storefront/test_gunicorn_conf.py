"""config/gunicorn.conf.py: forwarded-scheme trust follows TRUST_X_FORWARDED_PROTO."""

import runpy

import pytest
from gunicorn.config import Config

from .live_gunicorn import CONF, get


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


def test_real_gunicorn_ignores_forwarded_scheme_headers_without_trust(gunicorn_server):
    port = gunicorn_server(HTTPS="1", TRUST_X_FORWARDED_PROTO="0")
    url = f"http://127.0.0.1:{port}/no-such-endpoint"
    # HTTPS=1: a plain-HTTP request is redirected, whatever scheme header the client sends.
    assert get(url, {}) == 301
    assert get(url, {"X-Forwarded-Ssl": "on"}) == 301
    assert get(url, {"X-Forwarded-Proto": "https"}) == 301
    assert get(url, {"X-Forwarded-Protocol": "ssl"}) == 301


def test_real_gunicorn_trusts_x_forwarded_proto_from_the_proxy_with_trust(gunicorn_server):
    port = gunicorn_server(HTTPS="1", TRUST_X_FORWARDED_PROTO="1")
    url = f"http://127.0.0.1:{port}/no-such-endpoint"
    assert get(url, {"X-Forwarded-Proto": "https"}) == 404  # secure: no redirect, the 404
    assert get(url, {"X-Forwarded-Ssl": "on"}) == 301


def test_workers_are_threaded_and_accept_no_more_connections_than_threads(monkeypatch):
    for name in ("GUNICORN_WORKER_CLASS", "GUNICORN_THREADS", "GUNICORN_WORKER_CONNECTIONS"):
        monkeypatch.delenv(name, raising=False)
    config = load_conf(monkeypatch)
    assert config.worker_class_str == "gthread"
    assert config.threads == 4 and config.worker_connections == 4
    config = load_conf(monkeypatch, GUNICORN_THREADS="8")
    assert config.threads == 8 and config.worker_connections == 8
    config = load_conf(
        monkeypatch,
        GUNICORN_WORKER_CLASS="sync",
        GUNICORN_THREADS="1",
        GUNICORN_WORKER_CONNECTIONS="50",
    )
    assert config.worker_class_str == "sync" and config.worker_connections == 50
