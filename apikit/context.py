"""The one per-request state that the HTTP layer's modules share, in place of attributes set
on the request or the response: a `RequestContext` in a contextvar, opened by the
`request_context` middleware (which also opens infra.caching.versions.per_request, so a
request reads each namespace version once). Outside a request (a view called directly in a
test) `current()` is None and each reader works without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest
from django.http.response import HttpResponseBase

from infra.caching.versions import per_request

if TYPE_CHECKING:
    from .caching import AnswerLookup, RenderedAnswer
    from .querystring import Items


@dataclass
class RequestContext:
    # The answer key `early_answers` computed for the request (cached_answers reuses it).
    lookup: AnswerLookup | None = None
    # The answer `RenderedAnswer.response` rendered last, with the response it made
    # (cached_answers stores it when the view returns that response; apikit.compression
    # serves its kept compressed bytes).
    rendered: tuple[HttpResponseBase, RenderedAnswer] | None = None
    # The list parameters (condition, order, fields) parsed from one QueryDict, with it.
    list_items: tuple[Any, dict[str, Items]] | None = None
    # A bearer token was given but names no active customer (IsCustomer says so in its 401).
    customer_token_rejected: bool = False


_current: ContextVar[RequestContext | None] = ContextVar("request_context", default=None)


def current() -> RequestContext | None:
    """The context of the request being handled (None outside the middleware)."""
    return _current.get()


@contextmanager
def scope() -> Iterator[RequestContext]:
    """The current context, or a new one for the block when there is none."""
    context = _current.get()
    if context is not None:
        yield context
        return
    context = RequestContext()
    token = _current.set(context)
    try:
        yield context
    finally:
        _current.reset(token)


def request_context(
    get_response: Callable[[HttpRequest], HttpResponseBase],
) -> Callable[[HttpRequest], HttpResponseBase]:
    """Middleware: a fresh RequestContext and namespace-version snapshot per request."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        token = _current.set(RequestContext())
        try:
            with per_request():
                return get_response(request)
        finally:
            _current.reset(token)

    return middleware
