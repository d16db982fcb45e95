"""Public endpoints of the feedback app.

- GET /review/product, GET /review/sales-channel: success envelope, page container in `data`.
- GET /publics/products/comments: bare page container.
- POST /publics/products/{productId}/comments: bare Comment, 201.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.paths import path_id
from apikit.query import list_page, list_query_parameters, parse_list_query
from apikit.responses import bare, request_base_url
from apikit.schema import error_responses, page_container, success_envelope
from catalog.api.fragments import attach_product_summaries
from storefront.api.idempotency import idempotency_key_parameter, idempotent
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
from .serializers import (
    CommentCreateSerializer,
    CommentSerializer,
    ProductReviewSerializer,
    SalesChannelReviewSerializer,
)


class ProductReviewListView(APIView):
    @extend_schema(
        operation_id="product_review_list",
        summary="List product reviews",
        description=(
            "Approved product reviews, newest first. E-mails are masked (j***@example.com); "
            "a review with `masked` true also masks the name (J*** S***)."
        ),
        tags=["reviews"],
        parameters=list_query_parameters(PRODUCT_REVIEW_LIST),
        responses={
            200: success_envelope(
                "ProductReviewPageEnvelope",
                page_container("ProductReviewPage", ProductReviewSerializer),
            ),
            **error_responses(422),
        },
    )
    def get(self, request):
        query = parse_list_query(request.query_params, PRODUCT_REVIEW_LIST)
        base_url = request_base_url(request)

        def render(rows: list) -> list:
            attach_product_summaries(rows, base_url=base_url, key="productId")
            context = {"base_url": base_url}
            return ProductReviewSerializer(rows, many=True, context=context).data

        page = list_page(product_reviews_public(), query, render)
        return conditional_response(request, {"status": True, "data": page}, max_age=0)


class SalesChannelReviewListView(APIView):
    @extend_schema(
        operation_id="sales_channel_review_list",
        summary="List reviews of the store (current sales channel)",
        description=(
            "Approved reviews of the sales channel serving the request's host (else the "
            "default channel), newest first. E-mails are masked; `masked` reviews mask the "
            "name too."
        ),
        tags=["reviews"],
        parameters=list_query_parameters(SALES_CHANNEL_REVIEW_LIST),
        responses={
            200: success_envelope(
                "SalesChannelReviewPageEnvelope",
                page_container("SalesChannelReviewPage", SalesChannelReviewSerializer),
            ),
            **error_responses(422),
        },
    )
    def get(self, request):
        query = parse_list_query(request.query_params, SALES_CHANNEL_REVIEW_LIST)
        reviews = sales_channel_reviews_public(channel=current_sales_channel(request))
        page = list_page(
            reviews, query, lambda rows: SalesChannelReviewSerializer(rows, many=True).data
        )
        return conditional_response(request, {"status": True, "data": page}, max_age=0)


class CommentListView(APIView):
    @extend_schema(
        operation_id="product_comment_list",
        summary="List product comments and replies",
        description=(
            "Approved comments, newest first. Replies are registers with `parentCommentId` "
            "set (use `condition[parentCommentId][isNull]=true` for top-level comments "
            "only); `totalReplies` counts a comment's approved replies. E-mails are masked."
        ),
        tags=["comments"],
        parameters=list_query_parameters(COMMENT_LIST),
        responses={200: page_container("CommentPage", CommentSerializer), **error_responses(422)},
    )
    def get(self, request):
        query = parse_list_query(request.query_params, COMMENT_LIST)
        base_url = request_base_url(request)

        def render(rows: list) -> list:
            attach_product_summaries(rows, base_url=base_url)
            return CommentSerializer(rows, many=True).data

        page = list_page(comments_public(), query, render)
        return conditional_response(request, page, max_age=0)


class CommentCreateView(APIView):
    throttle_classes = [PublicWriteThrottle]
    throttle_scope = "product-comment"

    @extend_schema(
        operation_id="product_comment_create",
        summary="Comment on a product, or reply to a comment",
        description=(
            "Signed-in customers (Authorization: Bearer <token>) comment under their "
            "account's name and e-mail; anonymous callers must give `customerName` (3 to "
            "100 characters) and `customerEmail`. `parentCommentId` must be an approved "
            "top-level comment of the same product. The new comment is held for moderation "
            "(`active` false) unless the store publishes comments at once. Throttled per IP. "
            "`Idempotency-Key` makes a retry return the first answer, never a second comment."
        ),
        tags=["comments"],
        parameters=[
            OpenApiParameter(
                "productId", OpenApiTypes.INT, OpenApiParameter.PATH, description="Product id."
            ),
            idempotency_key_parameter(),
        ],
        request=CommentCreateSerializer,
        responses={
            201: CommentSerializer,
            **error_responses(404, 409, 422, 429, not_found_code=ErrorCode.PRODUCT_NOT_FOUND),
        },
        examples=[
            OpenApiExample(
                "Anonymous question",
                request_only=True,
                value={
                    "message": "Does it come in blue?",
                    "customerName": "Joana Silva",
                    "customerEmail": "joana@example.com",
                },
            ),
            OpenApiExample(
                "Reply (signed in)",
                request_only=True,
                value={"message": "It does, I bought one.", "parentCommentId": 12},
            ),
        ],
    )
    @idempotent
    def post(self, request, productId: str):  # the contract's path parameter name
        missing = not_found(ErrorCode.PRODUCT_NOT_FOUND, "Product was not found.")
        product_id = path_id(productId, not_found=missing)  # any text naming no product: 404
        customer = request.user if isinstance(request.user, Customer) else None
        serializer = CommentCreateSerializer(
            data=request.data, context={"signed_in": customer is not None}
        )
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        comment = comment_create(
            product_id=product_id,
            message=data["message"],
            parent_comment_id=data.get("parentCommentId"),
            customer=customer,
            customer_name=data.get("customerName") or "",
            customer_email=data.get("customerEmail") or "",
        )
        attach_product_summaries([comment], base_url=request_base_url(request))
        return bare(CommentSerializer(comment).data, status=201)
