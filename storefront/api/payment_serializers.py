"""Serializers of the payment endpoints: card flags and payment conditions."""

from decimal import Decimal

from rest_framework import serializers

from storefront.models import PaymentOptionKind
from storefront.payments import (
    PaymentCondition,
    PricedItem,
    cash_discount_terms_of,
    installment_terms_of,
)
from storefront.selectors import payment_option_get

from .errors import ErrorCode, not_found
from .fields import StrictCharField

CONDITIONS_MAX_ITEMS = 500
REFERENCE_MAX_LENGTH = 100
ITEM_VALUE_MAX = Decimal("999999999.99")
OPTION_ID_MAX = 2**63 - 1  # BigAutoField: larger ids cannot exist


class CardFlagsSerializer(serializers.Serializer):
    """{brand: regular expression} for the six brands of the contract."""

    visa = serializers.CharField(help_text="Regular expression validating a Visa number.")
    master = serializers.CharField(help_text="Regular expression validating a Mastercard number.")
    americanexpress = serializers.CharField(
        help_text="Regular expression validating an American Express number."
    )
    elo = serializers.CharField(help_text="Regular expression validating an Elo number.")
    hipercard = serializers.CharField(help_text="Regular expression validating a Hipercard number.")
    aura = serializers.CharField(help_text="Regular expression validating an Aura number.")


class ItemValueField(serializers.DecimalField):
    """Money in: a JSON number or a numeric string, >= 0, at most 2 decimals.

    Booleans and non-ASCII digits are refused; trailing zeros past the cents ("10.500")
    are not extra precision.
    """

    def __init__(self, **kwargs):
        super().__init__(
            max_digits=11,
            decimal_places=2,
            min_value=Decimal("0"),
            max_value=ITEM_VALUE_MAX,
            **kwargs,
        )

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float | str | Decimal):
            self.fail("invalid")
        if isinstance(data, str) and not data.isascii():
            self.fail("invalid")
        value = super().to_internal_value(data)
        return value if value else Decimal("0.00")  # no "-0.00"

    def validate_precision(self, value):
        if value.is_finite() and value.as_tuple().exponent < -self.decimal_places:
            value = value.normalize()  # 10.500 -> 10.5 (1E+3 stays a whole number)
        return super().validate_precision(value)


class ConditionItemSerializer(serializers.Serializer):
    reference = StrictCharField(max_length=REFERENCE_MAX_LENGTH, trim_whitespace=False)
    value = ItemValueField()

    def validate(self, attrs):
        return PricedItem(reference=attrs["reference"], value=attrs["value"])


def _option_id_field(kind_label: str) -> serializers.IntegerField:
    return serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=OPTION_ID_MAX,
        help_text=f"Id of the {kind_label} payment option; absent or null: the default one.",
    )


class PaymentConditionsBodySerializer(serializers.Serializer):
    """Items to price, and optionally the payment options to price them with."""

    # Validated data: `items` (PricedItem, in request order), `cash_discount_terms` and
    # `installment_terms` (None when no option applies). An id naming no active option of
    # its kind is a 404, checked only once the whole body is valid (validate()).

    cashDiscountPaymentOptionId = _option_id_field("cash-discount")
    installmentPaymentOptionId = _option_id_field("installment")
    items = ConditionItemSerializer(many=True, allow_empty=False, max_length=CONDITIONS_MAX_ITEMS)

    def validate(self, attrs):
        cash_id = attrs.get("cashDiscountPaymentOptionId")
        cash = payment_option_get(option_id=cash_id, kind=PaymentOptionKind.CASH_DISCOUNT)
        if cash_id is not None and cash is None:
            raise not_found(
                ErrorCode.PAYMENT_OPTION_NOT_FOUND,
                f"Cash-discount payment option {cash_id} was not found.",
            )
        plan_id = attrs.get("installmentPaymentOptionId")
        plan = payment_option_get(option_id=plan_id, kind=PaymentOptionKind.INSTALLMENTS)
        if plan_id is not None and plan is None:
            raise not_found(
                ErrorCode.PAYMENT_OPTION_NOT_FOUND,
                f"Installment payment option {plan_id} was not found.",
            )
        return {
            "items": attrs["items"],
            "cash_discount_terms": cash_discount_terms_of(cash) if cash else None,
            "installment_terms": installment_terms_of(plan) if plan else None,
        }


def _money(**kwargs) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=None, decimal_places=2, **kwargs)


class CashDiscountSerializer(serializers.Serializer):
    discountPercentage = _money(source="discount_percentage", help_text="Percent off, 0..100.")
    discountValue = _money(source="discount_value")
    valueWithDiscount = _money(source="value_with_discount")


class InstallmentSerializer(serializers.Serializer):
    installment = serializers.IntegerField(help_text="Number of installments.")
    installmentValue = _money(source="installment_value")
    totalValue = _money(source="total_value")
    fee = serializers.DecimalField(
        max_digits=None,
        decimal_places=4,
        help_text="Monthly interest rate in percent (e.g. 1.99); 0 when interest-free.",
    )
    feeTotalValue = _money(source="fee_total_value", help_text="totalValue - value.")


class PaymentConditionSerializer(serializers.Serializer):
    reference = serializers.CharField()
    value = _money()
    cashDiscount = CashDiscountSerializer(source="cash_discount")
    installments = InstallmentSerializer(many=True)


def payment_condition_data(condition: PaymentCondition) -> dict:
    """The JSON of one result, shaped as PaymentConditionSerializer documents it.

    Built by hand: a 500-item request has 6,500 nested objects and 26,000 numbers, which
    DRF's field-by-field serialization and its encoder's per-Decimal fallback render many
    times slower. Amounts are already rounded to the cent, so float() is only the wire
    format (what DRF's encoder would write for a Decimal). A test keeps both shapes equal.
    """
    discount = condition.cash_discount
    return {
        "reference": condition.reference,
        "value": float(condition.value),
        "cashDiscount": {
            "discountPercentage": float(discount.discount_percentage),
            "discountValue": float(discount.discount_value),
            "valueWithDiscount": float(discount.value_with_discount),
        },
        "installments": [
            {
                "installment": entry.installment,
                "installmentValue": float(entry.installment_value),
                "totalValue": float(entry.total_value),
                "fee": float(entry.fee),
                "feeTotalValue": float(entry.fee_total_value),
            }
            for entry in condition.installments
        ],
    }
