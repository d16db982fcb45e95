"""Public endpoints of the feedback app.

- GET /review/product, GET /review/sales-channel: success envelope, page container in `data`.
- GET /publics/products/comments: bare page container.
- POST /publics/products/{productId}/comments: bare Comment, 201.
"""

from typing import Any

from django.http import HttpResponse
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.parsers import valid_data
from apikit.paths import path_id
from apikit.query import list_page, parse_list_query
from apikit.responses import bare, envelope, request_base_url
from catalog.api.fragments import attach_product_summaries
from storefront.api.idempotency import idempotent
from storefront.api.throttling import PublicWriteThrottle
from storefront.models import Customer
from storefront.selectors import current_sales_channel

from ..selectors import (
    comments_public,
    product_reviews_public,
    sales_channel_reviews_public,
)
from ..services import comment_create
from .lists import COMMENT_LIST, PRODUCT_REVIEW_LIST, SALES_CHANNEL_REVIEW_LIST
from .schema import (
    product_comment_create_schema,
    product_comment_list_schema,
    product_review_list_schema,
    sales_channel_review_list_schema,
)
from .serializers import (
    CommentCreateSerializer,
    CommentSerializer,
    ProductReviewSerializer,
    SalesChannelReviewSerializer,
)


class ProductReviewListView(APIView):
    @product_review_list_schema
    def get(self, request: Request) -> HttpResponse:
        query = parse_list_query(request.query_params, PRODUCT_REVIEW_LIST)
        base_url = request_base_url(request)

        def render(rows: list) -> Any:
            attach_product_summaries(rows, base_url=base_url, key="productId")
            return ProductReviewSerializer(rows, many=True, context={"base_url": base_url}).data

        page = list_page(product_reviews_public(), query, render)
        return conditional_response(request, envelope(page), max_age=0)


class SalesChannelReviewListView(APIView):
    @sales_channel_review_list_schema
    def get(self, request: Request) -> HttpResponse:
        query = parse_list_query(request.query_params, SALES_CHANNEL_REVIEW_LIST)
        reviews = sales_channel_reviews_public(channel=current_sales_channel(request))
        page = list_page(
            reviews, query, lambda rows: SalesChannelReviewSerializer(rows, many=True).data
        )
        return conditional_response(request, envelope(page), max_age=0)


class CommentListView(APIView):
    @product_comment_list_schema
    def get(self, request: Request) -> HttpResponse:
        query = parse_list_query(request.query_params, COMMENT_LIST)
        base_url = request_base_url(request)

        def render(rows: list) -> Any:
            attach_product_summaries(rows, base_url=base_url)
            return CommentSerializer(rows, many=True).data

        page = list_page(comments_public(), query, render)
        return conditional_response(request, page, max_age=0)


class CommentCreateView(APIView):
    throttle_classes = [PublicWriteThrottle]
    throttle_scope = "product-comment"

    @product_comment_create_schema
    @idempotent
    def post(self, request: Request, productId: str) -> Response:  # the contract's param name
        missing = not_found(ErrorCode.PRODUCT_NOT_FOUND, "Product was not found.")
        product_id = path_id(productId, not_found=missing)  # any text naming no product: 404
        customer = request.user if isinstance(request.user, Customer) else None
        data = valid_data(CommentCreateSerializer, request, signed_in=customer is not None)
        comment = comment_create(product_id=product_id, customer=customer, **data)
        attach_product_summaries([comment], base_url=request_base_url(request))
        return bare(CommentSerializer(comment).data, status=201)
