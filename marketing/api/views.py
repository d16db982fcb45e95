"""Public views of the marketing app: banner listing and cart upsell."""

import json

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.query import ListQuery, list_query_parameters, parse_list_query, sparse
from apikit.querystring import json_or_nested, string_list
from apikit.responses import request_base_url
from apikit.schema import error_responses, success_envelope
from apikit.text import check_json_strings
from catalog.api.fragments import product_full
from storefront.selectors import current_sales_channel

from ..selectors import (
    upsell_answer_valid_until,
    upsell_for_cart,
)
from .listing import banner_listing_get
from .lists import UPSELL_LIST
from .serializers import (
    MAX_CART_ENTRIES,
    MAX_ID,
    BannerGroupSerializer,
    BannerListingQuerySerializer,
    UpsellSerializer,
    parse_variation_map,
)

BANNER_GROUP_NOT_FOUND_MESSAGE = "No banner group was found for the given codes."
UPSELL_NOT_FOUND_MESSAGE = "No upsell offer was found for this location and cart."


def _untyped_json_body(request) -> dict | None:
    """A JSON object sent without a JSON Content-Type (e.g. `requests.get(url, data=...)`)."""
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(body, dict):
        return None
    errors = check_json_strings(body)  # what the JSON parser refuses, refused here too
    if errors:
        raise serializers.ValidationError(errors)
    return body


def banner_codes_input(request) -> dict:
    """`codes` from the JSON body of the GET when it has them, else from the query string.

    A GET without `Content-Type: application/json` is accepted: the query string is read,
    and a body that happens to be a JSON object with `codes` is still honoured.
    """
    if (request.content_type or "").split(";")[0].strip().lower() == "application/json":
        body = request.data
        if not isinstance(body, dict):
            raise serializers.ValidationError({"body": ["The body field must be a JSON object."]})
        if "codes" in body:
            return {"codes": body["codes"]}
    codes = string_list(request.query_params, "codes")
    if codes is None:
        body = _untyped_json_body(request)
        if body is not None and "codes" in body:
            return {"codes": body["codes"]}
    return {} if codes is None else {"codes": codes}


class BannerListView(APIView):
    @extend_schema(
        operation_id="banner_groups_list",
        summary="Banner groups by code, with their live banners",
        description=(
            "Banner groups for the given codes, in the order the codes were given (unknown "
            "codes and groups of other sales channels are left out; none found: 404). Each "
            "group lists only its active banners whose scheduling contains the current moment "
            "(start inclusive, end exclusive), ordered by `order` then id, with a desktop, "
            "tablet and mobile image (`...Image` is a copy fitted to the group's size, "
            "`...OriginalImage` the upload), link and size.\n\n"
            "`codes` may be sent as a JSON body on this GET "
            '(`Content-Type: application/json`, `{"codes": ["home-main"]}`) or in the query '
            "string: `codes[]=a&codes[]=b`, `codes=a&codes=b` or `codes=a,b`. Without "
            "`Content-Type: application/json` the query string is read. Missing or empty: 422 "
            '"The codes field is required.".\n\n'
            "Responses carry `ETag` and a `Cache-Control` max-age that never reaches past the "
            "next scheduling start or end."
        ),
        tags=["banners"],
        parameters=[
            OpenApiParameter(
                "codes",
                {"type": "array", "items": {"type": "string", "maxLength": 100}, "maxItems": 100},
                style="form",
                explode=True,
                description=(
                    "Banner group codes (required here or in the JSON body). The URL (path "
                    "and query string) may be at most 8,000 bytes (414 URI_TOO_LONG above): "
                    "100 codes of about 60 characters fit; send longer lists in the JSON body."
                ),
                examples=[OpenApiExample("Home page", value=["home-main"])],
            ),
            OpenApiParameter(
                "service-cookie-name",
                OpenApiTypes.STR,
                location=OpenApiParameter.HEADER,
                required=False,
                description="Accepted and never required.",
            ),
        ],
        responses={
            200: success_envelope("BannerGroupListResponse", BannerGroupSerializer, many=True),
            304: OpenApiResponse(description="Not modified (If-None-Match matched the ETag)."),
            **error_responses(404, 422, not_found_code=ErrorCode.BANNER_GROUP_NOT_FOUND),
        },
    )
    def get(self, request):
        query = BannerListingQuerySerializer(data=banner_codes_input(request))
        query.is_valid(raise_exception=True)
        moment = timezone.now()
        listing = banner_listing_get(
            codes=query.validated_data["codes"],
            channel=current_sales_channel(request),
            moment=moment,
            base_url=request.build_absolute_uri("/"),
        )
        if not listing.groups:
            raise not_found(ErrorCode.BANNER_GROUP_NOT_FOUND, BANNER_GROUP_NOT_FOUND_MESSAGE)
        return conditional_response(
            request,
            {"status": True, "data": listing.groups},
            max_age=listing.max_age(moment),
            valid_until=listing.valid_until,
        )


def upsell_query_input(request) -> tuple[ListQuery, dict[int, int | None]]:
    """The list query (limit, offset, fields, condition, order) and the cart, with the
    errors of both reported together."""
    errors: dict = {}
    query = cart = None
    try:
        query = parse_list_query(request.query_params, UPSELL_LIST)
    except serializers.ValidationError as exc:
        errors.update(exc.detail)
    try:
        cart = parse_variation_map(json_or_nested(request.query_params, "variationMap"))
    except serializers.ValidationError as exc:
        errors.update(exc.detail)
    if errors:
        raise serializers.ValidationError(errors)
    return query, cart


class UpsellView(APIView):
    @extend_schema(
        operation_id="cart_upsell_get",
        summary="The upsell offer for a cart location",
        description=(
            "The highest-priority active offer for the location, live at the current moment, "
            "whose triggers match the cart (an offer without triggers always matches; product "
            "triggers match a product or variation in the cart, category triggers a category "
            "of a cart product or one of its ancestors) and whose product is not already in "
            "the cart. `upsellProduct.price` is the price after the offer's price rule, for "
            "the offer's quantity, in the default trade policy.\n\n"
            "`variationMap` describes the cart (productId -> variationId, 0 or null for a "
            "product without variation): `variationMap[12]=34&variationMap[15]=0` or "
            '`variationMap={"12":34}`. `condition` and `order` filter and sort the candidate '
            "offers (default order: -priority, then id), `offset` skips candidates; `fields` "
            "keeps only those top-level keys. None left: 404."
        ),
        tags=["upsell"],
        parameters=[
            OpenApiParameter(
                "locationId",
                OpenApiTypes.STR,
                location=OpenApiParameter.PATH,
                description="Location of the offer, e.g. cart or checkout.",
                examples=[OpenApiExample("Cart", value="cart")],
            ),
            *list_query_parameters(UPSELL_LIST, limit=False),  # one offer: no page size
            OpenApiParameter(
                "variationMap",
                {
                    "type": "object",
                    "additionalProperties": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": MAX_ID,
                        "nullable": True,
                    },
                    "maxProperties": MAX_CART_ENTRIES,
                },
                style="deepObject",
                explode=True,
                description="The cart: productId -> variationId (JSON object also accepted).",
            ),
        ],
        responses={
            200: UpsellSerializer,
            **error_responses(404, 422, not_found_code=ErrorCode.UPSELL_NOT_FOUND),
        },
    )
    def get(self, request, locationId: str):
        query, cart = upsell_query_input(request)
        moment = timezone.now()
        offer = upsell_for_cart(
            location=locationId,
            variation_map=cart,
            moment=moment,
            filters=query.filter,
            order_by=query.order_by,
            offset=query.offset,
        )
        if offer is None:
            raise not_found(ErrorCode.UPSELL_NOT_FOUND, UPSELL_NOT_FOUND_MESSAGE)
        product = product_full(
            offer.product_id,
            base_url=request_base_url(request),
            price_rule=offer.price_rule,
            quantity=offer.quantity,
        )
        context = {"upsell_product": product}
        data = UpsellSerializer(offer, context=context).data
        return conditional_response(
            request,
            sparse([data], query.fields)[0],
            max_age=0,
            valid_until=upsell_answer_valid_until(location=locationId, moment=moment),
        )
