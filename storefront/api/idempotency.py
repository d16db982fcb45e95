"""`Idempotency-Key` on public writes (`@idempotent` on a view's `post`): the HTTP side of
storefront/idempotency.py. A replay carries `Idempotent-Replayed: true`; another body with the
same key is a 422, a retry while the first runs a 409; answers of 500 and above are not kept.
"""

import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from apikit.errors import ApiError, ErrorCode
from storefront.idempotency import (
    IdempotencyInProgress,
    IdempotencyKeyReused,
    RunOutcome,
    StoredAnswer,
    idempotency_fingerprint,
    idempotent_call,
)
from storefront.models import Customer

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
KEY_PATTERN = re.compile(r"[\x20-\x7e]{1,255}")
RETRY_IN_PROGRESS_SECONDS = 1

KEY_DESCRIPTION = (
    "Optional. A unique value per logical write (a UUID, at most 255 printable ASCII "
    "characters). The first answer (status and body) is kept 24 hours per key and caller "
    "(the signed-in customer, else the client IP): a retry with the same key and the same "
    "JSON body gets that answer again, with `Idempotent-Replayed: true`, and writes nothing; "
    "the same key with another body is a 422; a retry while the first request is still "
    "running is a 409 with Retry-After. Answers of 500 and above are not kept."
)
IGNORED_KEY_DESCRIPTION = (
    "Accepted and ignored: this POST writes nothing, so retrying it is always safe."
)


class IdempotencyRequestInProgress(ApiError):
    status_code = 409
    error_code = ErrorCode.IDEMPOTENCY_REQUEST_IN_PROGRESS
    default_detail = (
        "A request with this Idempotency-Key is still being processed. Retry in a moment."
    )
    wait = RETRY_IN_PROGRESS_SECONDS  # the exception handler turns it into Retry-After


def idempotency_key_parameter(description: str = KEY_DESCRIPTION) -> OpenApiParameter:
    return OpenApiParameter(
        HEADER,
        {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH, "pattern": "^[ -~]+$"},
        location=OpenApiParameter.HEADER,
        required=False,
        description=description,
    )


def request_idempotency_key(request: Request) -> str | None:
    raw = request.headers.get(HEADER)
    if raw is None:
        return None
    key = raw.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':  # RFC 8941 string form: "abc"
        key = key[1:-1]
    if not KEY_PATTERN.fullmatch(key):
        message = f"The {HEADER} header must be 1 to {MAX_KEY_LENGTH} printable ASCII characters."
        raise ValidationError({HEADER: [message]})
    return key


def request_caller(request: Request) -> str:
    if isinstance(request.user, Customer):
        return f"customer:{request.user.pk}"
    return f"ip:{BaseThrottle().get_ident(request)}"


def request_endpoint(request: HttpRequest) -> str:
    """The view and its path values: the same under /api/v3/ and with a trailing slash."""
    match = request.resolver_match
    assert match is not None  # resolved before any view runs
    view = getattr(match.func, "view_class", match.func)
    values = ",".join(f"{name}={value}" for name, value in sorted(match.kwargs.items()))
    return f"{request.method} {view.__module__}.{view.__qualname__}({values})"


def idempotent(post: Callable[..., Response]) -> Callable[..., HttpResponseBase]:
    @wraps(post)
    def wrapper(view: APIView, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        key = request_idempotency_key(request)
        if key is None:
            return post(view, request, *args, **kwargs)

        def run() -> tuple[Response, RunOutcome]:
            raised = False
            try:
                response = post(view, request, *args, **kwargs)
            except Exception as exc:
                raised = True
                response = view.handle_exception(exc)
            response = view.finalize_response(request, response, *args, **kwargs)
            response.render()
            answer = StoredAnswer(
                status_code=response.status_code,
                content_type=response.get("Content-Type", ""),
                body=bytes(response.content),
            )
            failed = response.status_code >= 500
            return response, RunOutcome(answer=answer, keep=not failed, rollback=raised or failed)

        fingerprint = idempotency_fingerprint(endpoint=request_endpoint(request), data=request.data)
        try:
            result = idempotent_call(
                key=key, caller=request_caller(request), fingerprint=fingerprint, run=run
            )
        except IdempotencyKeyReused:
            reused = f"The {HEADER} was already used with another request body; use a new key"
            raise ValidationError({HEADER: [f"{reused} for a new request."]}) from None
        except IdempotencyInProgress:
            raise IdempotencyRequestInProgress from None
        if not isinstance(result, StoredAnswer):  # not replayed: this request's own answer
            return result
        response = HttpResponse(
            result.body, status=result.status_code, content_type=result.content_type
        )
        response[REPLAYED_HEADER] = "true"
        return response

    return wrapper
