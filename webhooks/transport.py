"""One HTTP POST to a webhook URL, with the SSRF guard (no Django, no database).

Production rule (allow_private False): the host is resolved once, every address it resolves
to must be public (not private, loopback, link-local, multicast, reserved or unspecified),
and the connection is made to that checked address (the Host header and the TLS name stay
the URL's host), so a DNS answer that changes between the check and the connection
(rebinding) cannot send the request elsewhere. Redirects are never followed; connect and
read have short timeouts; only the start of the answer is read.
"""

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

MAX_RESPONSE_BYTES = 2048


class UnsafeURL(ValueError):
    """The URL may not be called (scheme, host or address refused)."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str


@dataclass(frozen=True)
class Answer:
    status: int
    body: str


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


def check_url(url: str, *, allow_http: bool, allow_private: bool) -> Target:
    """Resolve and check `url`; the Target names the one address to connect to."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http") or (scheme == "http" and not allow_http):
        raise UnsafeURL("Only https URLs are allowed." if not allow_http else "Not an http URL.")
    host = parts.hostname
    if not host:
        raise UnsafeURL("The URL has no host.")
    if parts.username or parts.password:
        raise UnsafeURL("The URL may not carry credentials.")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError as exc:
        raise UnsafeURL("The URL's port is invalid.") from exc
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise UnsafeURL(f"The host {host} does not resolve.") from exc
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise UnsafeURL(f"The host {host} does not resolve.")
    if not allow_private:
        refused = [a for a in addresses if not _public(a)]
        if refused:
            raise UnsafeURL(f"The host {host} resolves to a non-public address ({refused[0]}).")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme=scheme, host=host, port=port, path=path, address=addresses[0])


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the checked address; the Host header (and, over HTTPS, the name the
    certificate is checked against) stay the URL's host."""

    def __init__(self, target: Target, timeout: float, **kwargs: Any) -> None:
        super().__init__(target.host, target.port, timeout=timeout, **kwargs)
        self._create_connection = lambda _host_port, *args: socket.create_connection(
            (target.address, target.port), *args
        )


class _PinnedHTTPSConnection(_PinnedHTTPConnection, http.client.HTTPSConnection):
    pass


def post(target: Target, body: bytes, headers: dict[str, str], *, timeout: float) -> Answer:
    """POST `body` to the checked `target`; raises OSError (and http.client errors) on failure."""
    connection = (
        _PinnedHTTPSConnection(target, timeout, context=ssl.create_default_context())
        if target.scheme == "https"
        else _PinnedHTTPConnection(target, timeout)
    )
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read(MAX_RESPONSE_BYTES).decode("utf-8", "replace")
        return Answer(status=response.status, body=text)
    finally:
        connection.close()
