"""Public views of the marketing app: banner listing and cart upsell."""

import json
from functools import cache
from typing import Any, cast

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.filters import orm_paths
from apikit.generics import LIST_FILTERS, ListPagination, list_query
from apikit.parsers import valid_params
from apikit.querystring import json_or_nested, query_items, string_list
from apikit.responses import envelope, request_base_url
from apikit.text import check_json_strings
from catalog.api.fragments import product_full_answer
from infra.caching.kept import kept_many
from storefront.selectors import current_sales_channel

from ..models import Upsell
from ..selectors import OFFER_NAMESPACES, UpsellOffer, upsell_answer_valid_until, upsell_for_cart
from .filters import UpsellFilter
from .listing import banner_listing_get
from .schema import banner_groups_list_schema, cart_upsell_get_schema
from .serializers import BannerListingQuerySerializer, UpsellSerializer, parse_variation_map

BANNER_GROUP_NOT_FOUND_MESSAGE = "No banner group was found for the given codes."
UPSELL_NOT_FOUND_MESSAGE = "No upsell offer was found for this location and cart."


def _untyped_json_body(request: Request) -> dict[str, Any] | None:
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


def banner_codes_input(request: Request) -> dict[str, Any]:
    """`codes` from the JSON body of the GET when it has them, else from the query string
    (then a body that is a JSON object with `codes`, whatever its Content-Type)."""
    if (request.content_type or "").split(";")[0].strip().lower() == "application/json":
        body = request.data
        if not isinstance(body, dict):
            raise serializers.ValidationError({"body": ["The body field must be a JSON object."]})
        if "codes" in body:
            return {"codes": body["codes"]}
    codes = string_list(request.query_params, "codes")
    if codes is None:
        untyped = _untyped_json_body(request)
        if untyped is not None and "codes" in untyped:
            return {"codes": untyped["codes"]}
    return {} if codes is None else {"codes": codes}


class BannerListView(APIView):
    @banner_groups_list_schema
    def get(self, request: Request) -> HttpResponse:
        query = valid_params(BannerListingQuerySerializer, banner_codes_input(request))
        moment = timezone.now()
        listing = banner_listing_get(
            codes=query["codes"],
            channel=current_sales_channel(request),
            moment=moment,
            base_url=request.build_absolute_uri("/"),
        )
        if not listing.groups:
            raise not_found(ErrorCode.BANNER_GROUP_NOT_FOUND, BANNER_GROUP_NOT_FOUND_MESSAGE)
        return conditional_response(
            request,
            envelope(listing.groups),
            max_age=listing.max_age(moment),
            valid_until=listing.valid_until,
        )


class CandidatePagination(ListPagination):
    """`offset` picks the candidate offer: no page size is documented (`limit` is checked)."""

    def get_schema_operation_parameters(self, view: Any) -> list[dict]:
        return super().get_schema_operation_parameters(view)[1:]


class CandidateQuerySchema(AutoSchema):
    """The query parameters of a list for a view that answers one of its records."""

    def get_filter_backends(self) -> list[Any]:
        return [*cast(Any, self.view).filter_backends, CandidateOffset]


class CandidateOffset(BaseFilterBackend):
    """(schema only) `offset`, as `CandidatePagination` documents it."""

    def get_schema_operation_parameters(self, view: Any) -> list[dict]:
        return view.pages.get_schema_operation_parameters(view)


def _offer_body(offer: UpsellOffer) -> dict:
    """The offer's Upsell but its product, kept with the offers."""
    return kept_many(
        "upsell-answers",
        [offer.id],
        lambda _: OFFER_NAMESPACES,
        lambda _: {offer.id: UpsellSerializer(offer, context={"upsell_product": None}).data},
    )[offer.id]


class UpsellView(APIView):
    # One offer, chosen among the location's candidates as a list query chooses: `condition`
    # and `order` filter and sort them, `offset` skips some, `fields` keeps keys.

    schema = CandidateQuerySchema()
    filter_backends = LIST_FILTERS
    filterset_class = UpsellFilter
    ordering_fields = orm_paths(
        "id", "priority", "quantity", "displayTitle", "productId", "createdAt", "updatedAt"
    )
    ordering = ("-priority",)
    sparse_fields: tuple[str, ...] | None = None  # set by SparseFields
    pages = CandidatePagination()

    @classmethod
    @cache
    def output_fields(cls) -> frozenset[str]:
        return frozenset(UpsellSerializer().fields)

    @cart_upsell_get_schema
    def get(self, request: Request, locationId: str) -> HttpResponse:  # the URL's name
        """The list query's errors and the cart's are reported together."""
        errors: dict = {}
        listed = cart = None
        try:
            listed = list_query(self, request, Upsell.objects.all(), self.pages)
        except serializers.ValidationError as exc:
            errors.update(cast(dict, exc.detail))
        try:
            cart = parse_variation_map(json_or_nested(request.query_params, "variationMap"))
        except serializers.ValidationError as exc:
            errors.update(cast(dict, exc.detail))
        if listed is None or cart is None:
            raise serializers.ValidationError(errors)
        moment = timezone.now()
        offer = upsell_for_cart(
            location=locationId,
            variation_map=cart,
            moment=moment,
            # no condition or order: the offers by priority, from process memory
            listed=listed if {"condition", "order"} & query_items(request).keys() else None,
            offset=self.pages.get_offset(request),
        )
        if offer is None:
            raise not_found(ErrorCode.UPSELL_NOT_FOUND, UPSELL_NOT_FOUND_MESSAGE)
        product = product_full_answer(
            offer.product_id,
            base_url=request_base_url(request),
            price_rule=offer.price_rule,
            quantity=offer.quantity,
        )
        if product is None:  # deleted between the two reads
            raise not_found(ErrorCode.UPSELL_NOT_FOUND, UPSELL_NOT_FOUND_MESSAGE)
        data = {**_offer_body(offer), "upsellProduct": product.body}
        # the answer changes by itself at an offer's or rule's boundary, or at a start or
        # end of a seal or banner the product shows
        boundaries = (
            upsell_answer_valid_until(location=locationId, moment=moment),
            product.valid_until,
        )
        return conditional_response(
            request,
            {key: value for key, value in data.items() if key in (self.sparse_fields or data)},
            max_age=0,
            valid_until=min((edge for edge in boundaries if edge is not None), default=None),
        )
