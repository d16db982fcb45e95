"""The two plain pages a browser asks for first: the home page `/` and `/favicon.ico`.

Not API endpoints: the home page is a small HTML page for people (which store this is,
which sales channel serves this host, where the API docs, the admin and the health check
are); the icon is read once per process and served without touching the database.
"""

from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from .selectors import current_sales_channel

FAVICON = Path(__file__).resolve().parent / "static" / "storefront" / "favicon.ico"
FAVICON_MAX_AGE = 24 * 3600


@cache
def _favicon_bytes() -> bytes:
    return FAVICON.read_bytes()


def home(request: HttpRequest) -> HttpResponse:
    channel = current_sales_channel(request)
    context = {
        "store_name": channel.name if channel is not None else _("Storefront"),
        "channel": channel,
        "host": request.get_host(),
        "public_base_url": settings.PUBLIC_BASE_URL.rstrip("/"),
    }
    response = render(request, "storefront/home.html", context)
    response["Cache-Control"] = "no-cache"
    return response


def favicon(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_favicon_bytes(), content_type="image/x-icon")
    response["Cache-Control"] = f"public, max-age={FAVICON_MAX_AGE}"
    return response
