"""GET /publics/payments/card-flags and POST /publics/payments/conditions (contract 4.1, 4.2)."""

from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.parsers import valid_data
from apikit.responses import envelope
from storefront.cards import CARD_FLAG_PATTERNS
from storefront.models import PaymentOptionKind
from storefront.selectors import PaymentTerms, payment_terms_get

from .payment_serializers import (
    PaymentConditionsBodySerializer,
    payment_conditions_data,
)
from .schema import payments_card_flags_schema, payments_conditions_schema

# The patterns are code: built once per process, so there is nothing to fetch from the
# shared cache (and nothing stale to serve there after a deploy changes them).
CARD_FLAGS_PAYLOAD = envelope(dict(CARD_FLAG_PATTERNS))


class CardFlagsView(APIView):
    authentication_classes = []  # public and customer-independent: no token lookup

    @payments_card_flags_schema
    def get(self, request):
        return conditional_response(request, CARD_FLAGS_PAYLOAD)


class PaymentConditionsView(APIView):
    authentication_classes = []  # public and customer-independent: no token lookup

    @payments_conditions_schema
    def post(self, request):
        body = valid_data(PaymentConditionsBodySerializer, request)
        cash = _payment_terms(body["cashDiscountPaymentOptionId"], PaymentOptionKind.CASH_DISCOUNT)
        plan = _payment_terms(body["installmentPaymentOptionId"], PaymentOptionKind.INSTALLMENTS)
        return conditional_response(
            request,
            envelope(payment_conditions_data(body["items"], cash=cash, plan=plan)),
        )


_OPTION_LABELS = {
    PaymentOptionKind.CASH_DISCOUNT: "Cash-discount",
    PaymentOptionKind.INSTALLMENTS: "Installment",
}


def _payment_terms(option_id: int | None, kind: PaymentOptionKind) -> PaymentTerms | None:
    """The terms of the named option (else the default one; None when none applies)."""
    terms = payment_terms_get(option_id=option_id, kind=kind)
    if option_id is not None and terms is None:
        raise not_found(
            ErrorCode.PAYMENT_OPTION_NOT_FOUND,
            f"{_OPTION_LABELS[kind]} payment option {option_id} was not found.",
        )
    return terms
