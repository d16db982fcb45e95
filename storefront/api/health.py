"""GET /health: database and cache reachability for load balancers and operators."""

import time

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from .errors import error_body


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


@csrf_exempt  # any other method is a 405 envelope, never Django's CSRF page
def health(request):
    """200 when the database answers (cache down is "degraded", still 200); else 503."""
    if request.method not in ("GET", "HEAD"):
        body = error_body(status_code=405, message=f"Method {request.method} not allowed.")
        return JsonResponse(body, status=405, headers={"Allow": "GET, HEAD"})
    database = _database_ok()
    cache_ok = _cache_ok()
    if not database:
        status = "unavailable"
    elif not cache_ok:
        status = "degraded"
    else:
        status = "ok"
    body = {
        "status": status,
        "database": "ok" if database else "unavailable",
        "cache": "ok" if cache_ok else "unavailable",
    }
    response = JsonResponse(body, status=200 if database else 503)
    response["Cache-Control"] = "no-store"
    return response
