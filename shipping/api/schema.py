"""OpenAPI declarations of shipping's endpoints (postal codes, quote), one per operation
(applied to the views)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from apikit.errors import ErrorCode
from apikit.schema import error_responses, no_store_header, success_envelope
from infra.ids import MAX_ID

from ..postal import MAX_INPUT_LENGTH
from .serializers import (
    MAX_QUOTE_ITEMS,
    MAX_QUOTE_QUANTITY,
    AddressSerializer,
    QuoteResponseSerializer,
)

# What the serializers accept (CountryCodeField, normalize_postal_code), for the schema.
COUNTRY_CODE_SCHEMA = {"type": "string", "pattern": "^[A-Za-z]{3}$"}
ZIP_CODE_SCHEMA = {"type": "string", "pattern": "^[A-Za-z0-9 .-]+$", "maxLength": MAX_INPUT_LENGTH}


shipping_zipcode_consult_schema = extend_schema(
    operation_id="shipping_zipcode_consult",
    summary="Address of a postal code",
    description=(
        "The address of a postal code of a country. `countryCode` is the ISO 3166-1 "
        "alpha-3 code (any case); `zipCode` may contain a hyphen, dots or spaces "
        "(Brazil: 8 digits; United States: 5 digits, ZIP+4 accepted; other countries: "
        "letters and digits). The answer gives the code in the country's usual format "
        "(01310-100). A code that is not in the store's database may be looked up in a "
        "configured postal-code provider (off by default) and is then stored; a "
        "provider that fails or is slow gives the same 404 as an unknown code. "
        "Cacheable: the response carries an ETag (send If-None-Match for a 304)."
    ),
    tags=["shipping"],
    parameters=[
        OpenApiParameter(
            "countryCode",
            COUNTRY_CODE_SCHEMA,
            OpenApiParameter.PATH,
            description="ISO 3166-1 alpha-3 country code, e.g. BRA.",
            examples=[OpenApiExample("Brazil", value="BRA")],
        ),
        OpenApiParameter(
            "zipCode",
            ZIP_CODE_SCHEMA,
            OpenApiParameter.PATH,
            description="Postal code, with or without hyphen, e.g. 01310-100.",
            examples=[OpenApiExample("Avenida Paulista", value="01310-100")],
        ),
    ],
    responses={
        200: success_envelope("ZipcodeConsultResponse", AddressSerializer),
        **error_responses(404, 422, not_found_code=ErrorCode.ZIPCODE_NOT_FOUND),
    },
)


QUOTE_PARAMETERS = [
    OpenApiParameter(
        "targetZipCode",
        ZIP_CODE_SCHEMA,
        required=True,
        description="Destination postal code, with or without hyphen (e.g. 20040-002).",
        examples=[OpenApiExample("Rio de Janeiro", value="20040-002")],
    ),
    OpenApiParameter(
        "targetCountryCode",
        COUNTRY_CODE_SCHEMA,
        required=True,
        description="Destination country, ISO 3166-1 alpha-3 (3 letters, e.g. BRA).",
        examples=[OpenApiExample("Brazil", value="BRA")],
    ),
    OpenApiParameter(
        "tradePolicyId",
        {"type": "integer", "minimum": 1, "maximum": MAX_ID},
        description="Trade policy whose prices apply; the store's default when absent.",
    ),
    OpenApiParameter(
        "items",
        {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_QUOTE_ITEMS,
            "items": {
                "type": "object",
                "properties": {
                    "productId": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
                    "quantity": {"type": "integer", "minimum": 1, "maximum": MAX_QUOTE_QUANTITY},
                },
                "required": ["productId", "quantity"],
                "additionalProperties": False,
            },
        },
        required=True,
        description=(
            f"1 to {MAX_QUOTE_ITEMS} items, each `productId` (integer) and `quantity` "
            f"(integer 1 to {MAX_QUOTE_QUANTITY}), in bracket notation "
            "(`items[0][productId]=1&items[0][quantity]=2`) or as a JSON array "
            '(`items=[{"productId":1,"quantity":2}]`); OpenAPI has no style for an array of '
            "objects in a query, so a generated client needs a query serializer writing one "
            "of these (clients/typescript has one). A product given twice is quoted "
            "once with the quantities summed. The URL (path and query string) may be at "
            "most 8,000 bytes (414 URI_TOO_LONG above): 100 items always fit in the JSON "
            "form; in bracket notation, with percent-encoded brackets, when ids have up to "
            "12 digits."
        ),
        examples=[OpenApiExample("Two of product 1", value=[{"productId": 1, "quantity": 2}])],
    ),
    OpenApiParameter(
        "explain",
        OpenApiTypes.BOOL,
        description=(
            "true: each group also carries `explanation.tables` (every shipping table of "
            "the country considered and why each gave no option) and the answer "
            "`explanation.excludedItems` (the items left out and why). Without it the "
            "answer has no `explanation` keys."
        ),
    ),
    OpenApiParameter(
        "deliveryDates",
        OpenApiTypes.BOOL,
        description=(
            "true: each shipping option also carries `deliveryEstimate` (`shipsOn`, "
            "`minDate`, `maxDate`, `cutoffAt`, `businessDays`, and `readyOn` for pickups), "
            "counted in business days with Brazil's national holidays and those of the "
            "storage's and the destination's state and city; such an answer is cached until "
            "the next cut-off or midnight. Without it the answer has no `deliveryEstimate`."
        ),
    ),
]


products_quote_schema = extend_schema(
    operation_id="products_quote",
    summary="Shipping quote of products",
    description=(
        "Groups the items by origin storage (the nearest active storage serving the "
        "trade policy that has each item's quantity in stock, or any for products sold "
        "without stock; items are split over storages only when no single one serves "
        "all) and lists, per group, the shipping options of the tables serving that "
        "storage and the items' cargo types whose row matches the postal code, the "
        "billable weight (larger of real weight and cm3 / SHIPPING_CUBIC_DIVISOR) and "
        "the order value, sorted by value then days. Unknown, inactive, unpriced or "
        "unavailable products are listed in `errorItems` (never a failed quote). A "
        "postal code with no known address still quotes (distance 0, storages by "
        "priority)."
    ),
    tags=["shipping"],
    parameters=[
        *QUOTE_PARAMETERS,
        no_store_header("each quote has new quoteIds, so it has no ETag and no 304."),
    ],
    responses={
        200: QuoteResponseSerializer,
        **error_responses(404, 422, not_found_code=ErrorCode.TRADE_POLICY_NOT_FOUND),
    },
)
