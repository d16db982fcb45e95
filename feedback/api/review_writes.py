"""POST /review/product and POST /review/sales-channel: each view is its public list's
(GET) plus `post`, for signed-in customers; 201 for a new review, 200 for an updated one."""

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.parsers import valid_data
from apikit.responses import request_base_url, success
from catalog.api.fragments import attach_product_summaries
from storefront.api.authentication import IsCustomer, signed_in_customer
from storefront.api.idempotency import idempotent
from storefront.api.throttling import PublicWriteThrottle
from storefront.selectors import current_sales_channel

from ..review_writes import product_review_write, sales_channel_review_write
from ..selectors import product_review_get, sales_channel_review_get
from .review_write_serializers import ProductReviewWriteSerializer, ReviewWriteSerializer
from .schema import product_review_write_schema, sales_channel_review_write_schema
from .serializers import ProductReviewSerializer, SalesChannelReviewSerializer
from .views import ProductReviewListView, SalesChannelReviewListView

if TYPE_CHECKING:
    from rest_framework.permissions import _SupportsHasPermission  # (the stubs' own type)


class _CustomerWrites(APIView):
    """POST is for the signed-in customer only, throttled per client IP (GET stays public)."""

    throttle_classes = [PublicWriteThrottle]  # POSTs only

    def get_permissions(self) -> Sequence["_SupportsHasPermission"]:
        return [IsCustomer()] if self.request.method == "POST" else super().get_permissions()


class ProductReviewView(_CustomerWrites, ProductReviewListView):
    throttle_scope = "product-review"

    @product_review_write_schema
    @idempotent
    def post(self, request: Request) -> Response:
        data = valid_data(ProductReviewWriteSerializer, request)
        written = product_review_write(customer=signed_in_customer(request), **data)
        review = product_review_get(review_id=written.review.pk)
        base_url = request_base_url(request)
        attach_product_summaries([review], base_url=base_url, key="productId")
        body = ProductReviewSerializer(review, context={"base_url": base_url}).data
        return success(body, status=201 if written.created else 200)


class SalesChannelReviewView(_CustomerWrites, SalesChannelReviewListView):
    throttle_scope = "sales-channel-review"

    @sales_channel_review_write_schema
    @idempotent
    def post(self, request: Request) -> Response:
        written = sales_channel_review_write(
            customer=signed_in_customer(request),
            channel=current_sales_channel(request),
            **valid_data(ReviewWriteSerializer, request),
        )
        review = sales_channel_review_get(review_id=written.review.pk)
        body = SalesChannelReviewSerializer(review).data
        return success(body, status=201 if written.created else 200)
