"""The plain pages a browser asks for first: the home page `/` and `/favicon.ico`; and, in
the demo only, the storefront's password-reset page the reset e-mail links to."""

from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from apikit.fallback import page_not_found

from .selectors import current_sales_channel

FAVICON = Path(__file__).resolve().parent / "static" / "storefront" / "favicon.ico"
FAVICON_MAX_AGE = 24 * 3600
# The API endpoint the demo reset page posts to (the contract's path).
RESET_CONFIRM_PATH = "/publics/customers/password-reset/confirm"
# Longer query values are no link of ours: the page treats them as missing.
MAX_LINK_VALUE = 200


@cache
def _favicon_bytes() -> bytes:
    return FAVICON.read_bytes()


def home(request: HttpRequest) -> HttpResponse:
    """A page for people, so in their language, unlike the API's answers."""
    channel = current_sales_channel(request)
    language = translation.get_language_from_request(request)
    with translation.override(language):
        context = {
            "store_name": channel.name if channel is not None else _("Storefront"),
            "channel": channel,
            "host": request.get_host(),
            "public_base_url": settings.PUBLIC_BASE_URL.rstrip("/"),
        }
        response = render(request, "storefront/home.html", context)
        response["Content-Language"] = translation.get_language()
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def favicon(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_favicon_bytes(), content_type="image/x-icon")
    response["Cache-Control"] = f"public, max-age={FAVICON_MAX_AGE}"
    return response


def password_reset_page(request: HttpRequest) -> HttpResponse:
    """A stand-in for the storefront page at PASSWORD_RESET_URL (PASSWORD_RESET_DEMO_PAGE):
    a form whose script posts to the API's confirmation."""
    if not settings.PASSWORD_RESET_DEMO_PAGE:
        return page_not_found(request)
    link = {
        name: value
        for name in ("uid", "token")
        if 0 < len(value := request.GET.get(name, "")) <= MAX_LINK_VALUE
    }
    context = {
        "uid": link.get("uid", ""),
        "token": link.get("token", ""),
        "complete": len(link) == 2,
        "confirm_path": RESET_CONFIRM_PATH,
    }
    with translation.override(settings.CUSTOMER_LANGUAGE_CODE):
        response = render(request, "storefront/password_reset.html", context)
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"  # the address holds the one-time token
    return response
