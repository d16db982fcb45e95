"""Envelope answers for URLs no endpoint matches and for Django's error handlers."""

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt

from .errors import error_response
from .unavailable import failure_response

READ_METHODS = ("GET", "HEAD")


def method_not_allowed(method: str, allowed: tuple[str, ...] = READ_METHODS) -> JsonResponse:
    response = error_response(405, f"Method {method} not allowed.")
    response["Allow"] = ", ".join(allowed)
    return response


def read_only(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """GET and HEAD reach `view`; any other method is a 405 envelope.

    CSRF-exempt: nothing here writes, so a POST gets its 405 (not Django's CSRF page).
    """

    @csrf_exempt
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method not in READ_METHODS:
            return method_not_allowed(request.method or "")
        return view(request, *args, **kwargs)

    return wrapper


@csrf_exempt
def unknown_url(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any method: 404, before any CSRF check (there is nothing here to protect)."""
    return error_response(404, "No endpoint matches this URL.")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(400, "The request could not be processed.")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(403, "You do not have permission to perform this action.")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(404, "Not found.")


def server_error(request: HttpRequest) -> JsonResponse:
    """Django's handler500: an exception that escaped a middleware (views have their own)."""
    return failure_response(request, sys.exc_info()[1], JsonResponse)
