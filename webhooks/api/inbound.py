"""The inbound webhook of the store's order system: `POST /webhooks/orders`.

Signed as the outbound ones are (webhooks.signing: `X-Signature: t=<unix>,v1=<hex
HMAC-SHA256(ORDERS_WEBHOOK_SECRET, "<t>." + body)>`, 5 minutes of clock tolerance), the body
capped (ORDERS_WEBHOOK_MAX_BODY_BYTES), then checked by a serializer; each order id is
recorded once (feedback.purchases). Every refusal is the error envelope.
"""

import time
from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.errors import ApiError, ErrorCode
from apikit.fields import JsonIntegerField, StrictCharField, StrictEmailField
from apikit.parsers import valid_data
from apikit.responses import success
from apikit.schema import error_responses, success_envelope
from feedback.purchases import (
    ORDER_EVENTS,
    ORDER_ID_MAX_LENGTH,
    ORDER_MAX_PRODUCTS,
    purchase_record,
)
from infra.ids import MAX_ID
from storefront.api.idempotency import IGNORED_KEY_DESCRIPTION, idempotency_key_parameter

from ..signing import verify

SIGNATURE_HEADER = "HTTP_X_SIGNATURE"


class OrderEventSerializer(serializers.Serializer):
    """Body of an order event: the order, its buyer (account id and/or e-mail) and products."""

    event = serializers.ChoiceField(choices=ORDER_EVENTS)
    orderId = StrictCharField(source="order_id", max_length=ORDER_ID_MAX_LENGTH)
    customerId = JsonIntegerField(
        source="customer_id", required=False, min_value=1, max_value=MAX_ID
    )
    email = StrictEmailField(required=False, max_length=254)
    productIds = serializers.ListField(
        source="product_ids",
        child=JsonIntegerField(min_value=1, max_value=MAX_ID),
        min_length=1,
        max_length=ORDER_MAX_PRODUCTS,
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("customer_id") is None and not attrs.get("email"):
            raise serializers.ValidationError(
                {"customerId": ["Give the customerId or the email of the buyer."]}
            )
        return attrs


class OrderRecordedSerializer(serializers.Serializer):
    orderId = serializers.CharField()
    duplicate = serializers.BooleanField(
        help_text="The order id was known (a cancel: already cancelled): nothing changed."
    )
    reviewsVerified = serializers.IntegerField(help_text="Existing reviews it marked verified.")


class SignatureRejected(ApiError):
    status_code = 401
    error_code = ErrorCode.UNAUTHENTICATED
    default_detail = "The X-Signature header does not sign this body (or is too old)."


class BodyTooLarge(ApiError):
    status_code = 413
    error_code = ErrorCode.PAYLOAD_TOO_LARGE
    default_detail = "The body is too large."


class InboundDisabled(ApiError):
    status_code = 404
    error_code = ErrorCode.NOT_FOUND
    default_detail = "The order webhook is not configured (ORDERS_WEBHOOK_SECRET)."


orders_webhook_schema = extend_schema(
    operation_id="orders_webhook",
    summary="Receive an order event (the store's order system)",
    description=(
        "`order.paid` or `order.delivered`; `order.cancelled` or `order.refunded` cancel the "
        "order (its buyer's reviews of its products lose `verifiedPurchase` unless another "
        "order, not cancelled, holds the product; a cancel before its order is kept, so the "
        "late `order.paid` is a repeat). Signed with the shared ORDERS_WEBHOOK_SECRET: "
        '`X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + raw body)>`; '
        "a timestamp more than 300 s away is refused (401), as is a wrong signature. "
        "Bodies over ORDERS_WEBHOOK_MAX_BODY_BYTES (64 KiB) are 413. Each order id is "
        "recorded once: a repeated id answers `duplicate` true and changes nothing. The "
        "buyer's reviews of the products become `verifiedPurchase`. 404 NOT_FOUND while no "
        "secret is configured (the endpoint is off). `Idempotency-Key` is accepted and "
        "ignored: the order id makes a retry safe."
    ),
    tags=["webhooks"],
    parameters=[
        OpenApiParameter("X-Signature", OpenApiTypes.STR, OpenApiParameter.HEADER, required=True),
        idempotency_key_parameter(IGNORED_KEY_DESCRIPTION),
    ],
    request=OrderEventSerializer,
    responses={
        200: success_envelope("OrderRecordedEnvelope", OrderRecordedSerializer),
        **error_responses(401, 404, 413, 415, 422),
    },
    examples=[
        OpenApiExample(
            "Order paid",
            request_only=True,
            value={
                "event": "order.paid",
                "orderId": "A-10293",
                "customerId": 42,
                "email": "joana@example.com",
                "productIds": [12, 31],
            },
        )
    ],
)


class OrdersWebhookView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @orders_webhook_schema
    def post(self, request: Request) -> Response:
        secret = settings.ORDERS_WEBHOOK_SECRET
        if not secret:
            raise InboundDisabled
        length = request.META.get("CONTENT_LENGTH") or "0"
        limit = settings.ORDERS_WEBHOOK_MAX_BODY_BYTES
        if not length.isdigit() or int(length) > limit or len(request.body) > limit:
            raise BodyTooLarge(f"The body is larger than {limit} bytes.")
        header = request.META.get(SIGNATURE_HEADER, "")
        if not verify(secret, header, request.body, now=int(time.time())):
            raise SignatureRejected
        data = valid_data(OrderEventSerializer, request)
        recorded = purchase_record(**data)
        return success(
            {
                "orderId": recorded.order_id,
                "duplicate": not recorded.created,
                "reviewsVerified": recorded.reviews_verified,
            }
        )
