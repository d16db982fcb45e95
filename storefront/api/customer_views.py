"""Customer accounts: POST /publics/customers (register), POST /publics/customers/login
(signed token) and GET /publics/customers/me; both writes throttled per IP and per e-mail."""

import hashlib

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.parsers import valid_data
from apikit.responses import success
from storefront.services import customer_login, customer_register

from .authentication import IsCustomer
from .customer_serializers import (
    CustomerLoginSerializer,
    CustomerRegisterSerializer,
    CustomerSerializer,
    CustomerSessionSerializer,
)
from .idempotency import idempotent
from .schema import customer_login_schema, customer_me_schema, customer_register_schema
from .throttling import FixedWindowThrottle, PublicWriteThrottle

NO_STORE = {"Cache-Control": "no-store"}


class LoginIpThrottle(PublicWriteThrottle):
    scope = "login"
    when_cache_down = "database"


class CustomerEmailThrottle(FixedWindowThrottle):
    """Writes naming the same (hashed) e-mail address (`login_email` rate), from any IP."""

    scope = "login_email"
    when_cache_down = "database"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        data = request.data
        email = data.get("email") if isinstance(data, dict) else None
        if not isinstance(email, str) or not email.strip():
            return None
        digest = hashlib.sha256(email.strip().lower().encode("utf-8", "replace")).hexdigest()
        return self.bucket(view, digest)


class CustomerRegisterView(APIView):
    throttle_classes = [PublicWriteThrottle, CustomerEmailThrottle]
    throttle_scope = "customer-register"

    @customer_register_schema
    @idempotent
    def post(self, request: Request) -> Response:
        customer = customer_register(**valid_data(CustomerRegisterSerializer, request))
        return success(CustomerSerializer(customer).data, status=201)


class CustomerLoginView(APIView):
    throttle_classes = [LoginIpThrottle, CustomerEmailThrottle]
    throttle_scope = "customer-login"

    @customer_login_schema
    def post(self, request: Request) -> Response:
        data = valid_data(CustomerLoginSerializer, request)
        session = customer_login(**data)  # InvalidCredentials: 401
        # A bearer token must never sit in a shared cache.
        return success(CustomerSessionSerializer(session).data, headers=NO_STORE)


class CustomerMeView(APIView):
    permission_classes = [IsCustomer]

    @customer_me_schema
    def get(self, request: Request) -> Response:
        return success(CustomerSerializer(request.user).data, headers=NO_STORE)
