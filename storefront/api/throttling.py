"""Throttles for public writes: counted per client IP in the shared cache.

The client IP comes from REMOTE_ADDR, or from X-Forwarded-For when NUM_PROXIES says how
many trusted proxies stand in front (DRF's rule). Rates live in settings
(REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], from THROTTLE_* environment variables).
"""

from rest_framework.throttling import SimpleRateThrottle


class PublicWriteThrottle(SimpleRateThrottle):
    """Every public POST: `public_write` rate per client IP (throttle_scope names the bucket)."""

    scope = "public_write"

    def get_cache_key(self, request, view):
        bucket = getattr(view, "throttle_scope", None) or type(view).__name__
        return f"throttle:{self.scope}:{bucket}:{self.get_ident(request)}"

    def allow_request(self, request, view):
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return super().allow_request(request, view)
