"""Secrets staff type in the admin (a carrier integration's API token), encrypted at rest.

Fernet (AES-128-CBC with HMAC-SHA256, from `cryptography`) with keys derived from the setting
SECRETS_KEY (environment variable SECRETS_KEY: one or more passphrases, comma-separated; the
first encrypts, every one decrypts, so a key can be rotated). Without it the key is derived
from SECRET_KEY: then changing SECRET_KEY makes the stored tokens unreadable (staff type them
again; the admin says so).
"""

from __future__ import annotations

import base64
from functools import cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

MASK = "••••••••"


def _fernet_key(passphrase: str) -> bytes:
    derived = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=None, info=b"storefront secrets at rest"
    ).derive(passphrase.encode())
    return base64.urlsafe_b64encode(derived)


@cache
def _fernet(passphrases: tuple[str, ...]) -> MultiFernet:
    return MultiFernet([Fernet(_fernet_key(passphrase)) for passphrase in passphrases])


def _keys() -> MultiFernet:
    passphrases = [part.strip() for part in settings.SECRETS_KEY.split(",") if part.strip()]
    return _fernet(tuple(passphrases) or (settings.SECRET_KEY,))


def encrypted(secret: str) -> str:
    """`secret` encrypted with the first key (text, to store)."""
    return _keys().encrypt(secret.encode()).decode()


def decrypted(stored: str) -> str | None:
    """The secret `stored` holds; None when no key of SECRETS_KEY opens it."""
    try:
        return _keys().decrypt(stored.encode()).decode()
    except (InvalidToken, ValueError):
        return None


def masked(secret: str) -> str:
    """How a secret is shown: its last four characters only (none of a short one)."""
    return MASK + secret[-4:] if len(secret) >= 12 else MASK
