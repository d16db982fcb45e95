"""Django-level guards that keep every response of the service in the error envelope."""

import io
import re
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

from infra.admin import is_staff_path

from .errors import error_response
from .fallback import (
    bad_request,
    database_unavailable,
    failure_response,
    page_not_found,
    permission_denied,
)
from .text import check_path, check_query_string


class RequestGuardMiddleware(MiddlewareMixin):
    """Before anything else: the URL within MAX_URL_BYTES (414), the headers within
    MAX_HEADER_FIELDS and MAX_HEADER_BYTES (431), no control characters in the path or query
    (422); gunicorn's limits sit above these, so the answer is in the envelope. Then the body
    within its path's cap (413). An API body is read here: DRF's JSON parser reads
    `request.body`, which Django caps at DATA_UPLOAD_MAX_MEMORY_SIZE (the image uploads' cap
    is larger), and a body cut short or malformed is a 400 here, not a 500 in a view. A
    chunked body is read when the stream is terminated (`wsgi.input_terminated`, as gunicorn
    does); else 411 LENGTH_REQUIRED. Admin bodies (file uploads) stream as Django reads them."""

    def process_request(self, request: HttpRequest) -> JsonResponse | None:
        meta = request.META
        if len(meta.get("RAW_URI") or request.get_full_path()) > settings.MAX_URL_BYTES:
            return error_response(
                414,
                f"The URL is longer than {settings.MAX_URL_BYTES} bytes; "
                "send long lists in the JSON body where the endpoint accepts one.",
            )
        fields = 0
        for key, value in meta.items():
            if key.startswith("HTTP_") or key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
                fields += 1
                size = len(key) - (5 if key.startswith("HTTP_") else 0) + 2 + len(str(value))
                if size > settings.MAX_HEADER_BYTES:
                    name = key.removeprefix("HTTP_").replace("_", "-").title()
                    return error_response(
                        431,
                        f"The {name} header is larger than {settings.MAX_HEADER_BYTES} bytes.",
                    )
        if fields > settings.MAX_HEADER_FIELDS:
            return error_response(
                431, f"The request has more than {settings.MAX_HEADER_FIELDS} header fields."
            )
        errors = check_path(request.path_info) or check_query_string(meta.get("QUERY_STRING", ""))
        if errors:
            return error_response(422, next(iter(errors.values()))[0], errors=errors)
        return self.check_body(request)

    def check_body(self, request: HttpRequest) -> JsonResponse | None:
        is_admin = request.path.startswith("/admin/")
        limit = settings.ADMIN_MAX_BODY_BYTES if is_admin else settings.API_MAX_BODY_BYTES
        if not is_admin and any(re.match(p, request.path) for p in settings.API_UPLOAD_PATHS):
            limit = settings.API_UPLOAD_MAX_BODY_BYTES  # writes that carry images
        if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            if not request.META.get("wsgi.input_terminated"):
                return error_response(
                    411, "Send the request body with a Content-Length header (no chunked encoding)."
                )
            return self.keep_body(request, request.META["wsgi.input"], limit)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or "0")
        except ValueError:
            return error_response(400, "The Content-Length header is not a valid number.")
        if length > limit:
            return error_response(413, f"The request body is larger than {limit} bytes.")
        return self.keep_body(request, request, limit) if length and not is_admin else None

    @staticmethod
    def keep_body(request: HttpRequest, stream: Any, limit: int) -> JsonResponse | None:
        try:
            body = stream.read(limit + 1)
        except Exception:  # a client gone mid-body, gunicorn's chunk errors (no common base)
            return error_response(400, "The request body could not be read.")
        if len(body) > limit:
            return error_response(413, f"The request body is larger than {limit} bytes.")
        request.META["CONTENT_LENGTH"] = str(len(body))
        request._body = body
        request._stream = io.BytesIO(body)
        return None


class ReleaseHeaderMiddleware(MiddlewareMixin):
    """`X-Release` (settings.RELEASE) on every answer not stored with its own, so a rolling
    deploy can be watched from outside."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if "X-Release" not in response:
            response["X-Release"] = settings.RELEASE
        return response


class ApiErrorMiddleware(MiddlewareMixin):
    """Exceptions escaping a plain view or a middleware below as the error envelope, whatever
    DEBUG says (tracebacks are logged, never sent)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Http404):  # as Django's handler404, 403, 400
            return page_not_found(request, exception)
        if isinstance(exception, PermissionDenied):
            return permission_denied(request, exception)
        if isinstance(exception, SuspiciousOperation):
            return bad_request(request, exception)
        if is_staff_path(request) and not database_unavailable(exception):
            return None  # Django logs it and answers with handler500: the admin's page
        return failure_response(request, exception, JsonResponse)
