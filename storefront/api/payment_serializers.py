from decimal import Decimal
from functools import lru_cache
from typing import Any

from rest_framework import serializers

from apikit.fields import StrictCharField
from infra.ids import MAX_ID
from storefront.payments import (
    NO_CASH_DISCOUNT,
    SINGLE_PAYMENT,
    CashDiscountTerms,
    InstallmentTerms,
    cash_discount,
    installment_plan,
)

CONDITIONS_MAX_ITEMS = 500
REFERENCE_MAX_LENGTH = 100
ITEM_VALUE_MAX = Decimal("999999999.99")


class CardFlagsSerializer(serializers.Serializer):
    visa = serializers.CharField(help_text="Regular expression validating a Visa number.")
    master = serializers.CharField(help_text="Regular expression validating a Mastercard number.")
    americanexpress = serializers.CharField(
        help_text="Regular expression validating an American Express number."
    )
    elo = serializers.CharField(help_text="Regular expression validating an Elo number.")
    hipercard = serializers.CharField(help_text="Regular expression validating a Hipercard number.")
    aura = serializers.CharField(help_text="Regular expression validating an Aura number.")


class ItemValueField(serializers.DecimalField):
    """Money in: a JSON number or an ASCII numeric string, >= 0, at most 2 decimals."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            max_digits=11,
            decimal_places=2,
            min_value=Decimal("0"),
            max_value=ITEM_VALUE_MAX,
            **kwargs,
        )

    def to_internal_value(self, data: Any) -> Decimal:
        if isinstance(data, bool) or not isinstance(data, int | float | str | Decimal):
            self.fail("invalid")
        if isinstance(data, str) and (not data.isascii() or "_" in data):  # Decimal("1_0") is 10
            self.fail("invalid")
        value = super().to_internal_value(data)
        return value if value else Decimal("0.00")  # no "-0.00"

    def validate_precision(self, value: Decimal) -> Decimal:
        exponent = value.as_tuple().exponent  # a letter for NaN and the infinities
        places = self.decimal_places
        if isinstance(exponent, int) and places is not None and exponent < -places:
            value = value.normalize()  # 10.500 -> 10.5 (1E+3 stays a whole number)
        return super().validate_precision(value)


class ConditionItemSerializer(serializers.Serializer):
    reference = StrictCharField(max_length=REFERENCE_MAX_LENGTH, trim_whitespace=False)
    value = ItemValueField()


def _option_id_field(kind_label: str) -> serializers.IntegerField:
    return serializers.IntegerField(
        default=None,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        help_text=f"Id of the {kind_label} payment option; absent or null: the default one.",
    )


class PaymentConditionsBodySerializer(serializers.Serializer):
    cashDiscountPaymentOptionId = _option_id_field("cash-discount")
    installmentPaymentOptionId = _option_id_field("installment")
    # many=True passes max_length on to the ListSerializer (the stubs do not model that).
    items = ConditionItemSerializer(  # type: ignore[call-arg]
        many=True, allow_empty=False, max_length=CONDITIONS_MAX_ITEMS
    )


def _money(**kwargs: Any) -> serializers.DecimalField:
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


@lru_cache(maxsize=8192)
def _value_data(value: Decimal, cash: CashDiscountTerms, plan: InstallmentTerms) -> dict:
    """The JSON of one result but its reference, as PaymentConditionSerializer documents it
    (by hand: DRF's rendering of 500 items is many times slower; a test keeps them equal).
    Memoized: callers never mutate it."""
    discount = cash_discount(value, cash)
    return {
        # Amounts are rounded to the cent already: float() is only the wire format.
        "value": float(value),
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
            for entry in installment_plan(value, plan)
        ],
    }


def payment_conditions_data(
    items: list[dict[str, Any]], *, cash: CashDiscountTerms | None, plan: InstallmentTerms | None
) -> list[dict]:
    cash = cash or NO_CASH_DISCOUNT
    plan = plan or SINGLE_PAYMENT
    return [
        {"reference": item["reference"], **_value_data(item["value"], cash, plan)} for item in items
    ]
