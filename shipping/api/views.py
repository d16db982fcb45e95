"""GET /shipping/zipcode/consult/{countryCode}/{zipCode} and GET /publics/products/quote
(contract 4.7, 4.8)."""

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.parsers import valid_params
from apikit.querystring import indexed_list, json_or_nested
from apikit.responses import envelope, request_base_url
from apikit.schema import error_responses, success_envelope
from catalog.api.fragments import product_summaries
from infra.ids import MAX_ID

from ..postal import MAX_INPUT_LENGTH
from ..selectors import quote_trade_policy_id, shipping_quote_get
from ..services import postal_code_find, postal_code_learn
from .answers import quote_answer
from .serializers import (
    MAX_QUOTE_ITEMS,
    MAX_QUOTE_QUANTITY,
    AddressSerializer,
    QuoteQuerySerializer,
    QuoteResponseSerializer,
    ZipcodeConsultSerializer,
)

# What the serializers accept (CountryCodeField, normalize_postal_code), for the schema.
COUNTRY_CODE_SCHEMA = {"type": "string", "pattern": "^[A-Za-z]{3}$"}
ZIP_CODE_SCHEMA = {"type": "string", "pattern": "^[A-Za-z0-9 .-]+$", "maxLength": MAX_INPUT_LENGTH}


class ZipcodeConsultView(APIView):
    authentication_classes = []  # public and customer-independent: no token lookup

    @extend_schema(
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
            304: OpenApiResponse(description="Not modified (If-None-Match matched the ETag)."),
            **error_responses(404, 422, not_found_code=ErrorCode.ZIPCODE_NOT_FOUND),
        },
    )
    def get(self, request: Request, countryCode: str, zipCode: str) -> HttpResponse:
        params = valid_params(
            ZipcodeConsultSerializer, {"countryCode": countryCode, "zipCode": zipCode}
        )
        country, code = params["countryCode"], params["zipCode"]
        postal_code = postal_code_find(country=country.alpha_3, code=code)
        if postal_code is None:
            raise not_found(
                ErrorCode.ZIPCODE_NOT_FOUND,
                f"Postal code {zipCode[:20]} was not found in {country.name}.",
            )
        address = AddressSerializer({"address": postal_code, "country": country}).data
        return conditional_response(request, envelope(address))


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
        required=False,
        description="Trade policy whose prices apply; the store's default when absent.",
    ),
    OpenApiParameter(
        "items",
        OpenApiTypes.STR,
        required=True,
        description=(
            f"1 to {MAX_QUOTE_ITEMS} items, each `productId` (integer) and `quantity` "
            f"(integer 1 to {MAX_QUOTE_QUANTITY}), in bracket notation "
            "(`items[0][productId]=1&items[0][quantity]=2`) or as a JSON array "
            '(`items=[{"productId":1,"quantity":2}]`). A product given twice is quoted '
            "once with the quantities summed. The URL (path and query string) may be at "
            "most 8,000 bytes (414 URI_TOO_LONG above): 100 items always fit in the JSON "
            "form; in bracket notation, with percent-encoded brackets, when ids have up to "
            "12 digits."
        ),
        examples=[
            OpenApiExample("JSON array", value='[{"productId":1,"quantity":2}]'),
        ],
    ),
    OpenApiParameter(
        "explain",
        OpenApiTypes.BOOL,
        required=False,
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
        required=False,
        description=(
            "true: each shipping option also carries `deliveryEstimate` (`shipsOn`, "
            "`minDate`, `maxDate`, `cutoffAt`, `businessDays`, and `readyOn` for pickups), "
            "counted in business days with Brazil's national holidays and those of the "
            "storage's and the destination's state and city; such an answer is cached until "
            "the next cut-off or midnight. Without it the answer has no `deliveryEstimate`."
        ),
    ),
]


class ShippingQuoteView(APIView):
    authentication_classes = []  # public and customer-independent: no token lookup

    @extend_schema(
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
        parameters=QUOTE_PARAMETERS,
        responses={
            200: QuoteResponseSerializer,
            **error_responses(404, 422, not_found_code=ErrorCode.TRADE_POLICY_NOT_FOUND),
        },
    )
    def get(self, request: Request) -> HttpResponse:
        query = request.query_params
        items = json_or_nested(query, "items")
        if isinstance(items, dict):
            items = indexed_list(items, name="items")
        data = valid_params(
            QuoteQuerySerializer,
            {
                "tradePolicyId": query.get("tradePolicyId") or None,
                "targetZipCode": query.get("targetZipCode"),
                "targetCountryCode": query.get("targetCountryCode"),
                "items": items,
                **({"explain": query["explain"]} if "explain" in query else {}),
                **({"deliveryDates": query["deliveryDates"]} if "deliveryDates" in query else {}),
            },
        )
        trade_policy_id = quote_trade_policy_id(data.get("tradePolicyId"))
        if trade_policy_id is None:
            raise not_found(
                ErrorCode.TRADE_POLICY_NOT_FOUND,
                f"Trade policy {data.get('tradePolicyId')} was not found.",
            )
        country = data["targetCountryCode"].alpha_3
        postal_code_learn(country=country, code=data["targetZipCode"])
        outcome = shipping_quote_get(
            items=[(item["productId"], item["quantity"]) for item in data["items"]],
            country=country,
            zip_code=data["targetZipCode"],
            trade_policy_id=trade_policy_id,
            explain=data["explain"],
            delivery_dates=data["deliveryDates"],
        )
        summaries = product_summaries(outcome.product_ids, base_url=request_base_url(request))
        return conditional_response(
            request,
            quote_answer(outcome, summaries),
            max_age=0,
            valid_until=outcome.valid_until,
            fresh_uuids=True,
        )
