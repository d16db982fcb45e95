"""URL helpers: every API path answers with and without a trailing slash, no redirects."""

import functools
from collections.abc import Callable

from django.http.response import HttpResponseBase
from django.urls import path
from django.urls.resolvers import RegexPattern, ResolverMatch, URLPattern, URLResolver


def api_path(route: str, view: Callable[..., HttpResponseBase], name: str) -> list[URLPattern]:
    """Both `route` and `route/` (named, the canonical form) for the view."""
    route = route.strip("/")
    return [path(route, view, name=name), path(f"{route}/", view)]


class RememberingResolver(URLResolver):
    """The URL patterns under one resolver that remembers its last `size` matches (short
    paths only): Django walks every nested pattern on each request (40 µs an API path)."""

    MAX_PATH = 256

    def __init__(self, patterns: list, size: int = 2048) -> None:
        super().__init__(RegexPattern(r"^"), patterns)
        self._remembered = functools.lru_cache(maxsize=size)(self._resolve)

    def _resolve(self, path: str) -> ResolverMatch:
        match = super().resolve(path)
        match.tried = None  # for DEBUG's 404 page only, and copied by every enclosing resolver
        return match

    def resolve(self, path: object) -> ResolverMatch:
        path = str(path)
        if len(path) > self.MAX_PATH:
            return super().resolve(path)
        return self._remembered(path)
