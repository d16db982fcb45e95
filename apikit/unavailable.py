"""A database that cannot be reached answers 503 SERVICE_UNAVAILABLE, not 500.

An outage is what the driver error Django wraps says: PostgreSQL SQLSTATE classes 08, 53 and
57 or no SQLSTATE at all (no server answered), any InterfaceError, SQLite's locked, unopenable
or I/O-failing database; a bad query stays a 500. Each outage is logged once per request,
without a traceback, on `storefront.database`.
"""

import logging
from typing import TypeVar

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

from .errors import error_body

logger = logging.getLogger("storefront.database")
request_logger = logging.getLogger("django.request")

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
