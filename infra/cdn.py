"""Purging URLs through settings.CDN_PURGE_URL (`POST {"urls": [...]}`, any 2xx is done):
short, and never raises: an unreachable CDN leaves its copies to expire.
"""

import json
import logging
import urllib.error
import urllib.request

from django.conf import settings

logger = logging.getLogger(__name__)


def cdn_purge_configured() -> bool:
    return bool(settings.CDN_PURGE_URL)


def cdn_purge(urls: list[str]) -> str | None:
    """POST `urls` to the purge endpoint; None when done, else the reason it failed."""
    endpoint = settings.CDN_PURGE_URL
    if not endpoint:
        return "no CDN purge URL is configured"
    request = urllib.request.Request(  # noqa: S310  (the URL is the operator's setting)
        endpoint,
        data=json.dumps({"urls": urls}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(  # noqa: S310
            request, timeout=settings.CDN_PURGE_TIMEOUT_SECONDS
        ) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        logger.warning("CDN purge answered %s", exc.code)
        return f"the CDN answered {exc.code}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        logger.warning("CDN purge failed: %s", exc)
        return f"the CDN could not be reached ({exc})"
    if not 200 <= status < 300:
        return f"the CDN answered {status}"
    return None
