"""Shared-cache helpers for hot public reads, and HTTP validators (ETag, Cache-Control).

Invalidation is by namespace version: `cache_namespace_bump("categories")` makes every
key of that namespace unreachable at once (signals call it when staff change data).
The version starts from the clock, so an evicted version key never brings old
entries back.
"""

import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from rest_framework.response import Response

_VERSION_KEY = "ns-version:{namespace}"


def _namespace_version(namespace: str) -> int:
    key = _VERSION_KEY.format(namespace=namespace)
    version = cache.get(key)
    if version is None:
        version = time.time_ns()
        cache.add(key, version, timeout=None)
        version = cache.get(key) or version
    return version


def cache_namespace_bump(namespace: str) -> None:
    """Forget every cached value of the namespace (call on any change to its data).

    The new version is larger than both the old one and the clock, so it differs from the
    old one even when the clock stands still (frozen time in tests) or steps back.
    """
    key = _VERSION_KEY.format(namespace=namespace)
    old = cache.get(key) or 0
    cache.set(key, max(old + 1, time.time_ns()), timeout=None)


def cached(namespace: str, key: str, build: Callable[[], Any], timeout: int | None = None) -> Any:
    """Return the cached value for (namespace, key), building and storing it on a miss.

    A cache outage (Redis down) is a miss: the value is built from the database.
    """
    full_key = f"{namespace}:{_namespace_version(namespace)}:{key}"
    value = cache.get(full_key)
    if value is None:
        value = build()
        cache.set(
            full_key,
            value,
            timeout=settings.PUBLIC_CACHE_SECONDS if timeout is None else timeout,
        )
    return value


def etag_for(payload: Any) -> str:
    raw = json.dumps(payload, cls=DjangoJSONEncoder, sort_keys=True, separators=(",", ":"))
    return '"' + hashlib.blake2b(raw.encode(), digest_size=16).hexdigest() + '"'


def _has_body(request) -> bool:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > 0
    except ValueError:
        return True


def conditional_response(request, payload: Any, *, max_age: int | None = None) -> Response:
    """200 with ETag and Cache-Control, or 304 when the client's If-None-Match matches.

    A response that may depend on a request body (the banner listing reads `codes` from
    the body of a GET) is `private`: shared caches key on the URL only and would serve it
    to other callers. The client itself may still revalidate it with the ETag.
    """
    etag = etag_for(payload)
    max_age = settings.PUBLIC_CACHE_SECONDS if max_age is None else max_age
    scope = "private" if _has_body(request) else "public"
    headers = {"ETag": etag, "Cache-Control": f"{scope}, max-age={max_age}"}
    if_none_match = request.headers.get("If-None-Match", "")
    candidates = {tag.strip() for tag in if_none_match.split(",")}
    if etag in candidates or f"W/{etag}" in candidates or "*" in candidates:
        return Response(status=304, headers=headers)
    return Response(payload, headers=headers)
