from drf_spectacular.utils import OpenApiExample, extend_schema

from apikit.errors import ErrorCode
from apikit.schema import error_responses, no_store_header, success_envelope

from .customer_serializers import (
    CustomerLoginSerializer,
    CustomerRegisterSerializer,
    CustomerSerializer,
    CustomerSessionSerializer,
    PasswordResetAnswerSerializer,
    PasswordResetConfirmSerializer,
    PasswordResetRequestSerializer,
)
from .idempotency import IGNORED_KEY_DESCRIPTION, idempotency_key_parameter
from .payment_serializers import (
    CardFlagsSerializer,
    PaymentConditionsBodySerializer,
    PaymentConditionSerializer,
)
from .throttling import rate_limit_headers

payments_card_flags_schema = extend_schema(
    operation_id="payments_card_flags",
    summary="Card brand patterns",
    description=(
        "One regular expression per brand, valid in ECMAScript and Python alike, "
        "validating a whole card number (digits only). The patterns are mutually "
        "exclusive: Elo BINs inside the Visa range match only `elo`. Cacheable: the "
        "response carries an ETag (send If-None-Match for a 304)."
    ),
    tags=["payments"],
    responses={
        200: success_envelope("CardFlagsResponse", CardFlagsSerializer),
        **error_responses(),
    },
)


payments_conditions_schema = extend_schema(
    operation_id="payments_conditions",
    summary="Payment conditions of priced items",
    description=(
        "Cash discount and installments for each item, in request order (1 to 500 "
        "items). Without option ids the store's default options apply; with none "
        "configured, no discount and a single 1x payment. `value` is a JSON number (or "
        "numeric string) >= 0 with at most 2 decimals; unknown fields are ignored. A "
        "read-only POST (the item list is too long for a URL): it writes nothing, so a "
        "retry is always safe and `Idempotency-Key` is accepted and ignored."
    ),
    tags=["payments"],
    parameters=[idempotency_key_parameter(IGNORED_KEY_DESCRIPTION)],
    request=PaymentConditionsBodySerializer,
    responses={
        200: success_envelope("PaymentConditionsResponse", PaymentConditionSerializer, many=True),
        **error_responses(404, 413, 415, 422, not_found_code=ErrorCode.PAYMENT_OPTION_NOT_FOUND),
    },
    examples=[
        OpenApiExample(
            "Two items",
            value={
                "installmentPaymentOptionId": 2,
                "items": [
                    {"reference": "sku-1", "value": 1000.0},
                    {"reference": "sku-2", "value": 59.9},
                ],
            },
            request_only=True,
        )
    ],
)


customer_register_schema = extend_schema(
    operation_id="customer_register",
    summary="Register a customer account",
    description=(
        "Creates an active customer account. The e-mail is unique (case-insensitive); "
        "the password goes through the store's password validators and is never returned. "
        "Throttled per client IP and per e-mail address. Send an `Idempotency-Key` to "
        "retry safely: the retry gets the first answer instead of a duplicate-e-mail 422."
    ),
    tags=["customers"],
    parameters=[idempotency_key_parameter(), *rate_limit_headers()],
    request=CustomerRegisterSerializer,
    responses={
        201: success_envelope("CustomerEnvelope", CustomerSerializer),
        **error_responses(409, 422, 429),
    },
    examples=[
        OpenApiExample(
            "Register",
            request_only=True,
            value={
                "name": "Joana Silva",
                "email": "joana@example.com",
                "password": "lua-cheia-em-marco",
            },
        )
    ],
)


customer_login_schema = extend_schema(
    operation_id="customer_login",
    summary="Sign in: exchange e-mail and password for a signed token",
    description=(
        "Returns a signed, expiring token. Send it as `Authorization: Bearer <token>` "
        "(or in the `service-cookie-name` header or cookie). Wrong credentials, unknown "
        "e-mails and inactive accounts all answer the same 401 UNAUTHENTICATED. "
        "Throttled per client IP and per e-mail address. Signing in creates nothing (a "
        "retry just issues another token): `Idempotency-Key` is accepted and ignored, and "
        "tokens are never stored."
    ),
    tags=["customers"],
    parameters=[idempotency_key_parameter(IGNORED_KEY_DESCRIPTION), *rate_limit_headers()],
    request=CustomerLoginSerializer,
    responses={
        200: success_envelope("CustomerSessionEnvelope", CustomerSessionSerializer),
        **error_responses(401, 422, 429),
    },
)


customer_me_schema = extend_schema(
    operation_id="customer_me",
    summary="The signed-in customer",
    description="Requires a valid token; 401 UNAUTHENTICATED otherwise.",
    tags=["customers"],
    parameters=[no_store_header("personal data, never kept by any cache.")],
    responses={
        200: success_envelope("CustomerMeEnvelope", CustomerSerializer),
        **error_responses(401),
    },
)


password_reset_request_schema = extend_schema(
    operation_id="customer_password_reset_request",
    summary="Forgot password: e-mail a one-time reset link",
    description=(
        "Always 202 with the same message, whether or not an account uses the e-mail "
        "(no account enumeration). When an active account does, it gets an e-mail with a "
        "link to PUBLIC_BASE_URL + PASSWORD_RESET_URL carrying `uid` and `token`; the "
        "link works once and expires after PASSWORD_RESET_TIMEOUT seconds (1 hour). "
        "Throttled per client IP and per e-mail address. `Idempotency-Key` makes a retry "
        "answer the first 202 without sending a second e-mail."
    ),
    tags=["customers"],
    parameters=[idempotency_key_parameter(), *rate_limit_headers()],
    request=PasswordResetRequestSerializer,
    responses={
        202: success_envelope("PasswordResetRequestEnvelope", PasswordResetAnswerSerializer),
        **error_responses(409, 415, 422, 429),
    },
    examples=[OpenApiExample("Request", request_only=True, value={"email": "joana@example.com"})],
)


password_reset_confirm_schema = extend_schema(
    operation_id="customer_password_reset_confirm",
    summary="Choose a new password with the e-mailed link",
    description=(
        "`uid` and `token` come from the e-mailed link. A wrong, used or expired link is "
        "422 naming `token`; a password the store's validators refuse is 422 naming "
        "`password`. Success voids every reset link and every sign-in token issued "
        "before. Throttled per client IP."
    ),
    tags=["customers"],
    parameters=[
        idempotency_key_parameter(
            "Accepted and ignored: the body holds the new password, so no answer is kept for "
            "it. A link works once: a retry after success is 422."
        ),
        *rate_limit_headers(),
    ],
    request=PasswordResetConfirmSerializer,
    responses={
        200: success_envelope("PasswordResetConfirmEnvelope", PasswordResetAnswerSerializer),
        **error_responses(415, 422, 429),
    },
    examples=[
        OpenApiExample(
            "Confirm",
            request_only=True,
            value={"uid": "MTI", "token": "cmt9zk-3f2b...", "password": "a new long password"},
        )
    ],
)
