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


def read_only(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """GET and HEAD reach `view`; any other method is a 405 envelope (not a CSRF page)."""

    @csrf_exempt
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method not in READ_METHODS:
            response = error_response(405, f"Method {request.method or ''} not allowed.")
            response["Allow"] = ", ".join(READ_METHODS)
            return response
        return view(request, *args, **kwargs)

    return wrapper


@csrf_exempt
def unknown_url(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any method: 404, before any CSRF check."""
    return error_response(404, "No endpoint matches this URL.")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(400, "The request could not be processed.")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(403, "You do not have permission to perform this action.")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(404, "Not found.")


def server_error(request: HttpRequest) -> JsonResponse:
    """Django's handler500 (an exception that escaped a middleware)."""
    return failure_response(request, sys.exc_info()[1], JsonResponse)
