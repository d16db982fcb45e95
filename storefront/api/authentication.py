"""Customer sign-in for the public API: the signed token of POST /publics/customers/login,
from `Authorization: Bearer`, else the `service-cookie-name` header, else that cookie.

An invalid or expired token leaves the request anonymous (`request.user` None); `IsCustomer`
endpoints then answer 401 UNAUTHENTICATED with `WWW-Authenticate: Bearer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import BasePermission

from apikit.context import current
from storefront.models import Customer
from storefront.services import customer_for_token
from storefront.tokens import TokenPayload, token_read

# Types only: DRF's settings import this module, and these modules read those settings.
if TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema
    from rest_framework.request import Request
    from rest_framework.views import APIView

SERVICE_HEADER = "service-cookie-name"
SERVICE_COOKIE = "service-cookie-name"
INVALID_SIGN_IN_MESSAGE = "The sign-in token is invalid or has expired. Sign in again."
MISSING_SIGN_IN_MESSAGE = "Sign in to use this endpoint (Authorization: Bearer <token>)."


def request_token(request: Request) -> str | None:
    header = get_authorization_header(request).decode("latin-1").strip()
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    for value in (request.headers.get(SERVICE_HEADER), request.COOKIES.get(SERVICE_COOKIE)):
        if value and value.strip():
            return value.strip()
    return None


class CustomerTokenAuthentication(BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Customer, TokenPayload | None] | None:
        token = request_token(request)
        if token is None:
            return None
        payload = token_read(token)
        customer = customer_for_token(payload=payload)
        if customer is None:
            # Anonymous where sign-in is optional; IsCustomer explains the 401.
            context = current()
            if context is not None:  # for IsCustomer's message
                context.customer_token_rejected = True
            return None
        return customer, payload

    def authenticate_header(self, request: Request) -> str:
        return f'{self.keyword} realm="api"'


class IsCustomer(BasePermission):
    """Only a signed-in, active customer (401 UNAUTHENTICATED otherwise)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if isinstance(request.user, Customer):
            return True
        context = current()
        rejected = context is not None and context.customer_token_rejected
        # Raised (not returned False) so the 401 carries this message.
        raise NotAuthenticated(INVALID_SIGN_IN_MESSAGE if rejected else MISSING_SIGN_IN_MESSAGE)


def signed_in_customer(request: Request) -> Customer:
    if not isinstance(request.user, Customer):
        raise NotAuthenticated(MISSING_SIGN_IN_MESSAGE)
    return request.user


class CustomerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "storefront.api.authentication.CustomerTokenAuthentication"
    name = ["customerToken", "serviceCookieHeader", "serviceCookie"]

    def get_security_requirement(self, auto_schema: AutoSchema) -> list[dict[str, list[Any]]]:
        return [{name: []} for name in self.name]  # any one of them

    def get_security_definition(self, auto_schema: AutoSchema) -> list[dict[str, str]]:
        description = (
            "Signed token of POST /publics/customers/login. Optional except where an "
            "endpoint says otherwise; an invalid or expired token counts as anonymous."
        )
        return [
            {"type": "http", "scheme": "bearer", "description": description},
            {"type": "apiKey", "in": "header", "name": SERVICE_HEADER, "description": description},
            {"type": "apiKey", "in": "cookie", "name": SERVICE_COOKIE, "description": description},
        ]
