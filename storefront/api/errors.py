"""Every error code the API returns, and the exceptions that carry them.

This is the one module that names error codes (DESIGN §4). Views and services raise
`ApiError` subclasses (or DRF's own exceptions); `exception_handler` turns them into
the error envelope.
"""

from enum import StrEnum

from rest_framework import status
from rest_framework.exceptions import APIException


class ErrorCode(StrEnum):
    VALIDATION_ERROR = "VALIDATION_ERROR"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    FORBIDDEN = "FORBIDDEN"
    NOT_FOUND = "NOT_FOUND"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    NOT_ACCEPTABLE = "NOT_ACCEPTABLE"
    LENGTH_REQUIRED = "LENGTH_REQUIRED"
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    URI_TOO_LONG = "URI_TOO_LONG"
    REQUEST_HEADER_FIELDS_TOO_LARGE = "REQUEST_HEADER_FIELDS_TOO_LARGE"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    TOO_MANY_REQUESTS = "TOO_MANY_REQUESTS"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"
    BAD_REQUEST = "BAD_REQUEST"
    CONFLICT = "CONFLICT"
    IDEMPOTENCY_REQUEST_IN_PROGRESS = "IDEMPOTENCY_REQUEST_IN_PROGRESS"
    # Resources of the store (the contract's SERVICE_STORE_<THING>_NOT_FOUND pattern).
    BANNER_GROUP_NOT_FOUND = "SERVICE_STORE_BANNER_GROUP_NOT_FOUND"
    CATEGORY_NOT_FOUND = "SERVICE_STORE_CATEGORY_NOT_FOUND"
    PRODUCT_NOT_FOUND = "SERVICE_STORE_PRODUCT_NOT_FOUND"
    ZIPCODE_NOT_FOUND = "SERVICE_STORE_ZIPCODE_NOT_FOUND"
    UPSELL_NOT_FOUND = "SERVICE_STORE_UPSELL_NOT_FOUND"
    COMMENT_NOT_FOUND = "SERVICE_STORE_COMMENT_NOT_FOUND"
    PAYMENT_OPTION_NOT_FOUND = "SERVICE_STORE_PAYMENT_OPTION_NOT_FOUND"
    CUSTOMER_NOT_FOUND = "SERVICE_STORE_CUSTOMER_NOT_FOUND"
    CUSTOMER_ALREADY_EXISTS = "SERVICE_STORE_CUSTOMER_ALREADY_EXISTS"
    # Shipping quote: unknown policy (404), and reasons in errorItems / a group's `error`.
    TRADE_POLICY_NOT_FOUND = "SERVICE_STORE_TRADE_POLICY_NOT_FOUND"
    PRODUCT_UNAVAILABLE = "SERVICE_STORE_PRODUCT_UNAVAILABLE"
    PRODUCT_OUT_OF_STOCK = "SERVICE_STORE_PRODUCT_OUT_OF_STOCK"
    STORAGE_NOT_FOUND = "SERVICE_STORE_STORAGE_NOT_FOUND"
    SHIPPING_OPTION_NOT_FOUND = "SERVICE_STORE_SHIPPING_OPTION_NOT_FOUND"


# Error code used for each HTTP status when the exception does not name one.
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
    *, status_code: int, message: str, error_code: str | None = None, errors=None
) -> dict:
    """The error envelope: {"status": false, "data": {"code", "errorCode", "message"}}."""
    data = {
        "code": status_code,
        "errorCode": str(error_code or CODE_FOR_STATUS.get(status_code, ErrorCode.BAD_REQUEST)),
        "message": message,
    }
    if errors is not None:
        data["errors"] = errors
    return {"status": False, "data": data}


class ApiError(APIException):
    """An error with a stable error code; rendered as the error envelope."""

    status_code = status.HTTP_400_BAD_REQUEST
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


class PayloadTooLarge(ApiError):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    error_code = ErrorCode.PAYLOAD_TOO_LARGE
    default_detail = "The request body is too large."


class Unauthenticated(ApiError):
    status_code = status.HTTP_401_UNAUTHORIZED
    error_code = ErrorCode.UNAUTHENTICATED
    default_detail = "Authentication credentials were not provided or are invalid."


def not_found(error_code: ErrorCode, message: str) -> NotFound:
    """`raise not_found(ErrorCode.PRODUCT_NOT_FOUND, "Product 12 was not found.")`."""
    return NotFound(message, error_code=error_code)
