"""GET /health: database and cache reachability, within the cache client's short timeouts
whatever Redis does (an open breaker skips the cache).
"""

import time

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse

from .fallback import read_only


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False


def _cache_ok() -> bool:
    key = "health:probe"
    token = str(time.time_ns())
    try:
        cache.set(key, token, timeout=30)
        return cache.get(key) == token
    except Exception:
        return False


@read_only  # any other method is a 405 envelope, never Django's CSRF page
def health(request: HttpRequest) -> JsonResponse:
    """200 when the database answers ("degraded" without the cache: a 503 would take every
    instance sharing the one Redis out of the load balancer at once); else 503."""
    database, cache_ok = _database_ok(), _cache_ok()
    body = {
        "status": ("ok" if cache_ok else "degraded") if database else "unavailable",
        "database": "ok" if database else "unavailable",
        "cache": "ok" if cache_ok else "unavailable",
        "cacheBreaker": getattr(getattr(cache, "breaker", None), "state", "closed"),
    }
    response = JsonResponse(body, status=200 if database else 503)
    response["Cache-Control"] = "no-store"
    return response
