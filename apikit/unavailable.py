"""A database that cannot be reached answers 503 SERVICE_UNAVAILABLE, not 500.

`database_unavailable(exc)` tells an outage (the server refuses or drops connections, has
too many of them, is shutting down or starting up, cancels a statement) from a bug (a bad
query, a missing table), which stays a 500. It looks at the driver error Django wraps
(`exc.__cause__`): PostgreSQL SQLSTATE classes 08 (connection exception), 53 (insufficient
resources: too many connections, disk full, out of memory) and 57 (operator intervention:
shutdown, cannot connect now, statement cancelled); a psycopg OperationalError without a
SQLSTATE (no server answered: refused, timed out, closed unexpectedly); any InterfaceError
(connection already closed); SQLite's "database is locked", "unable to open database file"
and disk I/O errors.

Each outage is logged once per request, one line without a traceback, at ERROR on
`storefront.database` (operators alert on it; e-mails are rate-limited per distinct error).
`failure_response` is the one answer to an exception nothing else handled, wherever it
escaped (a DRF view, a plain view, a middleware): that 503, or a 500 logged with its traceback.
"""

import logging
from typing import TypeVar

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

from .errors import ErrorCode, error_body

logger = logging.getLogger("storefront.database")
request_logger = logging.getLogger("django.request")

RETRY_AFTER_SECONDS = 5
MESSAGE = f"The service is temporarily unavailable. Try again in {RETRY_AFTER_SECONDS} seconds."
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


def log_unavailable(request: HttpRequest | None, exc: BaseException) -> None:
    logger.error(
        "Database unavailable on %s %s: %s: %s",
        getattr(request, "method", "?"),
        getattr(request, "path", "?"),
        type(exc.__cause__ or exc).__name__,
        str(exc).strip().splitlines()[0] if str(exc).strip() else "",
    )


def unavailable_body() -> dict:
    return error_body(status_code=503, message=MESSAGE, error_code=ErrorCode.SERVICE_UNAVAILABLE)


RETRY_AFTER_HEADERS = {"Retry-After": str(RETRY_AFTER_SECONDS)}


Answer = TypeVar("Answer", bound=HttpResponse)


def failure_response(
    request: HttpRequest | None, exc: BaseException | None, response_class: type[Answer]
) -> Answer:
    """503 with Retry-After when the database cannot be reached, else 500 with the traceback
    on `django.request`; logged here once (Django's request logger must not log and e-mail it a
    second time). `response_class`: JsonResponse, or DRF's Response in the exception handler."""
    if exc is not None and database_unavailable(exc):
        log_unavailable(request, exc)
        response = response_class(unavailable_body(), status=503, headers=RETRY_AFTER_HEADERS)
    else:
        request_logger.error(
            "Internal error on %s %s",
            getattr(request, "method", "?"),
            getattr(request, "path", "?"),
            exc_info=exc,
            extra={"status_code": 500, "request": request},
        )
        body = error_body(status_code=500, message="Internal server error.")
        response = response_class(body, status=500)
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response
