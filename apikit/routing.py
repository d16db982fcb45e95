"""URL helpers: every API path answers with and without a trailing slash, no redirects."""

from collections.abc import Callable

from django.http.response import HttpResponseBase
from django.urls import path
from django.urls.resolvers import URLPattern


def api_path(route: str, view: Callable[..., HttpResponseBase], name: str) -> list[URLPattern]:
    """Both `route` and `route/` for the view; the name goes on the canonical (no-slash) form.

    Use with unpacking: `urlpatterns = [*api_path("publics/payments/card-flags", View.as_view(),
    "card-flags")]`. Prefixes (none and `/api/v3/`) are added in config/urls.py.
    """
    route = route.strip("/")
    return [path(route, view, name=name), path(f"{route}/", view)]
