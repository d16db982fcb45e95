"""GET /publics/payments/card-flags and POST /publics/payments/conditions (contract 4.1, 4.2)."""

from django.http import HttpResponse
from rest_framework.request import Request
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.parsers import valid_data
from apikit.responses import envelope
from storefront.cards import CARD_FLAG_PATTERNS
from storefront.models import PaymentOptionKind
from storefront.selectors import payment_terms_get

from .payment_serializers import PaymentConditionsBodySerializer, payment_conditions_data
from .schema import payments_card_flags_schema, payments_conditions_schema

# Built once per process: nothing to fetch from the shared cache, nothing stale after a deploy.
CARD_FLAGS_PAYLOAD = envelope(dict(CARD_FLAG_PATTERNS))


class CardFlagsView(APIView):
    authentication_classes = []  # public and customer-independent: no token lookup

    @payments_card_flags_schema
    def get(self, request: Request) -> HttpResponse:
        return conditional_response(request, CARD_FLAGS_PAYLOAD)


class PaymentConditionsView(APIView):
    authentication_classes = []  # public and customer-independent: no token lookup

    @payments_conditions_schema
    def post(self, request: Request) -> HttpResponse:
        body = valid_data(PaymentConditionsBodySerializer, request)
        cash_id, plan_id = body["cashDiscountPaymentOptionId"], body["installmentPaymentOptionId"]
        cash = payment_terms_get(option_id=cash_id, kind=PaymentOptionKind.CASH_DISCOUNT)
        plan = payment_terms_get(option_id=plan_id, kind=PaymentOptionKind.INSTALLMENTS)
        # A named option that is not found is a 404 (none named: the default, if any).
        for option_id, terms, label in (
            (cash_id, cash, "Cash-discount"),
            (plan_id, plan, "Installment"),
        ):
            if option_id is not None and terms is None:
                message = f"{label} payment option {option_id} was not found."
                raise not_found(ErrorCode.PAYMENT_OPTION_NOT_FOUND, message)
        return conditional_response(
            request, envelope(payment_conditions_data(body["items"], cash=cash, plan=plan))
        )
