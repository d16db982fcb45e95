"""The X-Signature scheme of outbound webhooks (pure: no database, no clock).

    X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + body)>

The receiver recomputes the HMAC over the timestamp, a dot and the raw body bytes, compares
in constant time and rejects a timestamp more than 5 minutes from its clock (docs/webhooks.md).
"""

import hashlib
import hmac

REPLAY_WINDOW_SECONDS = 300


def signature(secret: str, timestamp: int, body: bytes) -> str:
    signed = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"


def verify(
    secret: str, header: str, body: bytes, *, now: int, window: int = REPLAY_WINDOW_SECONDS
) -> bool:
    """True when `header` signs `body` with `secret` and its timestamp is within `window`."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > window:
        return False
    expected = signature(secret, timestamp, body)
    return hmac.compare_digest(expected, parts.get("v1", ""))
