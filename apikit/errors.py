"""HTTP errors: the error envelope, the code of each status, the exceptions views raise."""

from typing import Any

from django.http import JsonResponse
from rest_framework import status
from rest_framework.exceptions import APIException

from infra.errors import ErrorCode

CODE_FOR_STATUS: dict[int, ErrorCode] = {
    400: ErrorCode.BAD_REQUEST,
    401: ErrorCode.UNAUTHENTICATED,
    403: ErrorCode.FORBIDDEN,
    404: ErrorCode.NOT_FOUND,
    405: ErrorCode.METHOD_NOT_ALLOWED,
    406: ErrorCode.NOT_ACCEPTABLE,
    409: ErrorCode.CONFLICT,
    411: ErrorCode.LENGTH_REQUIRED,
    413: ErrorCode.PAYLOAD_TOO_LARGE,
    414: ErrorCode.URI_TOO_LONG,
    415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    422: ErrorCode.VALIDATION_ERROR,
    429: ErrorCode.TOO_MANY_REQUESTS,
    431: ErrorCode.REQUEST_HEADER_FIELDS_TOO_LARGE,
    500: ErrorCode.INTERNAL_ERROR,
    503: ErrorCode.SERVICE_UNAVAILABLE,
}


def error_body(
    *, status_code: int, message: str, error_code: str | None = None, errors: Any = None
) -> dict[str, Any]:
    """The error envelope: {"status": false, "data": {"code", "errorCode", "message"}}."""
    data = {
        "code": status_code,
        "errorCode": str(error_code or CODE_FOR_STATUS.get(status_code, ErrorCode.BAD_REQUEST)),
        "message": message,
    }
    if errors is not None:
        data["errors"] = errors
    return {"status": False, "data": data}


def error_response(status_code: int, message: str, errors: Any = None) -> JsonResponse:
    """The error envelope as a plain Django response (outside DRF's views)."""
    body = error_body(status_code=status_code, message=message, errors=errors)
    return JsonResponse(body, status=status_code)


class ApiError(APIException):
    """An error with a stable error code; rendered as the error envelope."""

    status_code: int = status.HTTP_400_BAD_REQUEST
    error_code: ErrorCode = ErrorCode.BAD_REQUEST
    default_detail = "The request could not be processed."

    def __init__(self, message: str | None = None, *, error_code: ErrorCode | None = None):
        super().__init__(detail=message or self.default_detail)
        if error_code is not None:
            self.error_code = error_code


class NotFound(ApiError):
    status_code = status.HTTP_404_NOT_FOUND
    error_code = ErrorCode.NOT_FOUND
    default_detail = "Not found."


def not_found(error_code: ErrorCode, message: str) -> NotFound:
    """`raise not_found(ErrorCode.PRODUCT_NOT_FOUND, "Product 12 was not found.")`."""
    return NotFound(message, error_code=error_code)
