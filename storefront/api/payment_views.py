"""GET /publics/payments/card-flags and POST /publics/payments/conditions (contract 4.1, 4.2)."""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.schema import error_responses, success_envelope
from storefront.cards import CARD_FLAG_PATTERNS
from storefront.models import PaymentOptionKind
from storefront.selectors import payment_terms_get

from .idempotency import idempotency_key_parameter
from .payment_serializers import (
    CardFlagsSerializer,
    PaymentConditionsBodySerializer,
    PaymentConditionSerializer,
    payment_conditions_data,
)

# The patterns are code: built once per process, so there is nothing to fetch from the
# shared cache (and nothing stale to serve there after a deploy changes them).
CARD_FLAGS_PAYLOAD = {"status": True, "data": dict(CARD_FLAG_PATTERNS)}


class CardFlagsView(APIView):
    authentication_classes = []  # public and customer-independent: no token lookup

    @extend_schema(
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
            304: OpenApiResponse(description="Not modified (If-None-Match matched the ETag)."),
            **error_responses(),
        },
    )
    def get(self, request):
        return conditional_response(request, CARD_FLAGS_PAYLOAD)


class PaymentConditionsView(APIView):
    authentication_classes = []  # public and customer-independent: no token lookup

    @extend_schema(
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
        parameters=[idempotency_key_parameter(writes=False)],
        request=PaymentConditionsBodySerializer,
        responses={
            200: success_envelope(
                "PaymentConditionsResponse", PaymentConditionSerializer, many=True
            ),
            **error_responses(
                404, 413, 415, 422, not_found_code=ErrorCode.PAYMENT_OPTION_NOT_FOUND
            ),
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
    def post(self, request):
        serializer = PaymentConditionsBodySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        body = serializer.validated_data
        cash = _payment_terms(body["cashDiscountPaymentOptionId"], PaymentOptionKind.CASH_DISCOUNT)
        plan = _payment_terms(body["installmentPaymentOptionId"], PaymentOptionKind.INSTALLMENTS)
        return conditional_response(
            request,
            {"status": True, "data": payment_conditions_data(body["items"], cash=cash, plan=plan)},
        )


_OPTION_LABELS = {
    PaymentOptionKind.CASH_DISCOUNT: "Cash-discount",
    PaymentOptionKind.INSTALLMENTS: "Installment",
}


def _payment_terms(option_id: int | None, kind: str):
    """The terms of the named option (else the default one; None when none applies)."""
    terms = payment_terms_get(option_id=option_id, kind=kind)
    if option_id is not None and terms is None:
        raise not_found(
            ErrorCode.PAYMENT_OPTION_NOT_FOUND,
            f"{_OPTION_LABELS[kind]} payment option {option_id} was not found.",
        )
    return terms
