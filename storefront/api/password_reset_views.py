"""Password reset: POST /publics/customers/password-reset and .../confirm, throttled like
sign-in. The confirmation ignores `Idempotency-Key`: its body holds the new password."""

from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.parsers import valid_data
from apikit.responses import success
from storefront.password_reset import password_reset_confirm, password_reset_request

from .customer_serializers import PasswordResetConfirmSerializer, PasswordResetRequestSerializer
from .customer_views import NO_STORE, CustomerEmailThrottle, LoginIpThrottle
from .idempotency import idempotent
from .schema import password_reset_confirm_schema, password_reset_request_schema


class PasswordResetRequestView(APIView):
    throttle_classes = [LoginIpThrottle, CustomerEmailThrottle]
    throttle_scope = "customer-password-reset"

    @password_reset_request_schema
    @idempotent
    def post(self, request: Request) -> Response:
        password_reset_request(**valid_data(PasswordResetRequestSerializer, request))
        message = _(
            "If an account uses this e-mail address, a link to choose a new password "
            "was sent to it."
        )
        return success({"message": message}, status=202, headers=NO_STORE)


class PasswordResetConfirmView(APIView):
    throttle_classes = [LoginIpThrottle]
    throttle_scope = "customer-password-reset-confirm"

    @password_reset_confirm_schema
    def post(self, request: Request) -> Response:
        password_reset_confirm(**valid_data(PasswordResetConfirmSerializer, request))
        message = _("Your password was changed. Sign in with the new password.")
        return success({"message": message}, headers=NO_STORE)
