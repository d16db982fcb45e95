"""URL helpers: every API path answers with and without a trailing slash, no redirects."""

import functools
from collections.abc import Callable

from django.http.response import HttpResponseBase
from django.urls import path
from django.urls.resolvers import RegexPattern, ResolverMatch, URLPattern, URLResolver


def api_path(route: str, view: Callable[..., HttpResponseBase], name: str) -> list[URLPattern]:
    """Both `route` and `route/` for the view; the name goes on the canonical (no-slash) form.

    Use with unpacking: `urlpatterns = [*api_path("publics/payments/card-flags", View.as_view(),
    "card-flags")]`. Prefixes (none and `/api/v3/`) are added in config/urls.py.
    """
    route = route.strip("/")
    return [path(route, view, name=name), path(f"{route}/", view)]


class RememberingResolver(URLResolver):
    """The URL patterns under one resolver that remembers its last `size` matches.

    Django walks every nested resolver and pattern on each request (about 40 µs for an
    API path behind the admin's and each app's patterns); the matches of recent paths are
    kept here, per process, so a path asked again is resolved by one dictionary lookup.
    Long paths are resolved every time (they would make the memory unbounded).
    """

    MAX_PATH = 256

    def __init__(self, patterns: list, size: int = 2048) -> None:
        super().__init__(RegexPattern(r"^"), patterns)
        self._remembered = functools.lru_cache(maxsize=size)(self._resolve)

    def _resolve(self, path: str) -> ResolverMatch:
        match = super().resolve(path)
        match.tried = None  # the patterns tried first: only for DEBUG's 404 page, and every
        return match  # enclosing resolver would copy them on each request

    def resolve(self, path: object) -> ResolverMatch:
        path = str(path)
        if len(path) > self.MAX_PATH:
            return super().resolve(path)
        return self._remembered(path)
