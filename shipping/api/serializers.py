"""Serializers of the shipping API: request parameters and the contract's shapes (2.9, 2.10).

Comments, not docstrings, describe the response classes (a docstring would enter the
schema). The quote's classes only document it: answers.py renders it (docs/decisions.md).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apikit.fields import StrictIntegerField
from catalog.api.serializers import MoneyField, OptionalTextField, ProductSummaryField
from infra.ids import MAX_ID

from .. import quote
from ..countries import Country, country_get
from ..explain import Rejection
from ..postal import MAX_INPUT_LENGTH, InvalidPostalCode, normalize_postal_code

MAX_QUOTE_ITEMS = 100
MAX_QUOTE_QUANTITY = 10_000

# --- Request parameters ---------------------------------------------------------------


class CountryCodeField(serializers.Field):
    """An ISO 3166-1 alpha-3 code (any case) of a known country -> Country."""

    default_error_messages = {
        "invalid": "This field must be a string.",
        "length": "This field must be 3 letters (ISO 3166-1 alpha-3, e.g. BRA).",
        "unknown": "This field is not a known country code (ISO 3166-1 alpha-3, e.g. BRA).",
    }

    def to_internal_value(self, data: Any) -> Country:
        if not isinstance(data, str):
            self.fail("invalid")
        code = data.strip()
        if len(code) != 3 or not (code.isascii() and code.isalpha()):
            self.fail("length")
        country = country_get(code)
        if country is None:
            self.fail("unknown")
        return country


class PostalCodeParams:
    """Normalizes the postal code `names[1]` for the country `names[0]` (shipping.postal)."""

    names: tuple[str, str]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        country, field = self.names
        try:
            attrs[field] = normalize_postal_code(attrs[country].alpha_3, attrs[field])
        except InvalidPostalCode as exc:
            raise serializers.ValidationError({field: [f"The {field} field: {exc}"]}) from None
        return attrs


class ZipcodeConsultSerializer(PostalCodeParams, serializers.Serializer):
    """Path parameters of GET /shipping/zipcode/consult/{countryCode}/{zipCode}."""

    names = ("countryCode", "zipCode")
    countryCode = CountryCodeField()
    zipCode = serializers.CharField(max_length=MAX_INPUT_LENGTH)


class QuoteItemInputSerializer(serializers.Serializer):
    productId = StrictIntegerField(min_value=1, max_value=MAX_ID)
    quantity = StrictIntegerField(min_value=1, max_value=MAX_QUOTE_QUANTITY)


class QuoteQuerySerializer(PostalCodeParams, serializers.Serializer):
    """Query of GET /publics/products/quote (items already decoded from brackets or JSON)."""

    names = ("targetCountryCode", "targetZipCode")
    tradePolicyId = StrictIntegerField(
        min_value=1, max_value=MAX_ID, required=False, allow_null=True
    )
    targetZipCode = serializers.CharField(max_length=MAX_INPUT_LENGTH)
    targetCountryCode = CountryCodeField()
    # The stubs' Serializer() lacks the ListSerializer arguments that many=True passes on.
    items = QuoteItemInputSerializer(  # type: ignore[call-arg]
        many=True, min_length=1, max_length=MAX_QUOTE_ITEMS, allow_empty=False
    )
    explain = serializers.BooleanField(required=False, default=False)
    deliveryDates = serializers.BooleanField(required=False, default=False)


# --- Address (contract 2.9) -----------------------------------------------------------


def _coordinate_field(**kwargs: Any) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=9, decimal_places=6, coerce_to_string=False, allow_null=True, **kwargs
    )


# Renders {"address": shipping.selectors.PostalCodeData, "country": Country}.
class AddressSerializer(serializers.Serializer):
    zipCode = serializers.CharField(
        source="address.display_code", help_text="In the country's usual format, e.g. 01310-100."
    )
    publicPlace = serializers.CharField(source="address.public_place")
    complement = serializers.CharField(source="address.complement")
    district = serializers.CharField(source="address.district")
    city = serializers.CharField(source="address.city")
    stateCode = serializers.CharField(
        source="address.state_code", help_text="ISO 3166-2 with country prefix, e.g. BR-SP."
    )
    latitude = _coordinate_field(
        source="address.latitude", help_text="null when the address has no coordinates."
    )
    longitude = _coordinate_field(
        source="address.longitude", help_text="null when the address has no coordinates."
    )
    countryName = serializers.CharField(source="country.name")
    countryCodeAlpha2 = serializers.CharField(source="country.alpha_2")
    countryCodeAlpha3 = serializers.CharField(source="country.alpha_3")
    ddi = serializers.CharField(
        source="country.ddi", help_text='International dialing code, digits only: "55".'
    )
    currency = serializers.CharField(
        source="country.currency", help_text="ISO 4217 code, e.g. BRL."
    )


# --- Shipping quote (contract 2.10): renders a shipping.results.QuoteOutcome ---------


def _number(decimal_places: int, **kwargs: Any) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=24, decimal_places=decimal_places, coerce_to_string=False, **kwargs
    )


class ErrorValueSerializer(serializers.Serializer):
    errorCode = serializers.CharField()
    message = serializers.CharField()


class QuoteErrorItemSerializer(serializers.Serializer):
    productId = serializers.IntegerField()
    quantity = serializers.IntegerField()
    errorCode = serializers.CharField(
        help_text="SERVICE_STORE_PRODUCT_NOT_FOUND (unknown or inactive), "
        "SERVICE_STORE_PRODUCT_UNAVAILABLE (not for sale in the trade policy), "
        "SERVICE_STORE_PRODUCT_OUT_OF_STOCK, SERVICE_STORE_STORAGE_NOT_FOUND (no storage "
        "serves the trade policy)."
    )
    message = serializers.CharField()


class ProductStorageSerializer(serializers.Serializer):
    productStorageId = serializers.IntegerField(help_text="The storage's id.")
    stock = serializers.IntegerField(help_text="Units available (available minus reserved).")
    zipCode = serializers.CharField()
    latitude = serializers.CharField()
    longitude = serializers.CharField()


class VolumeSerializer(serializers.Serializer):
    height = _number(2, help_text="Centimetres.")
    width = _number(2, help_text="Centimetres.")
    length = _number(2, help_text="Centimetres.")
    weight = _number(3, help_text="Kilograms.")


class CategoryRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class QuoteItemSerializer(serializers.Serializer):
    productId = serializers.IntegerField()
    upsellId = serializers.IntegerField(allow_null=True)
    productPairOfferId = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    sku = serializers.CharField()
    service = serializers.BooleanField()
    saleWithoutStock = serializers.BooleanField()
    quantity = serializers.IntegerField()
    productPriceRuleId = serializers.IntegerField(help_text="The applied price rule; 0: none.")
    productPriceRuleName = serializers.CharField()
    value = MoneyField(help_text="Unit price in the trade policy (after its price rule).")
    code = serializers.CharField(allow_null=True)
    product = ProductSummaryField()
    productStorages = ProductStorageSerializer(many=True)
    volume = VolumeSerializer()
    category = CategoryRefSerializer(allow_null=True, help_text="The main category.")
    cargoTypeId = serializers.IntegerField(
        help_text="The product's cargo type (the store's default when it names none).",
    )
    additionalTime = serializers.IntegerField(help_text="Days.")
    cubicVolumeItem = _number(3, help_text="cm3 of one unit.")
    totalCubicVolume = _number(3, help_text="cm3 of the quantity.")
    error = ErrorValueSerializer(allow_null=True)


class RowVariableSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=[kind.value for kind in quote.VariableKind])
    value = _number(
        2, help_text="Money per extra kg, a percentage of the order value, or a fixed fee."
    )
    threshold = _number(3, allow_null=True, help_text="per_extra_kg: kilograms included.")


class ShippingRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    initialZipcode = serializers.CharField()
    finalZipcode = serializers.CharField()
    initialWeight = _number(3)
    finalWeight = _number(3)
    initialPrice = MoneyField()
    finalPrice = MoneyField()
    beginShippingTime = serializers.IntegerField()
    endShippingTime = serializers.IntegerField()
    shippingValue = MoneyField()
    variables = RowVariableSerializer(many=True)


class PickupSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    type = serializers.CharField()
    selected = serializers.BooleanField(
        help_text=(
            "True for exactly one pickup point of the option: the one nearest the target "
            "postal code (great-circle distance when both have coordinates; else the "
            "numeric difference of the postal codes; points with neither last; ties: the "
            "listed order). False for the others."
        )
    )
    name = serializers.CharField()
    address = serializers.CharField()
    number = serializers.CharField()
    district = serializers.CharField()
    city = serializers.CharField()
    countryCode = serializers.CharField()
    stateCode = serializers.CharField()
    zipCode = serializers.CharField()
    complement = serializers.CharField()
    latitude = serializers.CharField()
    longitude = serializers.CharField()
    openingHours = serializers.CharField()


class BusinessDaysSerializer(serializers.Serializer):
    min = serializers.IntegerField()
    max = serializers.IntegerField()


# Renders a shipping.calendar.Estimate (deliveryDates=true).
class DeliveryEstimateSerializer(serializers.Serializer):
    shipsOn = serializers.DateField(
        help_text="The day the storage dispatches: today before its cut-off on a dispatch "
        "day, else the next dispatch day, plus the handling days (additional times)."
    )
    minDate = serializers.DateField(
        help_text="The row's beginShippingTime counted in the carrier's delivery days after "
        "shipsOn (weekdays, Saturdays if the table delivers on them; no holidays at the "
        "destination)."
    )
    maxDate = serializers.DateField(help_text="As minDate, with the row's endShippingTime.")
    cutoffAt = serializers.DateTimeField(
        help_text="Order before this moment (with offset) to keep these dates."
    )
    businessDays = BusinessDaysSerializer(
        help_text="Handling days plus the row's days: beginShippingTime and endShippingTime."
    )
    readyOn = serializers.DateField(
        allow_null=True,
        help_text="Pickup options: the day the order is ready at the pickup point (maxDate); "
        "null for deliveries.",
    )


class ShippingOptionSerializer(serializers.Serializer):
    shippingTableId = serializers.IntegerField()
    integrationCode = serializers.CharField()
    externalShippingCode = serializers.CharField()
    carrierId = serializers.IntegerField()
    carrierName = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # shadows Field.label (typing only)
    value = MoneyField(help_text="The row's shipping value plus its variables.")
    beginShippingTime = serializers.IntegerField(help_text="Days, additional times included.")
    endShippingTime = serializers.IntegerField(help_text="Days, additional times included.")
    trackingUrl = OptionalTextField(read_only=False)
    row = ShippingRowSerializer(
        allow_null=True,
        help_text="The table's row that priced the option; null for a live carrier option "
        "(a table of kind live: `externalShippingCode` is then the carrier's service id, "
        "`label` its name, `carrierName` its company).",
    )
    pickups = PickupSerializer(
        many=True,
        read_only=True,
        help_text="The table's active pickup points (pickup tables; [] otherwise).",
    )
    error = ErrorValueSerializer(allow_null=True)
    deliveryEstimate = DeliveryEstimateSerializer(
        required=False,
        help_text="Only with deliveryDates=true: the option's dates (business calendar).",
    )


# Renders a shipping.fetch.StorageInfo.
class QuoteStorageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()
    corporateName = serializers.CharField()
    email = serializers.CharField()
    phone = serializers.CharField()
    tradeName = serializers.CharField()
    stateCode = serializers.CharField()
    countryCode = serializers.CharField()
    document = serializers.CharField()
    zipCode = serializers.CharField()
    city = serializers.CharField()
    address = serializers.CharField()
    district = serializers.CharField()
    number = serializers.CharField()
    complement = serializers.CharField()
    latitude = serializers.CharField()
    longitude = serializers.CharField()
    active = serializers.BooleanField()
    observation = OptionalTextField(read_only=False)
    tradePolicyExceptions = serializers.ListField(child=serializers.IntegerField())


# Renders a shipping.results.ExplainedTable (explain=true).
class TableVerdictSerializer(serializers.Serializer):
    shippingTableId = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # shadows Field.label (typing only)
    carrierId = serializers.IntegerField()
    carrierName = serializers.CharField()
    accepted = serializers.BooleanField(
        read_only=True, help_text="The table gave an option (its cheapest matching row: `rowId`)."
    )
    rowId = serializers.IntegerField(allow_null=True)
    rowsCoveringZipCode = serializers.IntegerField(
        help_text="Rows of the table whose postal-code range holds the target.",
    )
    reasons = serializers.ListField(
        child=serializers.ChoiceField(
            choices=[(reason.value, reason.name) for reason in Rejection]
        ),
        help_text="Why the table gave no option; empty when it gave one. "
        + "; ".join(reason.value for reason in Rejection)
        + ".",
    )
    detail = serializers.CharField(
        required=False,
        help_text="Only with carrier_unavailable: why the live carrier gave no option "
        "(failed, timed out, over its budget, offered nothing).",
    )


class ExcludedItemSerializer(serializers.Serializer):
    productId = serializers.IntegerField()
    quantity = serializers.IntegerField()
    reason = serializers.CharField(
        read_only=True,
        help_text="product_not_found, product_inactive, no_price_in_trade_policy, "
        "no_storage_serves_trade_policy or product_out_of_stock.",
    )


class GroupExplanationSerializer(serializers.Serializer):
    tables = TableVerdictSerializer(many=True)


class QuoteExplanationSerializer(serializers.Serializer):
    excludedItems = ExcludedItemSerializer(many=True)


class QuoteGroupSerializer(serializers.Serializer):
    quoteId = serializers.CharField()
    error = ErrorValueSerializer(allow_null=True)
    tradePolicyId = serializers.IntegerField()
    productStorageId = serializers.IntegerField(help_text="The origin storage's id.")
    distance = serializers.FloatField(help_text="Kilometres (great circle); 0 when unknown.")
    originZipCode = serializers.CharField()
    targetZipCode = serializers.CharField()
    totalPrice = MoneyField()
    quantityItems = serializers.IntegerField()
    totalCubicVolume = _number(3, help_text="cm3.")
    totalWeight = _number(3, help_text="Kilograms.")
    service = serializers.BooleanField(help_text="Every item is a service (nothing ships).")
    cargoTypeCombination = serializers.ListField(child=serializers.IntegerField())
    additionalTimeGroup = serializers.IntegerField(help_text="Days added to every option.")
    storage = QuoteStorageSerializer(
        help_text="The origin storage: the contract's full form and short form in one object."
    )
    items = QuoteItemSerializer(many=True)
    shippingOptions = ShippingOptionSerializer(many=True)
    explanation = GroupExplanationSerializer(
        required=False,
        help_text="Only with explain=true: every shipping table of the country considered "
        "for this group and why each gave no option.",
    )


# Renders a shipping.results.QuoteOutcome; the context's `summaries` are the rendered
# product summaries of `outcome.product_ids` (catalog.api.fragments.product_summaries).
class QuoteResponseSerializer(serializers.Serializer):
    quoteGroups = QuoteGroupSerializer(many=True)
    errorItems = QuoteErrorItemSerializer(many=True)
    explanation = QuoteExplanationSerializer(
        required=False,
        help_text="Only with explain=true: the items left out of every group and why.",
    )
