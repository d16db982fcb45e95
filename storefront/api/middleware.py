"""Django-level guards that keep every response of the service in the error envelope."""

import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404, JsonResponse

from .errors import error_body

logger = logging.getLogger("django.request")


def error_response(status_code: int, message: str, error_code: str | None = None) -> JsonResponse:
    return JsonResponse(
        error_body(status_code=status_code, message=message, error_code=error_code),
        status=status_code,
    )


class BodySizeLimitMiddleware:
    """Refuse bodies over the cap (413) before anything reads them.

    DRF's parsers read the body stream directly, so Django's own
    DATA_UPLOAD_MAX_MEMORY_SIZE check does not protect the API.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raw = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(raw)
        except ValueError:
            return error_response(400, "The Content-Length header is not a valid number.")
        is_admin = request.path.startswith("/admin/")
        limit = settings.ADMIN_MAX_BODY_BYTES if is_admin else settings.API_MAX_BODY_BYTES
        if length > limit:
            return error_response(413, f"The request body is larger than {limit} bytes.")
        return self.get_response(request)


class ApiErrorMiddleware:
    """Turn exceptions that escape a view into the error envelope, whatever DEBUG says.

    DRF views already answer through `api_exception_handler`; this catches the rest
    (plain Django views, middleware below this one). No traceback ever leaves the
    process: it is logged on the `django.request` logger instead.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, Http404):
            return error_response(404, "Not found.")
        if isinstance(exception, PermissionDenied):
            return error_response(403, "You do not have permission to perform this action.")
        if isinstance(exception, SuspiciousOperation):
            return error_response(400, "The request could not be processed.")
        logger.error(
            "Internal error on %s %s",
            request.method,
            request.path,
            exc_info=exception,
            extra={"status_code": 500, "request": request},
        )
        return error_response(500, "Internal server error.")
