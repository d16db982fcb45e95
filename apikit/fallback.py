"""Envelope answers for URLs no endpoint matches, for Django's error handlers and for any
unhandled exception.

A database that cannot be reached answers 503 SERVICE_UNAVAILABLE, not 500. An outage is what
the driver error Django wraps says: PostgreSQL SQLSTATE classes 08, 53 and 57 or no SQLSTATE
at all (no server answered), any InterfaceError, SQLite's locked, unopenable or I/O-failing
database; a bad query stays a 500. Each outage is logged once per request, without a
traceback, on `storefront.database`.
"""

import logging
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt

from infra.admin import is_staff_path, staff_error_page

from .errors import error_body, error_response

logger = logging.getLogger("storefront.database")
request_logger = logging.getLogger("django.request")

READ_METHODS = ("GET", "HEAD")
RETRY_AFTER = 5
MESSAGE = f"The service is temporarily unavailable. Try again in {RETRY_AFTER} seconds."
UNAVAILABLE_SQLSTATE_CLASSES = ("08", "53", "57")
SQLITE_UNAVAILABLE = ("database is locked", "unable to open database file", "disk i/o error")


def database_unavailable(exc: BaseException | None) -> bool:
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__ or exc.__context__
    module = type(cause).__module__ if cause is not None else ""
    if module.startswith("psycopg"):
        sqlstate = getattr(cause, "sqlstate", None)
        return sqlstate is None or sqlstate[:2] in UNAVAILABLE_SQLSTATE_CLASSES
    text = str(cause if cause is not None else exc).lower()
    return any(marker in text for marker in SQLITE_UNAVAILABLE)


Answer = TypeVar("Answer", bound=HttpResponse)


def failure_response(
    request: HttpRequest | None, exc: BaseException | None, response_class: type[Answer]
) -> Answer:
    """The one answer to an unhandled exception: 503 with Retry-After when the database cannot
    be reached, else 500 with the traceback logged here, once (Django must not log it again)."""
    method, path = getattr(request, "method", "?"), getattr(request, "path", "?")
    if exc is not None and database_unavailable(exc):
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        cause = type(exc.__cause__ or exc).__name__
        logger.error("Database unavailable on %s %s: %s: %s", method, path, cause, first_line)
        body = error_body(status_code=503, message=MESSAGE)
        response = response_class(body, status=503, headers={"Retry-After": str(RETRY_AFTER)})
    else:
        extra = {"status_code": 500, "request": request}
        request_logger.error("Internal error on %s %s", method, path, exc_info=exc, extra=extra)
        body = error_body(status_code=500, message="Internal server error.")
        response = response_class(body, status=500)
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


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


# Django's error handlers: the envelope, or under /admin/ a page of the admin.


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_staff_path(request):
        return staff_error_page(request, 400)
    return error_response(400, "The request could not be processed.")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_staff_path(request):
        return staff_error_page(request, 403)
    return error_response(403, "You do not have permission to perform this action.")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_staff_path(request):
        return staff_error_page(request, 404)
    return error_response(404, "Not found.")


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's handler500 (an exception that escaped a middleware, or any under /admin/,
    which Django has logged)."""
    if is_staff_path(request):
        return staff_error_page(request, 500)
    return failure_response(request, sys.exc_info()[1], JsonResponse)
