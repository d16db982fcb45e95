"""Serializers of the shipping API: request parameters and the contract's shapes (2.9, 2.10).

Each response shape is declared once: the same classes render the selectors' data (through
`source`) and document it (so comments, not docstrings, describe them: a docstring would
enter the schema). Nullable fields the store does not fill (`upsellId`, `code`, the `error`
of items and options, ...) have no attribute in the data: DRF renders them null.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apikit.caching import fresh_uuid_marker
from apikit.errors import ErrorCode
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

    def to_internal_value(self, data) -> Country:
        if not isinstance(data, str):
            self.fail("invalid")
        code = data.strip()
        if len(code) != 3 or not (code.isascii() and code.isalpha()):
            self.fail("length")
        country = country_get(code)
        if country is None:
            self.fail("unknown")
        return country

    def to_representation(self, value) -> str:
        return value.alpha_3 if isinstance(value, Country) else str(value)


class PostalCodeParams:
    """Normalizes the postal code `names[1]` for the country `names[0]` (shipping.postal)."""

    names: tuple[str, str]

    def validate(self, attrs):
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
    productId = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUOTE_QUANTITY)


class QuoteQuerySerializer(PostalCodeParams, serializers.Serializer):
    """Query of GET /publics/products/quote (items already decoded from brackets or JSON)."""

    names = ("targetCountryCode", "targetZipCode")
    tradePolicyId = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, allow_null=True
    )
    targetZipCode = serializers.CharField(max_length=MAX_INPUT_LENGTH)
    targetCountryCode = CountryCodeField()
    items = QuoteItemInputSerializer(
        many=True, min_length=1, max_length=MAX_QUOTE_ITEMS, allow_empty=False
    )
    explain = serializers.BooleanField(required=False, default=False)


# --- Address (contract 2.9) -----------------------------------------------------------


def _coordinate_field(**kwargs):
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


# --- Shipping quote (contract 2.10): renders a shipping.selectors.QuoteOutcome ---------

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


def _number(decimal_places: int, **kwargs):
    return serializers.DecimalField(
        max_digits=24, decimal_places=decimal_places, coerce_to_string=False, **kwargs
    )


class TextField(serializers.CharField):
    """A value as text; "" when it is None (coordinates)."""

    def get_attribute(self, instance):
        value = super().get_attribute(instance)
        return "" if value is None else value


class FreshUuidField(serializers.CharField):
    """`fresh_uuid_marker()`: each serving of the answer puts a new UUID4 there."""

    def get_attribute(self, instance) -> str:
        return fresh_uuid_marker()


class SelectedPickupField(serializers.BooleanField):
    """True for the option's pickup point nearest the target (context `selected_pickup_id`)."""

    def get_attribute(self, instance) -> bool:
        return instance.pk == self.context.get("selected_pickup_id")


class ProblemField(serializers.CharField):
    """The error code, or with `message=True` the message, of a problem of the engine: a
    quote.GroupProblem, or a quote.ErrorItem (whose product id and quantity it names)."""

    def __init__(self, *, message: bool = False, **kwargs):
        self.message = message
        super().__init__(source="*", **kwargs)

    def to_representation(self, value) -> str:
        error = value if isinstance(value, quote.ErrorItem) else None
        code, text = PROBLEMS[error.problem if error else value]
        if not self.message:
            return code.value
        return text.format(id=error.product_id, quantity=error.quantity) if error else text


class QuoteSummaryField(ProductSummaryField):
    """The rendered Product summary of a product id, from the context's `summaries`."""

    def to_representation(self, product_id: int):
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


class ProductStorageSerializer(serializers.Serializer):
    productStorageId = serializers.IntegerField(
        source="storage.storage.pk", help_text="The storage's id."
    )
    stock = serializers.IntegerField(
        source="quantity", help_text="Units available (available minus reserved)."
    )
    zipCode = serializers.CharField(source="storage.zip_code")
    latitude = TextField(source="storage.storage.latitude")
    longitude = TextField(source="storage.storage.longitude")


class VolumeSerializer(serializers.Serializer):
    height = _number(2, help_text="Centimetres.")
    width = _number(2, help_text="Centimetres.")
    length = _number(2, help_text="Centimetres.")
    weight = _number(3, help_text="Kilograms.")


class CategoryRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


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
        source="info.product.main_category", allow_null=True, help_text="The main category."
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


class RowVariableSerializer(serializers.Serializer):
    type = serializers.ChoiceField(
        source="kind", choices=[kind.value for kind in quote.VariableKind]
    )
    value = _number(
        2, help_text="Money per extra kg, a percentage of the order value, or a fixed fee."
    )
    threshold = _number(3, allow_null=True, help_text="per_extra_kg: kilograms included.")

    def to_representation(self, variable: quote.QuoteVariable) -> dict:
        data = super().to_representation(variable)
        if variable.kind != quote.VariableKind.PER_EXTRA_KG:
            data["threshold"] = None
        return data


# Renders the row of a shipping.selectors.QuotedOption (which formats its postal codes).
class ShippingRowSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="option.row.id")
    initialZipcode = serializers.CharField(source="initial_zipcode")
    finalZipcode = serializers.CharField(source="final_zipcode")
    initialWeight = _number(3, source="option.row.initial_weight")
    finalWeight = _number(3, source="option.row.final_weight")
    initialPrice = MoneyField(source="option.row.initial_price")
    finalPrice = MoneyField(source="option.row.final_price")
    beginShippingTime = serializers.IntegerField(source="option.row.begin_days")
    endShippingTime = serializers.IntegerField(source="option.row.end_days")
    shippingValue = MoneyField(source="option.row.shipping_value")
    variables = RowVariableSerializer(many=True, source="option.row.variables")


class PickupSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    type = serializers.CharField()
    selected = SelectedPickupField(
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
    countryCode = serializers.CharField(source="country_code")
    stateCode = serializers.CharField(source="state_code")
    zipCode = serializers.CharField(source="display_zip_code")
    complement = serializers.CharField()
    latitude = TextField()
    longitude = TextField()
    openingHours = serializers.CharField(source="opening_hours")


class ShippingOptionSerializer(serializers.Serializer):
    shippingTableId = serializers.IntegerField(source="table.table.pk")
    integrationCode = serializers.CharField(source="table.table.integration_code")
    externalShippingCode = serializers.CharField(source="table.table.external_shipping_code")
    carrierId = serializers.IntegerField(source="table.table.carrier_id")
    carrierName = serializers.CharField(source="table.table.carrier.name")
    label = serializers.CharField(source="table.table.label")
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
    row = ShippingRowSerializer(source="*")
    pickups = serializers.SerializerMethodField(
        help_text="The table's active pickup points (pickup tables; [] otherwise)."
    )
    error = ErrorValueSerializer(allow_null=True)

    @extend_schema_field(PickupSerializer(many=True))
    def get_pickups(self, quoted) -> list[dict]:
        context = {**self.context, "selected_pickup_id": quoted.selected_pickup_id}
        return PickupSerializer(quoted.table.pickups, many=True, context=context).data


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
    latitude = TextField(source="storage.latitude")
    longitude = TextField(source="storage.longitude")
    active = serializers.BooleanField(source="storage.active")
    observation = OptionalTextField(source="storage.observation", read_only=False)
    tradePolicyExceptions = serializers.ListField(
        source="excluded_trade_policy_ids", child=serializers.IntegerField()
    )


# Renders a shipping.selectors.ExplainedTable (explain=true).
class TableVerdictSerializer(serializers.Serializer):
    shippingTableId = serializers.IntegerField(source="table.pk")
    label = serializers.CharField(source="table.label")
    carrierId = serializers.IntegerField(source="table.carrier_id")
    carrierName = serializers.CharField(source="table.carrier.name")
    accepted = serializers.SerializerMethodField(
        help_text="The table gave an option (its cheapest matching row: `rowId`)."
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

    def get_accepted(self, explained) -> bool:
        return not explained.verdict.reasons


class ExcludedItemSerializer(serializers.Serializer):
    productId = serializers.IntegerField(source="product_id")
    quantity = serializers.IntegerField()
    reason = serializers.SerializerMethodField(
        help_text="product_not_found, product_inactive, no_price_in_trade_policy, "
        "no_storage_serves_trade_policy or product_out_of_stock."
    )

    def get_reason(self, item: quote.ErrorItem) -> str:
        return EXCLUSION_REASONS[item.problem]


EXCLUSION_REASONS = {
    quote.ItemProblem.NOT_FOUND: "product_not_found",
    quote.ItemProblem.INACTIVE: "product_inactive",
    quote.ItemProblem.NOT_FOR_SALE: "no_price_in_trade_policy",
    quote.ItemProblem.NO_STORAGE: "no_storage_serves_trade_policy",
    quote.ItemProblem.OUT_OF_STOCK: "product_out_of_stock",
}


class GroupExplanationSerializer(serializers.Serializer):
    tables = TableVerdictSerializer(many=True, source="*")


class QuoteExplanationSerializer(serializers.Serializer):
    excludedItems = ExcludedItemSerializer(many=True, source="error_items")


# Without explain=true the answer has no `explanation` key, as it always was (a comment:
# a docstring would enter the schema of the serializers below).
class ExplainedOnRequest:
    def to_representation(self, instance) -> dict:
        data = super().to_representation(instance)  # type: ignore[misc]
        if instance.explanation is None:
            del data["explanation"]
        return data


class QuoteGroupSerializer(ExplainedOnRequest, serializers.Serializer):
    quoteId = FreshUuidField()
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
        required=False,
        help_text="Only with explain=true: every shipping table of the country considered "
        "for this group and why each gave no option.",
    )


# Renders a shipping.selectors.QuoteOutcome; the context's `summaries` are the rendered
# product summaries of `outcome.product_ids` (catalog.api.fragments.product_summaries).
class QuoteResponseSerializer(ExplainedOnRequest, serializers.Serializer):
    quoteGroups = QuoteGroupSerializer(many=True, source="groups")
    errorItems = QuoteErrorItemSerializer(many=True, source="error_items")
    explanation = QuoteExplanationSerializer(
        required=False,
        help_text="Only with explain=true: the items left out of every group and why.",
    )
