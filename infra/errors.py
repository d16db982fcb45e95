"""Every error code the service answers with (DESIGN §4), and the errors the domain raises:
services and selectors raise `DomainError` subclasses knowing no HTTP status or API name;
apikit.exception_handler maps them to statuses and API field names.
"""

from enum import StrEnum


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
    COMMENT_NOT_FOUND = "SERVICE_STORE_COMMENT_NOT_FOUND"
    REVIEW_NOT_FOUND = "SERVICE_STORE_REVIEW_NOT_FOUND"
    PRODUCT_NOT_FOUND = "SERVICE_STORE_PRODUCT_NOT_FOUND"
    ZIPCODE_NOT_FOUND = "SERVICE_STORE_ZIPCODE_NOT_FOUND"
    UPSELL_NOT_FOUND = "SERVICE_STORE_UPSELL_NOT_FOUND"
    PAYMENT_OPTION_NOT_FOUND = "SERVICE_STORE_PAYMENT_OPTION_NOT_FOUND"
    # Shipping quote: unknown policy (404), and reasons in errorItems / a group's `error`.
    TRADE_POLICY_NOT_FOUND = "SERVICE_STORE_TRADE_POLICY_NOT_FOUND"
    PRODUCT_UNAVAILABLE = "SERVICE_STORE_PRODUCT_UNAVAILABLE"
    PRODUCT_OUT_OF_STOCK = "SERVICE_STORE_PRODUCT_OUT_OF_STOCK"
    STORAGE_NOT_FOUND = "SERVICE_STORE_STORAGE_NOT_FOUND"
    SHIPPING_OPTION_NOT_FOUND = "SERVICE_STORE_SHIPPING_OPTION_NOT_FOUND"


class DomainError(Exception):
    """A rule of the store refused the operation."""

    code: ErrorCode = ErrorCode.BAD_REQUEST
    default_message = "The request could not be processed."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)


class NotFoundError(DomainError):
    """The named record does not exist (or is not public): 404 with `code`."""

    code = ErrorCode.NOT_FOUND
    default_message = "Not found."


class RuleViolation(DomainError):
    """Input that breaks a rule needing the database: 422 naming `field`."""

    code = ErrorCode.VALIDATION_ERROR
    field = "non_field_errors"

    def __init__(self, message: str | None = None, *, messages: list[str] | None = None):
        super().__init__(message or (messages[0] if messages else None))
        self.messages = messages or [self.message]


class AuthenticationFailed(DomainError):
    """Credentials that identify no active account: 401."""

    code = ErrorCode.UNAUTHENTICATED
    default_message = "Authentication credentials were not provided or are invalid."
