"""GET /shipping/zipcode/consult/{countryCode}/{zipCode} and GET /publics/products/quote
(contract 4.7, 4.8)."""

from django.http import HttpResponse
from rest_framework.request import Request
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.compiled import renderer
from apikit.errors import ErrorCode, not_found
from apikit.parsers import valid_params
from apikit.querystring import indexed_list, json_or_nested
from apikit.responses import envelope, request_base_url
from catalog.api.fragments import product_summaries

from ..quoting import shipping_quote_get
from ..selectors import quote_trade_policy_id
from ..services import postal_code_find
from .schema import products_quote_schema, shipping_zipcode_consult_schema
from .serializers import (
    AddressSerializer,
    QuoteQuerySerializer,
    QuoteResponseSerializer,
    ZipcodeConsultSerializer,
)


class ZipcodeConsultView(APIView):
    authentication_classes = []  # public and customer-independent: no token lookup

    @shipping_zipcode_consult_schema
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


class ShippingQuoteView(APIView):
    authentication_classes = []  # public and customer-independent: no token lookup

    @products_quote_schema
    def get(self, request: Request) -> HttpResponse:
        query = request.query_params
        items = json_or_nested(query, "items")
        if isinstance(items, dict):
            items = indexed_list(items, name="items")
        given = {
            "tradePolicyId": query.get("tradePolicyId") or None,
            "targetZipCode": query.get("targetZipCode"),
            "targetCountryCode": query.get("targetCountryCode"),
            "items": items,
            **{name: query[name] for name in ("explain", "deliveryDates") if name in query},
        }  # an absent parameter is "required", not "may not be null"
        data = valid_params(QuoteQuerySerializer, {k: v for k, v in given.items() if v is not None})
        trade_policy_id = quote_trade_policy_id(data.get("tradePolicyId"))
        if trade_policy_id is None:
            raise not_found(
                ErrorCode.TRADE_POLICY_NOT_FOUND,
                f"Trade policy {data.get('tradePolicyId')} was not found.",
            )
        country = data["targetCountryCode"].alpha_3
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
            renderer(QuoteResponseSerializer)(outcome, summaries=summaries),
            max_age=0,
            valid_until=outcome.valid_until,
            fresh_uuids=True,
        )
