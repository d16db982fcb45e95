"""The client's IP, for the API throttles and the admin's sign-in limit: REMOTE_ADDR, or with
NUM_PROXIES trusted proxies the X-Forwarded-For entry that many from the right (never one a
client invented).
"""

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    meta = request.META
    remote_addr = meta.get("REMOTE_ADDR") or ""
    num_proxies = settings.REST_FRAMEWORK.get("NUM_PROXIES") or 0
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if num_proxies <= 0 or not forwarded:
        return remote_addr
    addresses = [part.strip() for part in forwarded.split(",")]
    return addresses[-min(num_proxies, len(addresses))] or remote_addr
