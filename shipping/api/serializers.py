"""Serializers of the shipping API: request parameters and the contract's shapes (2.9, 2.10).

Responses are built as plain dicts with the contract's keys (`address_payload`,
`quote_payload`) and formatted by the serializers below, which also document them.
"""

from __future__ import annotations

from rest_framework import serializers

from apikit.caching import fresh_uuid_marker
from apikit.errors import ErrorCode
from catalog.api.fragments import product_summaries
from catalog.api.serializers import MoneyField, ProductSummaryField
from infra.ids import MAX_ID as MAX_DB_ID

from .. import quote
from ..countries import Country, country_get
from ..postal import MAX_INPUT_LENGTH, InvalidPostalCode, format_postal_code, normalize_postal_code
from ..selectors import PostalCodeData, QuoteOutcome, storage_display_zip_code

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


class ZipcodeConsultSerializer(serializers.Serializer):
    """Path parameters of GET /shipping/zipcode/consult/{countryCode}/{zipCode}."""

    countryCode = CountryCodeField()
    zipCode = serializers.CharField(max_length=MAX_INPUT_LENGTH)

    def validate(self, attrs):
        try:
            attrs["zipCode"] = normalize_postal_code(attrs["countryCode"].alpha_3, attrs["zipCode"])
        except InvalidPostalCode as exc:
            raise serializers.ValidationError({"zipCode": [f"The zipCode field: {exc}"]}) from None
        return attrs


class QuoteItemInputSerializer(serializers.Serializer):
    productId = serializers.IntegerField(min_value=1, max_value=MAX_DB_ID)
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUOTE_QUANTITY)


class QuoteQuerySerializer(serializers.Serializer):
    """Query of GET /publics/products/quote (items already decoded from brackets or JSON)."""

    tradePolicyId = serializers.IntegerField(
        min_value=1, max_value=MAX_DB_ID, required=False, allow_null=True
    )
    targetZipCode = serializers.CharField(max_length=MAX_INPUT_LENGTH)
    targetCountryCode = CountryCodeField()
    items = QuoteItemInputSerializer(
        many=True, min_length=1, max_length=MAX_QUOTE_ITEMS, allow_empty=False
    )

    def validate(self, attrs):
        country = attrs["targetCountryCode"]
        try:
            attrs["targetZipCode"] = normalize_postal_code(country.alpha_3, attrs["targetZipCode"])
        except InvalidPostalCode as exc:
            raise serializers.ValidationError(
                {"targetZipCode": [f"The targetZipCode field: {exc}"]}
            ) from None
        return attrs


# --- Address (contract 2.9) -----------------------------------------------------------


def _coordinate_field(**kwargs):
    return serializers.DecimalField(
        max_digits=9, decimal_places=6, coerce_to_string=False, allow_null=True, **kwargs
    )


class AddressSerializer(serializers.Serializer):
    zipCode = serializers.CharField(help_text="In the country's usual format, e.g. 01310-100.")
    publicPlace = serializers.CharField()
    complement = serializers.CharField()
    district = serializers.CharField()
    city = serializers.CharField()
    stateCode = serializers.CharField(help_text="ISO 3166-2 with country prefix, e.g. BR-SP.")
    latitude = _coordinate_field(help_text="null when the address has no coordinates.")
    longitude = _coordinate_field(help_text="null when the address has no coordinates.")
    countryName = serializers.CharField()
    countryCodeAlpha2 = serializers.CharField()
    countryCodeAlpha3 = serializers.CharField()
    ddi = serializers.CharField(help_text='International dialing code, digits only: "55".')
    currency = serializers.CharField(help_text="ISO 4217 code, e.g. BRL.")


def address_payload(postal_code: PostalCodeData, country: Country) -> dict:
    return AddressSerializer(
        {
            "zipCode": postal_code.display_code,
            "publicPlace": postal_code.public_place,
            "complement": postal_code.complement,
            "district": postal_code.district,
            "city": postal_code.city,
            "stateCode": postal_code.state_code,
            "latitude": postal_code.latitude,
            "longitude": postal_code.longitude,
            "countryName": country.name,
            "countryCodeAlpha2": country.alpha_2,
            "countryCodeAlpha3": country.alpha_3,
            "ddi": country.ddi,
            "currency": country.currency,
        }
    ).data


# --- Shipping quote (contract 2.10) ---------------------------------------------------


def _number(decimal_places: int, **kwargs):
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
    cargoTypeId = serializers.IntegerField(allow_null=True)
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
    selected = serializers.BooleanField()
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


class ShippingOptionSerializer(serializers.Serializer):
    shippingTableId = serializers.IntegerField()
    integrationCode = serializers.CharField()
    externalShippingCode = serializers.CharField()
    carrierId = serializers.IntegerField()
    carrierName = serializers.CharField()
    label = serializers.CharField()
    value = MoneyField(help_text="The row's shipping value plus its variables.")
    beginShippingTime = serializers.IntegerField(help_text="Days, additional times included.")
    endShippingTime = serializers.IntegerField(help_text="Days, additional times included.")
    trackingUrl = serializers.CharField(allow_null=True)
    row = ShippingRowSerializer()
    pickups = PickupSerializer(many=True)
    error = ErrorValueSerializer(allow_null=True)


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
    observation = serializers.CharField(allow_null=True)
    tradePolicyExceptions = serializers.ListField(child=serializers.IntegerField())


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


class QuoteResponseSerializer(serializers.Serializer):
    quoteGroups = QuoteGroupSerializer(many=True)
    errorItems = QuoteErrorItemSerializer(many=True)


# --- Building the quote payload -------------------------------------------------------

ITEM_PROBLEMS: dict[quote.ItemProblem, tuple[ErrorCode, str]] = {
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
}
NO_SHIPPING_OPTION = {
    "errorCode": ErrorCode.SHIPPING_OPTION_NOT_FOUND.value,
    "message": "No shipping option serves these items to this postal code.",
}


def _text(value) -> str:
    return "" if value is None else str(value)


def _storage_payload(info) -> dict:
    storage = info.storage
    return {
        "id": storage.pk,
        "name": storage.name,
        "code": storage.code,
        "corporateName": storage.corporate_name,
        "email": storage.email,
        "phone": storage.phone,
        "tradeName": storage.trade_name,
        "stateCode": storage.state_code,
        "countryCode": storage.country_code,
        "document": storage.document,
        "zipCode": storage_display_zip_code(storage),
        "city": storage.city,
        "address": storage.address,
        "district": storage.district,
        "number": storage.number,
        "complement": storage.complement,
        "latitude": _text(storage.latitude),
        "longitude": _text(storage.longitude),
        "active": storage.active,
        "observation": storage.observation or None,
        "tradePolicyExceptions": sorted(info.excluded_trade_policy_ids),
    }


def _item_payload(item: quote.GroupItem, outcome: QuoteOutcome, summaries: dict) -> dict:
    product = outcome.products[item.product_id]
    price = outcome.prices[item.product_id]
    product_storages = [
        {
            "productStorageId": stock.storage_id,
            "stock": max(stock.available - stock.reserved, 0),
            "zipCode": storage_display_zip_code(outcome.storages[stock.storage_id].storage),
            "latitude": _text(outcome.storages[stock.storage_id].storage.latitude),
            "longitude": _text(outcome.storages[stock.storage_id].storage.longitude),
        }
        for stock in product.active_stocks
        if stock.available > stock.reserved and stock.storage_id in outcome.storages
    ]
    category = product.main_category
    return {
        "productId": product.pk,
        "upsellId": None,
        "productPairOfferId": None,
        "name": product.name,
        "sku": product.sku,
        "service": product.service,
        "saleWithoutStock": product.sale_without_stock,
        "quantity": item.quantity,
        "productPriceRuleId": price.rule_id,
        "productPriceRuleName": price.rule_name,
        "value": item.unit_price,
        "code": None,
        "product": summaries[product.pk],
        "productStorages": product_storages,
        "volume": {
            "height": product.height,
            "width": product.width,
            "length": product.length,
            "weight": product.weight,
        },
        "category": {"id": category.pk, "name": category.name} if category else None,
        "cargoTypeId": product.cargo_type_id,
        "additionalTime": product.additional_time,
        "cubicVolumeItem": item.cubic_volume_item,
        "totalCubicVolume": item.total_cubic_volume,
        "error": None,
    }


def _variables_payload(row: quote.QuoteRow) -> list[dict]:
    return [
        {
            "type": quote.VariableKind(variable.kind).value,
            "value": variable.value,
            "threshold": variable.threshold
            if variable.kind == quote.VariableKind.PER_EXTRA_KG
            else None,
        }
        for variable in row.variables
    ]


def _pickup_payload(pickup) -> dict:
    return {
        "id": pickup.pk,
        "type": pickup.type,
        "selected": False,
        "name": pickup.name,
        "address": pickup.address,
        "number": pickup.number,
        "district": pickup.district,
        "city": pickup.city,
        "countryCode": pickup.country_code,
        "stateCode": pickup.state_code,
        "zipCode": format_postal_code(pickup.country_code, pickup.zip_code),
        "complement": pickup.complement,
        "latitude": _text(pickup.latitude),
        "longitude": _text(pickup.longitude),
        "openingHours": pickup.opening_hours,
    }


def _option_payload(option: quote.ShippingOption, outcome: QuoteOutcome) -> dict:
    table = outcome.tables[option.table_id].table
    row = option.row
    country = table.country
    return {
        "shippingTableId": table.pk,
        "integrationCode": table.integration_code,
        "externalShippingCode": table.external_shipping_code,
        "carrierId": table.carrier_id,
        "carrierName": table.carrier.name,
        "label": table.label,
        "value": option.value,
        "beginShippingTime": option.begin_days,
        "endShippingTime": option.end_days,
        "trackingUrl": table.carrier.tracking_url_template or None,
        "row": {
            "id": row.id,
            "initialZipcode": format_postal_code(country, row.initial_zipcode),
            "finalZipcode": format_postal_code(country, row.final_zipcode),
            "initialWeight": row.initial_weight,
            "finalWeight": row.final_weight,
            "initialPrice": row.initial_price,
            "finalPrice": row.final_price,
            "beginShippingTime": row.begin_days,
            "endShippingTime": row.end_days,
            "shippingValue": row.shipping_value,
            "variables": _variables_payload(row),
        },
        "pickups": [_pickup_payload(p) for p in outcome.pickups.get(table.pk, [])],
        "error": None,
    }


def quote_payload(outcome: QuoteOutcome, *, base_url: str) -> dict:
    """The contract's Shipping quote. Each group's `quoteId` is `fresh_uuid_marker()`: the
    answer gives every group a new UUID4 each time it is served (apikit.caching)."""
    summaries = product_summaries(outcome.products, base_url=base_url)
    groups = []
    for group in outcome.result.groups:
        info = outcome.storages[group.storage_id]
        groups.append(
            {
                "quoteId": fresh_uuid_marker(),
                "error": NO_SHIPPING_OPTION if group.problem else None,
                "tradePolicyId": outcome.trade_policy_id,
                "productStorageId": group.storage_id,
                "distance": group.distance_km,
                "originZipCode": storage_display_zip_code(info.storage),
                "targetZipCode": outcome.target_code,
                "totalPrice": group.total_price,
                "quantityItems": group.quantity_items,
                "totalCubicVolume": group.total_cubic_volume,
                "totalWeight": group.total_weight,
                "service": group.service,
                "cargoTypeCombination": list(group.cargo_type_ids),
                "additionalTimeGroup": group.additional_time,
                "storage": _storage_payload(info),
                "items": [_item_payload(item, outcome, summaries) for item in group.items],
                "shippingOptions": [_option_payload(o, outcome) for o in group.options],
            }
        )
    error_items = []
    for error in outcome.result.error_items:
        code, message = ITEM_PROBLEMS[error.problem]
        error_items.append(
            {
                "productId": error.product_id,
                "quantity": error.quantity,
                "errorCode": code.value,
                "message": message.format(id=error.product_id, quantity=error.quantity),
            }
        )
    return QuoteResponseSerializer({"quoteGroups": groups, "errorItems": error_items}).data
