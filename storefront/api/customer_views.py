"""Customer accounts: POST /publics/customers (register), POST /publics/customers/login
(signed token) and GET /publics/customers/me (the signed-in customer).

Answers use the success envelope; errors the error envelope. Both writes are throttled
per client IP and per e-mail address.
"""

import hashlib

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.views import APIView

from apikit.responses import success
from apikit.schema import error_responses, success_envelope
from storefront.services import customer_login, customer_register

from .authentication import IsCustomer
from .customer_serializers import (
    CustomerLoginSerializer,
    CustomerRegisterSerializer,
    CustomerSerializer,
    CustomerSessionSerializer,
)
from .idempotency import idempotency_key_parameter, idempotent
from .throttling import FixedWindowThrottle, PublicWriteThrottle


class LoginIpThrottle(PublicWriteThrottle):
    """Sign-in attempts per client IP (`login` rate); counted in the database while the
    shared cache is down, so the limit holds during an outage."""

    scope = "login"
    when_cache_down = "database"


class CustomerEmailThrottle(FixedWindowThrottle):
    """Writes naming the same e-mail address (`login_email` rate), from any IP.

    The address is hashed into the cache key; bodies without a usable `email` are left
    to the per-IP throttle and to validation. Counted in the database while the shared
    cache is down.
    """

    scope = "login_email"
    when_cache_down = "database"

    def get_cache_key(self, request, view):
        data = request.data
        email = data.get("email") if isinstance(data, dict) else None
        if not isinstance(email, str) or not email.strip():
            return None
        digest = hashlib.sha256(email.strip().lower().encode("utf-8", "replace")).hexdigest()
        bucket = getattr(view, "throttle_scope", None) or type(view).__name__
        return f"throttle:{self.scope}:{bucket}:{digest}"


class CustomerRegisterView(APIView):
    throttle_classes = [PublicWriteThrottle, CustomerEmailThrottle]
    throttle_scope = "customer-register"

    @extend_schema(
        operation_id="customer_register",
        summary="Register a customer account",
        description=(
            "Creates an active customer account. The e-mail is unique (case-insensitive); "
            "the password goes through the store's password validators and is never returned. "
            "Throttled per client IP and per e-mail address. Send an `Idempotency-Key` to "
            "retry safely: the retry gets the first answer instead of a duplicate-e-mail 422."
        ),
        tags=["customers"],
        parameters=[idempotency_key_parameter()],
        request=CustomerRegisterSerializer,
        responses={
            201: success_envelope("CustomerEnvelope", CustomerSerializer),
            **error_responses(409, 422, 429),
        },
        examples=[
            OpenApiExample(
                "Register",
                request_only=True,
                value={"name": "Joana Silva", "email": "joana@example.com", "password": "..."},
            )
        ],
    )
    @idempotent
    def post(self, request):
        serializer = CustomerRegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        customer = customer_register(**serializer.validated_data)
        return success(CustomerSerializer(customer).data, status=201)


class CustomerLoginView(APIView):
    throttle_classes = [LoginIpThrottle, CustomerEmailThrottle]
    throttle_scope = "customer-login"

    @extend_schema(
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
        parameters=[idempotency_key_parameter(writes=False)],
        request=CustomerLoginSerializer,
        responses={
            200: success_envelope("CustomerSessionEnvelope", CustomerSessionSerializer),
            **error_responses(401, 422, 429),
        },
    )
    def post(self, request):
        serializer = CustomerLoginSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = customer_login(**serializer.validated_data)  # InvalidCredentials: 401
        # A bearer token must never sit in a shared cache.
        return success(
            CustomerSessionSerializer(session).data, headers={"Cache-Control": "no-store"}
        )


class CustomerMeView(APIView):
    permission_classes = [IsCustomer]

    @extend_schema(
        operation_id="customer_me",
        summary="The signed-in customer",
        description="Requires a valid token; 401 UNAUTHENTICATED otherwise.",
        tags=["customers"],
        responses={
            200: success_envelope("CustomerMeEnvelope", CustomerSerializer),
            **error_responses(401),
        },
    )
    def get(self, request):
        return success(CustomerSerializer(request.user).data, headers={"Cache-Control": "no-store"})
