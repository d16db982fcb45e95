"""DRF exception handler: every error becomes the error envelope (DESIGN §4)."""

import re
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import SuspiciousOperation
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from infra.errors import AuthenticationFailed, DomainError, NotFoundError, RuleViolation

from .errors import ApiError, error_body
from .fallback import failure_response

NON_FIELD_KEYS = {"non_field_errors"}


def flatten_errors(detail: Any) -> dict[str, list[str]]:
    """DRF's nested error detail as {"items.0.reference": ["..."]}, messages naming fields."""
    flat = _collect(detail, "", {})
    return {path: [name_field(path, msg) for msg in messages] for path, messages in flat.items()}


def _collect(detail: Any, prefix: str, flat: dict[str, list[str]]) -> dict[str, list[str]]:
    """Messages by dotted path; a list's plain messages belong to its own path."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            key = str(key)
            nested = prefix and key not in NON_FIELD_KEYS
            _collect(value, f"{prefix}.{key}" if nested else prefix or key, flat)
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            if isinstance(value, dict | list):  # an item of a list of objects: by its index
                _collect(value, f"{prefix}.{index}" if prefix else str(index), flat)
            else:
                _collect(value, prefix, flat)
    else:
        flat.setdefault(prefix or "non_field_errors", []).append(str(detail))
    return flat


def name_field(path: str, message: str) -> str:
    """ "This field is required." on `codes`: "The codes field is required." """
    if path in NON_FIELD_KEYS:
        return message
    for phrase in ("This field", "this field", "This list", "this list"):
        if phrase in message:
            article = "The" if phrase[0] == "T" else "the"
            return message.replace(phrase, f"{article} {path} field", 1)
    if f"the {path} field".lower() in message.lower():
        return message
    return f"{message.rstrip('.')} (the {path} field)."


def validation_response(errors: dict[str, list[str]]) -> Response:
    messages = [message for field_messages in errors.values() for message in field_messages]
    message = messages[0] if messages else "The given data was invalid."
    extra = len(messages) - 1
    if extra > 0:
        message = f"{message} (and {extra} more error{'s' if extra > 1 else ''})"
    return Response(error_body(status_code=422, message=message, errors=errors), status=422)


def api_field_name(domain_name: str) -> str:
    """parent_comment_id -> parentCommentId."""
    head, *rest = domain_name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


DOMAIN_ERROR_STATUS: tuple[tuple[type[DomainError], int], ...] = (
    (NotFoundError, status.HTTP_404_NOT_FOUND),
    (AuthenticationFailed, status.HTTP_401_UNAUTHORIZED),
    (DomainError, status.HTTP_400_BAD_REQUEST),
)


def _api_text(message: str) -> str:
    """Each `{field_name}` of a domain message as the API names it."""
    return re.sub(r"\{([a-z0-9_]+)\}", lambda m: api_field_name(m.group(1)), message)


def domain_error_response(exc: DomainError) -> Response:
    if isinstance(exc, RuleViolation):
        messages = [_api_text(message) for message in exc.messages]
        return validation_response({api_field_name(exc.field): messages})
    status_code = next(code for kind, code in DOMAIN_ERROR_STATUS if isinstance(exc, kind))
    body = error_body(status_code=status_code, message=_api_text(exc.message), error_code=exc.code)
    return Response(body, status=status_code)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render any exception raised in an API view as the error envelope."""
    set_rollback()
    if isinstance(exc, DomainError):
        return domain_error_response(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, SuspiciousOperation):  # as ApiErrorMiddleware answers it outside DRF
        exc = ApiError()

    if isinstance(exc, exceptions.ValidationError):
        return validation_response(flatten_errors(exc.detail))
    if isinstance(exc, exceptions.ParseError):
        return validation_response({"body": [f"The request body is not valid JSON: {exc.detail}"]})

    if not isinstance(exc, exceptions.APIException):
        return failure_response(getattr(context.get("request"), "_request", None), exc, Response)

    headers = {}
    auth_header = getattr(exc, "auth_header", None)  # NotAuthenticated, AuthenticationFailed
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    wait = getattr(exc, "wait", None)  # Throttled
    if wait is not None:
        headers["Retry-After"] = str(max(1, int(wait)))
    message = str(exc.detail)
    if isinstance(exc, exceptions.Throttled):
        later = f"in {headers['Retry-After']} seconds" if wait is not None else "later"
        message = f"Too many requests. Try again {later}."
    error_code = exc.error_code if isinstance(exc, ApiError) else None  # else the status's
    body = error_body(status_code=exc.status_code, message=message, error_code=error_code)
    return Response(body, status=exc.status_code, headers=headers)
