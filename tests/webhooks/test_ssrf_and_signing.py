"""The production rule of webhook URLs (https only, public addresses only, connect to the
checked address) and the signature scheme receivers verify."""

import socket

import pytest

from tests.jobs.support import run_jobs
from webhooks import signing, transport
from webhooks.models import Delivery
from webhooks.services import deliveries_create

PRODUCTION = {"allow_http": False, "allow_private": False}


def fake_dns(monkeypatch, answers: dict[str, list[str]]):
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in answers:
            return [
                (
                    socket.AF_INET6 if ":" in a else socket.AF_INET,
                    socket.SOCK_STREAM,
                    6,
                    "",
                    (a, port),
                )
                for a in answers[host]
            ]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(transport.socket, "getaddrinfo", getaddrinfo)


@pytest.mark.parametrize(
    "url",
    [
        "https://10.1.2.3/hook",
        "https://127.0.0.1/hook",
        "https://127.8.9.10:8443/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://[fe80::1]/hook",
        "https://[::ffff:10.0.0.1]/hook",
        "https://192.168.0.10/hook",
        "https://100.64.0.1/hook",
        "https://0.0.0.0/hook",
        "https://localhost/hook",
    ],
)
def test_private_loopback_link_local_and_reserved_addresses_are_refused(url):
    with pytest.raises(transport.UnsafeURL, match="non-public address"):
        transport.check_url(url, **PRODUCTION)


def test_a_hostname_resolving_to_a_private_address_is_refused(monkeypatch):
    fake_dns(monkeypatch, {"hooks.partner.example": ["93.184.216.34", "10.0.0.7"]})

    with pytest.raises(transport.UnsafeURL, match=r"10\.0\.0\.7"):
        transport.check_url("https://hooks.partner.example/in", **PRODUCTION)


def test_plain_http_is_refused_in_production_and_odd_urls_always():
    with pytest.raises(transport.UnsafeURL, match="Only https"):
        transport.check_url("http://93.184.216.34/hook", **PRODUCTION)
    for url in ["ftp://93.184.216.34/x", "https:///nohost", "https://u:p@93.184.216.34/"]:
        with pytest.raises(transport.UnsafeURL):
            transport.check_url(url, allow_http=True, allow_private=True)


def test_a_public_host_passes_and_names_the_checked_address(monkeypatch):
    fake_dns(monkeypatch, {"hooks.partner.example": ["93.184.216.34"]})

    target = transport.check_url("https://hooks.partner.example:8443/in?a=1", **PRODUCTION)

    assert (target.host, target.port, target.path, target.address) == (
        "hooks.partner.example",
        8443,
        "/in?a=1",
        "93.184.216.34",
    )


def test_the_connection_goes_to_the_checked_address_not_a_new_lookup(monkeypatch, receiver):
    # the name resolves (once) to the receiver's address; a rebinding DNS would answer
    # something else on the next lookup, which must never happen
    port = receiver.server.server_address[1]
    lookups = []
    fake_dns(monkeypatch, {"rebind.example": ["127.0.0.1"]})
    target = transport.check_url(
        f"http://rebind.example:{port}/x", allow_http=True, allow_private=True
    )
    real = socket.getaddrinfo

    def only_numeric(host, *args, **kwargs):
        lookups.append(host)
        return real(host, *args, **kwargs) if host == "127.0.0.1" else []

    monkeypatch.setattr(transport.socket, "getaddrinfo", only_numeric)
    body = b"{}"
    headers = {"X-Signature": signing.signature_header(receiver.secret, 1, body)}
    monkeypatch.setattr("time.time", lambda: 1)

    answer = transport.post(target, body, headers, timeout=2)

    assert answer.status == 200
    assert lookups == ["127.0.0.1"]  # the checked address; the name is not looked up again
    assert receiver.received[0].headers["Host"] == f"rebind.example:{port}"


@pytest.mark.django_db
def test_a_delivery_to_a_refused_address_is_a_failed_attempt_in_production(endpoint, settings):
    settings.WEBHOOKS_ALLOW_HTTP = False
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    endpoint.url = "https://127.0.0.1:9/hook"
    endpoint.save()
    deliveries_create(event_type="comment.created", data={}, endpoints=[endpoint])

    run_jobs()

    delivery = Delivery.objects.get()
    assert delivery.last_error.startswith("Refused: ")
    assert delivery.last_status_code is None


def test_the_signature_verifies_and_rejects_tampering_and_replays():
    body = b'{"id":"1"}'
    header = signing.signature_header("s3cret", 1_700_000_000, body)

    assert signing.verify("s3cret", header, body, now=1_700_000_000 + 299)
    assert not signing.verify("s3cret", header, body, now=1_700_000_000 + 301)  # replay
    assert not signing.verify("s3cret", header, body + b" ", now=1_700_000_000)
    assert not signing.verify("other", header, body, now=1_700_000_000)
    assert not signing.verify("s3cret", "garbage", body, now=1_700_000_000)
    assert not signing.verify("s3cret", "t=abc,v1=00", body, now=1_700_000_000)
    # the documented scheme: HMAC-SHA256(secret, "<t>." + body), hex
    import hashlib
    import hmac

    expected = hmac.new(b"s3cret", b'1700000000.{"id":"1"}', hashlib.sha256).hexdigest()
    assert header == f"t=1700000000,v1={expected}"
