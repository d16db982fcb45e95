"""Serializers of the shipping API: request parameters and the contract's shapes (2.9, 2.10).

Comments, not docstrings, describe the response classes (a docstring would enter the
schema). The quote's classes render it through apikit.compiled (docs/decisions.md).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from typing import Any, NamedTuple

from rest_framework import serializers
from rest_framework.fields import SkipField

from apikit.caching import fresh_uuid_marker
from apikit.errors import ErrorCode
from apikit.fields import (
    ComputedBooleanField,
    ComputedCharField,
    ComputedDateField,
    ComputedDecimalField,
    ComputedListField,
    StrictIntegerField,
)
from catalog.api.serializers import MoneyField, OptionalTextField, ProductSummaryField
from infra.ids import MAX_ID

from .. import quote
from ..countries import Country, country_get
from ..explain import Rejection
from ..models import Pickup, ShippingTableKind
from ..postal import MAX_INPUT_LENGTH, InvalidPostalCode, format_postal_code, normalize_postal_code
from ..results import ExplainedTable, QuotedGroup, QuotedOption, QuoteOutcome

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
# Rendered by apikit.compiled.renderer(QuoteResponseSerializer) (the same answer as `.data`,
# about twenty times faster); the context's `summaries` are the rendered product summaries
# of `outcome.product_ids` (catalog.api.fragments.product_summaries). Nullable fields the
# store does not fill (`upsellId`, `code`, the `error` of items and options) have no
# attribute in the data: DRF renders them null.

PROBLEMS: dict[str, tuple[ErrorCode, str]] = {
    quote.ItemProblem.NOT_FOUND: (ErrorCode.PRODUCT_NOT_FOUND, "Product {id} was not found."),
    quote.ItemProblem.INACTIVE: (ErrorCode.PRODUCT_NOT_FOUND, "Product {id} is not sold."),
    quote.ItemProblem.NOT_FOR_SALE: (
        ErrorCode.PRODUCT_UNAVAILABLE,
        "Product {id} is not for sale in this trade policy.",
    ),
    quote.ItemProblem.NO_STORAGE: (
        ErrorCode.STORAGE_NOT_FOUND,
        "No storage ships product {id} in this trade policy.",
    ),
    quote.ItemProblem.OUT_OF_STOCK: (
        ErrorCode.PRODUCT_OUT_OF_STOCK,
        "Product {id} is out of stock for the quantity requested ({quantity}).",
    ),
    quote.GroupProblem.NO_SHIPPING_OPTION: (
        ErrorCode.SHIPPING_OPTION_NOT_FOUND,
        "No shipping option serves these items to this postal code.",
    ),
}

EXCLUSION_REASONS = {
    quote.ItemProblem.NOT_FOUND: "product_not_found",
    quote.ItemProblem.INACTIVE: "product_inactive",
    quote.ItemProblem.NOT_FOR_SALE: "no_price_in_trade_policy",
    quote.ItemProblem.NO_STORAGE: "no_storage_serves_trade_policy",
    quote.ItemProblem.OUT_OF_STOCK: "product_out_of_stock",
}


def _number(decimal_places: int, **kwargs: Any) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=24, decimal_places=decimal_places, coerce_to_string=False, **kwargs
    )


def _text(value: Any) -> Any:
    """A coordinate as text: "" when there is none."""
    return "" if value is None else value


class NonEmptyTextField(serializers.CharField):
    """Text, and no key at all when it is empty."""

    def get_attribute(self, instance: Any) -> Any:
        value = super().get_attribute(instance)
        if not value:
            raise SkipField
        return value


class OffsetDateTimeField(serializers.DateTimeField):
    """ISO 8601 with the offset the moment was computed in (the store's time zone)."""

    def to_representation(self, value: datetime) -> str:
        return value.isoformat()


class ProblemField(serializers.CharField):
    """The error code, or with `message=True` the message, of a problem of the engine: a
    quote.GroupProblem, or a quote.ErrorItem (whose product id and quantity it names)."""

    def __init__(self, *, message: bool = False, **kwargs: Any) -> None:
        self.message = message
        super().__init__(source="*", **kwargs)

    def to_representation(self, value: Any) -> str:
        error = value if isinstance(value, quote.ErrorItem) else None
        code, text = PROBLEMS[error.problem if error else value]
        if not self.message:
            return code.value
        return text.format(id=error.product_id, quantity=error.quantity) if error else text


class QuoteSummaryField(ProductSummaryField):
    """The rendered Product summary of a product id, from the context's `summaries`."""

    def to_representation(self, product_id: int) -> Any:
        return self.context["summaries"][product_id]


class ErrorValueSerializer(serializers.Serializer):
    errorCode = ProblemField()
    message = ProblemField(message=True)


class QuoteErrorItemSerializer(serializers.Serializer):
    productId = serializers.IntegerField(source="product_id")
    quantity = serializers.IntegerField()
    errorCode = ProblemField(
        help_text="SERVICE_STORE_PRODUCT_NOT_FOUND (unknown or inactive), "
        "SERVICE_STORE_PRODUCT_UNAVAILABLE (not for sale in the trade policy), "
        "SERVICE_STORE_PRODUCT_OUT_OF_STOCK, SERVICE_STORE_STORAGE_NOT_FOUND (no storage "
        "serves the trade policy)."
    )
    message = ProblemField(message=True)


# Renders a shipping.fetch.ProductStock.
class ProductStorageSerializer(serializers.Serializer):
    productStorageId = serializers.IntegerField(
        source="storage.storage.pk", help_text="The storage's id."
    )
    stock = serializers.IntegerField(
        source="quantity", help_text="Units available (available minus reserved)."
    )
    zipCode = serializers.CharField(source="storage.zip_code")
    latitude = ComputedCharField(lambda stock: _text(stock.storage.storage.latitude))
    longitude = ComputedCharField(lambda stock: _text(stock.storage.storage.longitude))


# Renders a product row (shipping.fetch.ProductInfo.product).
class VolumeSerializer(serializers.Serializer):
    height = _number(2, help_text="Centimetres.")
    width = _number(2, help_text="Centimetres.")
    length = _number(2, help_text="Centimetres.")
    weight = _number(3, help_text="Kilograms.")


# Renders a product row's main category (null when it has none).
class CategoryRefSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="main_category_id")
    name = serializers.CharField(source="main_category_name")

    def get_attribute(self, instance: Any) -> Any:
        row: Any = super().get_attribute(instance)
        return None if row.main_category_id is None else row


# Renders a shipping.results.QuotedItem.
class QuoteItemSerializer(serializers.Serializer):
    productId = serializers.IntegerField(source="item.product_id")
    upsellId = serializers.IntegerField(allow_null=True)
    productPairOfferId = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(source="info.product.name")
    sku = serializers.CharField(source="info.product.sku")
    service = serializers.BooleanField(source="info.product.service")
    saleWithoutStock = serializers.BooleanField(source="info.product.sale_without_stock")
    quantity = serializers.IntegerField(source="item.quantity")
    productPriceRuleId = serializers.IntegerField(
        source="info.price.rule_id", help_text="The applied price rule; 0: none."
    )
    productPriceRuleName = serializers.CharField(source="info.price.rule_name")
    value = MoneyField(
        source="item.unit_price", help_text="Unit price in the trade policy (after its price rule)."
    )
    code = serializers.CharField(allow_null=True)
    product = QuoteSummaryField(source="item.product_id")
    productStorages = ProductStorageSerializer(many=True, source="info.stocks")
    volume = VolumeSerializer(source="info.product")
    category = CategoryRefSerializer(
        source="info.product", allow_null=True, help_text="The main category."
    )
    cargoTypeId = serializers.IntegerField(
        source="info.product.cargo_type_id",
        help_text="The product's cargo type (the store's default when it names none).",
    )
    additionalTime = serializers.IntegerField(
        source="info.product.additional_time", help_text="Days."
    )
    cubicVolumeItem = _number(3, source="item.cubic_volume_item", help_text="cm3 of one unit.")
    totalCubicVolume = _number(
        3, source="item.total_cubic_volume", help_text="cm3 of the quantity."
    )
    error = ErrorValueSerializer(allow_null=True)


def _threshold(variable: quote.QuoteVariable) -> Decimal | None:
    return variable.threshold if variable.kind == quote.VariableKind.PER_EXTRA_KG else None


class RowVariableSerializer(serializers.Serializer):
    type = serializers.ChoiceField(
        source="kind", choices=[kind.value for kind in quote.VariableKind]
    )
    value = _number(
        2, help_text="Money per extra kg, a percentage of the order value, or a fixed fee."
    )
    threshold = ComputedDecimalField(
        _threshold,
        max_digits=24,
        decimal_places=3,
        coerce_to_string=False,
        allow_null=True,
        help_text="per_extra_kg: kilograms included.",
    )


def _postal_code(end: str) -> Callable[[QuotedOption], str]:
    return lambda quoted: format_postal_code(
        quoted.table.table.country, getattr(quoted.option.row, end)
    )


# Renders the row of a shipping.results.QuotedOption; null for a live carrier's option.
class ShippingRowSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="option.row.id")
    initialZipcode = ComputedCharField(_postal_code("initial_zipcode"))
    finalZipcode = ComputedCharField(_postal_code("final_zipcode"))
    initialWeight = _number(3, source="option.row.initial_weight")
    finalWeight = _number(3, source="option.row.final_weight")
    initialPrice = MoneyField(source="option.row.initial_price")
    finalPrice = MoneyField(source="option.row.final_price")
    beginShippingTime = serializers.IntegerField(source="option.row.begin_days")
    endShippingTime = serializers.IntegerField(source="option.row.end_days")
    shippingValue = MoneyField(source="option.row.shipping_value")
    variables = RowVariableSerializer(many=True, source="option.row.variables")

    def get_attribute(self, quoted: QuotedOption) -> QuotedOption | None:
        return None if quoted.live else quoted


class ShownPickup(NamedTuple):
    pickup: Pickup
    selected: bool


# The pickups of a shipping.results.QuotedOption, each with whether it is the selected one.
class OptionPickupsSerializer(serializers.ListSerializer):
    def get_attribute(self, quoted: QuotedOption) -> list[ShownPickup]:
        selected = quoted.selected_pickup_id
        return [ShownPickup(pickup, pickup.pk == selected) for pickup in quoted.table.pickups]


# Renders a ShownPickup.
class PickupSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pickup.pk")
    type = serializers.CharField(source="pickup.type")
    selected = serializers.BooleanField(
        help_text=(
            "True for exactly one pickup point of the option: the one nearest the target "
            "postal code (great-circle distance when both have coordinates; else the "
            "numeric difference of the postal codes; points with neither last; ties: the "
            "listed order). False for the others."
        )
    )
    name = serializers.CharField(source="pickup.name")
    address = serializers.CharField(source="pickup.address")
    number = serializers.CharField(source="pickup.number")
    district = serializers.CharField(source="pickup.district")
    city = serializers.CharField(source="pickup.city")
    countryCode = serializers.CharField(source="pickup.country_code")
    stateCode = serializers.CharField(source="pickup.state_code")
    zipCode = serializers.CharField(source="pickup.display_zip_code")
    complement = serializers.CharField(source="pickup.complement")
    latitude = ComputedCharField(lambda shown: _text(shown.pickup.latitude))
    longitude = ComputedCharField(lambda shown: _text(shown.pickup.longitude))
    openingHours = serializers.CharField(source="pickup.opening_hours")


# Renders an (min, max) pair of days.
class BusinessDaysSerializer(serializers.Serializer):
    min = serializers.IntegerField()
    max = serializers.IntegerField()

    def get_attribute(self, instance: Any) -> dict[str, int]:
        days: Any = super().get_attribute(instance)
        return {"min": days[0], "max": days[1]}


def _ready_on(quoted: QuotedOption) -> date | None:
    pickup = quoted.table.table.kind == ShippingTableKind.PICKUP
    return quoted.estimate.max_date if pickup and quoted.estimate else None


# Renders the shipping.calendar.Estimate of a shipping.results.QuotedOption; no key
# without one (deliveryDates=true only).
class DeliveryEstimateSerializer(serializers.Serializer):
    shipsOn = serializers.DateField(
        source="estimate.ships_on",
        help_text="The day the storage dispatches: today before its cut-off on a dispatch "
        "day, else the next dispatch day, plus the handling days (additional times).",
    )
    minDate = serializers.DateField(
        source="estimate.min_date",
        help_text="The row's beginShippingTime counted in the carrier's delivery days after "
        "shipsOn (weekdays, Saturdays if the table delivers on them; no holidays at the "
        "destination).",
    )
    maxDate = serializers.DateField(
        source="estimate.max_date", help_text="As minDate, with the row's endShippingTime."
    )
    cutoffAt = OffsetDateTimeField(
        source="estimate.cutoff_at",
        help_text="Order before this moment (with offset) to keep these dates.",
    )
    businessDays = BusinessDaysSerializer(
        source="estimate.business_days",
        help_text="Handling days plus the row's days: beginShippingTime and endShippingTime.",
    )
    readyOn = ComputedDateField(
        _ready_on,
        allow_null=True,
        help_text="Pickup options: the day the order is ready at the pickup point (maxDate); "
        "null for deliveries.",
    )

    def get_attribute(self, quoted: QuotedOption) -> QuotedOption:
        if quoted.estimate is None:
            raise SkipField
        return quoted


# Renders a shipping.results.QuotedOption.
class ShippingOptionSerializer(serializers.Serializer):
    shippingTableId = serializers.IntegerField(source="table.table.pk")
    integrationCode = serializers.CharField(source="table.table.integration_code")
    externalShippingCode = ComputedCharField(
        lambda q: q.table.table.external_shipping_code if q.live is None else str(q.live.id)
    )
    carrierId = serializers.IntegerField(source="table.table.carrier_id")
    carrierName = ComputedCharField(
        lambda q: (q.live and q.live.company) or q.table.table.carrier.name
    )
    label = ComputedCharField(  # type: ignore[assignment]  # shadows Field.label (typing only)
        lambda q: q.table.table.label if q.live is None else q.live.name
    )
    value = MoneyField(
        source="option.value", help_text="The row's shipping value plus its variables."
    )
    beginShippingTime = serializers.IntegerField(
        source="option.begin_days", help_text="Days, additional times included."
    )
    endShippingTime = serializers.IntegerField(
        source="option.end_days", help_text="Days, additional times included."
    )
    trackingUrl = OptionalTextField(
        source="table.table.carrier.tracking_url_template", read_only=False
    )
    row = ShippingRowSerializer(
        source="*",
        allow_null=True,
        help_text="The table's row that priced the option; null for a live carrier option "
        "(a table of kind live: `externalShippingCode` is then the carrier's service id, "
        "`label` its name, `carrierName` its company).",
    )
    pickups = OptionPickupsSerializer(
        child=PickupSerializer(),
        read_only=True,
        help_text="The table's active pickup points (pickup tables; [] otherwise).",
    )
    error = ErrorValueSerializer(allow_null=True)
    deliveryEstimate = DeliveryEstimateSerializer(
        source="*",
        required=False,
        help_text="Only with deliveryDates=true: the option's dates (business calendar).",
    )


# Renders a shipping.fetch.StorageInfo.
class QuoteStorageSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="storage.pk")
    name = serializers.CharField(source="storage.name")
    code = serializers.CharField(source="storage.code")
    corporateName = serializers.CharField(source="storage.corporate_name")
    email = serializers.CharField(source="storage.email")
    phone = serializers.CharField(source="storage.phone")
    tradeName = serializers.CharField(source="storage.trade_name")
    stateCode = serializers.CharField(source="storage.state_code")
    countryCode = serializers.CharField(source="storage.country_code")
    document = serializers.CharField(source="storage.document")
    zipCode = serializers.CharField(source="zip_code")
    city = serializers.CharField(source="storage.city")
    address = serializers.CharField(source="storage.address")
    district = serializers.CharField(source="storage.district")
    number = serializers.CharField(source="storage.number")
    complement = serializers.CharField(source="storage.complement")
    latitude = ComputedCharField(lambda info: _text(info.storage.latitude))
    longitude = ComputedCharField(lambda info: _text(info.storage.longitude))
    active = serializers.BooleanField(source="storage.active")
    observation = OptionalTextField(source="storage.observation", read_only=False)
    tradePolicyExceptions = ComputedListField(
        lambda info: sorted(info.engine.excluded_trade_policy_ids),
        child=serializers.IntegerField(),
    )


# Renders a shipping.results.ExplainedTable (explain=true).
class TableVerdictSerializer(serializers.Serializer):
    shippingTableId = serializers.IntegerField(source="table.pk")
    label = serializers.CharField(source="table.label")  # type: ignore[assignment]  # shadows Field.label (typing only)
    carrierId = serializers.IntegerField(source="table.carrier_id")
    carrierName = serializers.CharField(source="table.carrier.name")
    accepted = ComputedBooleanField(
        lambda explained: not explained.verdict.reasons,
        read_only=True,
        help_text="The table gave an option (its cheapest matching row: `rowId`).",
    )
    rowId = serializers.IntegerField(source="verdict.row_id", allow_null=True)
    rowsCoveringZipCode = serializers.IntegerField(
        source="verdict.rows_covering",
        help_text="Rows of the table whose postal-code range holds the target.",
    )
    reasons = serializers.ListField(
        source="verdict.reasons",
        child=serializers.ChoiceField(
            choices=[(reason.value, reason.name) for reason in Rejection]
        ),
        help_text="Why the table gave no option; empty when it gave one. "
        + "; ".join(reason.value for reason in Rejection)
        + ".",
    )
    detail = NonEmptyTextField(
        required=False,
        help_text="Only with carrier_unavailable: why the live carrier gave no option "
        "(failed, timed out, over its budget, offered nothing).",
    )


# Renders a quote.ErrorItem (explain=true).
class ExcludedItemSerializer(serializers.Serializer):
    productId = serializers.IntegerField(source="product_id")
    quantity = serializers.IntegerField()
    reason = ComputedCharField(
        lambda error: EXCLUSION_REASONS[error.problem],
        read_only=True,
        help_text="product_not_found, product_inactive, no_price_in_trade_policy, "
        "no_storage_serves_trade_policy or product_out_of_stock.",
    )


# Renders the shipping.results.ExplainedTables of a QuotedGroup; no key without them.
class GroupExplanationSerializer(serializers.Serializer):
    tables = TableVerdictSerializer(many=True, source="*")

    def get_attribute(self, quoted: QuotedGroup) -> tuple[ExplainedTable, ...]:
        if quoted.explanation is None:
            raise SkipField
        return quoted.explanation


# Renders a QuoteOutcome's error items; no key without explain=true.
class QuoteExplanationSerializer(serializers.Serializer):
    excludedItems = ExcludedItemSerializer(many=True, source="error_items")

    def get_attribute(self, outcome: QuoteOutcome) -> QuoteOutcome:
        if not outcome.explained:
            raise SkipField
        return outcome


# Renders a shipping.results.QuotedGroup.
class QuoteGroupSerializer(serializers.Serializer):
    quoteId = ComputedCharField(lambda quoted: fresh_uuid_marker())
    error = ErrorValueSerializer(source="group.problem", allow_null=True)
    tradePolicyId = serializers.IntegerField(source="trade_policy_id")
    productStorageId = serializers.IntegerField(
        source="group.storage_id", help_text="The origin storage's id."
    )
    distance = serializers.FloatField(
        source="group.distance_km", help_text="Kilometres (great circle); 0 when unknown."
    )
    originZipCode = serializers.CharField(source="storage.zip_code")
    targetZipCode = serializers.CharField(source="target_code")
    totalPrice = MoneyField(source="group.total_price")
    quantityItems = serializers.IntegerField(source="group.quantity_items")
    totalCubicVolume = _number(3, source="group.total_cubic_volume", help_text="cm3.")
    totalWeight = _number(3, source="group.total_weight", help_text="Kilograms.")
    service = serializers.BooleanField(
        source="group.service", help_text="Every item is a service (nothing ships)."
    )
    cargoTypeCombination = serializers.ListField(
        source="group.cargo_type_ids", child=serializers.IntegerField()
    )
    additionalTimeGroup = serializers.IntegerField(
        source="group.additional_time", help_text="Days added to every option."
    )
    storage = QuoteStorageSerializer(
        help_text="The origin storage: the contract's full form and short form in one object."
    )
    items = QuoteItemSerializer(many=True)
    shippingOptions = ShippingOptionSerializer(many=True, source="options")
    explanation = GroupExplanationSerializer(
        source="*",
        required=False,
        help_text="Only with explain=true: every shipping table of the country considered "
        "for this group and why each gave no option.",
    )


# Renders a shipping.results.QuoteOutcome.
class QuoteResponseSerializer(serializers.Serializer):
    quoteGroups = QuoteGroupSerializer(many=True, source="groups")
    errorItems = QuoteErrorItemSerializer(many=True, source="error_items")
    explanation = QuoteExplanationSerializer(
        source="*",
        required=False,
        help_text="Only with explain=true: the items left out of every group and why.",
    )
