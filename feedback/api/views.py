"""Public endpoints of the feedback app: the review lists (success envelope) and, on the
same paths, the signed-in customer's review writes (201 new, 200 updated); the comment list
and a new comment (bare)."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from drf_spectacular.utils import extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.caching import conditional_response
from apikit.errors import ErrorCode, not_found
from apikit.filters import orm_paths
from apikit.generics import EnvelopedPagination, ListView
from apikit.parsers import valid_data
from apikit.paths import path_id
from apikit.querystring import invalid
from apikit.responses import rendered_rows, request_base_url, success
from catalog.api.filters import required_search_text
from catalog.api.fragments import attach_product_summaries
from catalog.api.products import PRODUCT_NOT_FOUND_MESSAGE
from catalog.selectors.listing import product_page_visible
from infra.client_ip import client_ip
from storefront.api.authentication import IsCustomer, signed_in_customer
from storefront.api.idempotency import idempotent
from storefront.api.throttling import PublicWriteThrottle
from storefront.models import Customer
from storefront.selectors import current_sales_channel

from ..review_writes import product_review_write, sales_channel_review_write
from ..selectors import (
    attach_review_medias,
    comments_public,
    product_review_get,
    product_reviews_public,
    sales_channel_review_get,
    sales_channel_reviews_public,
    similar_questions_get,
)
from ..services import comment_create
from ..votes import anonymous_voter, customer_voter, review_vote
from .filters import CommentFilter, ProductReviewFilter, SalesChannelReviewFilter, replies_only
from .schema import (
    product_comment_create_schema,
    product_comment_list_schema,
    product_comment_similar_schema,
    product_review_list_schema,
    product_review_vote_schema,
    product_review_write_schema,
    sales_channel_review_list_schema,
    sales_channel_review_write_schema,
)
from .serializers import (
    REVIEW_OPT_IN_FIELDS,
    CommentCreateSerializer,
    CommentSerializer,
    ProductReviewSerializer,
    ProductReviewWriteSerializer,
    ReviewVoteSerializer,
    ReviewWriteSerializer,
    SalesChannelReviewSerializer,
    without_opt_in,
)

if TYPE_CHECKING:
    from rest_framework.permissions import _SupportsHasPermission  # (the stubs' own type)

REVIEW_ORDER = orm_paths("id", "score", "recommended", "createdAt", "updatedAt")


@extend_schema_view(get=sales_channel_review_list_schema)
class SalesChannelReviewListView(ListView):
    serializer_class = SalesChannelReviewSerializer
    filterset_class = SalesChannelReviewFilter
    ordering_fields = REVIEW_ORDER
    pagination_class = EnvelopedPagination

    def get_queryset(self) -> Any:
        return sales_channel_reviews_public(channel=current_sales_channel(self.request))


@extend_schema_view(get=product_review_list_schema)
class ProductReviewListView(ListView):
    serializer_class = ProductReviewSerializer
    filterset_class = ProductReviewFilter
    # `helpfulness`: the Wilson lower bound stored on the row (feedback.ranking)
    ordering_fields = orm_paths("id", "productId", *REVIEW_ORDER, "helpfulness")
    pagination_class = EnvelopedPagination
    compiled_queries = True

    def get_queryset(self) -> Any:
        return product_reviews_public()

    def registers(self, rows: list) -> Any:
        base_url = request_base_url(self.request)
        attach_review_medias(rows)
        attach_product_summaries(rows, base_url=base_url, key="productId")
        opt_in = REVIEW_OPT_IN_FIELDS.intersection(self.sparse_fields or ())
        rendered = rendered_rows(ProductReviewSerializer, rows, base_url=base_url)
        return [without_opt_in(row, opt_in) for row in rendered]


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
        body = without_opt_in(ProductReviewSerializer(review, context={"base_url": base_url}).data)
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


VOTER_TOKEN_HEADER = "HTTP_X_VOTER_TOKEN"  # noqa: S105 (a header name)


class ProductReviewVoteView(APIView):
    """A helpful (or not) vote on an approved product review, by a signed-in customer or an
    anonymous voter (client address + token, hashed)."""

    throttle_classes = [PublicWriteThrottle]
    throttle_scope = "product-review-vote"

    @product_review_vote_schema
    @idempotent
    def post(self, request: Request, reviewId: str) -> Response:  # the path's name
        missing = not_found(ErrorCode.REVIEW_NOT_FOUND, "Review was not found.")
        review_id = path_id(reviewId, not_found=missing)
        data = valid_data(ReviewVoteSerializer, request)
        if isinstance(request.user, Customer):
            voter = customer_voter(request.user)
        else:
            token = data.get("voter_token") or request.META.get(VOTER_TOKEN_HEADER, "")
            if not token or len(token) > 200:
                raise invalid(
                    "voterToken",
                    "field (or the X-Voter-Token header, at most 200 characters) is required "
                    "when not signed in",
                )
            voter = anonymous_voter(address=client_ip(request), token=token)
        counted = review_vote(review_id=review_id, voter=voter, helpful=data["helpful"])
        return success(
            {
                "reviewId": counted.review_id,
                "helpful": counted.helpful,
                "helpfulCount": counted.helpful_count,
                "unhelpfulCount": counted.unhelpful_count,
            }
        )


@extend_schema_view(get=product_comment_list_schema)
class CommentListView(ListView):
    serializer_class = CommentSerializer
    filterset_class = CommentFilter
    ordering_fields = orm_paths(
        "id", "productId", "replyByUser", "totalReplies", "createdAt", "updatedAt"
    )
    compiled_queries = True

    @property
    def ordering(self) -> tuple[str, ...]:  # type: ignore[override]
        """Newest first; a list of replies only puts the staff's answers first."""
        if replies_only(getattr(self, "condition_terms", ())):
            return ("-reply_by_user", "-created_at")
        return ("-created_at",)

    def get_queryset(self) -> Any:
        return comments_public()

    def registers(self, rows: list) -> Any:
        attach_product_summaries(rows, base_url=request_base_url(self.request))
        return rendered_rows(CommentSerializer, rows)


class SimilarQuestionsView(APIView):
    """Answered questions of a product that look like the shopper's text (bare)."""

    @product_comment_similar_schema
    def get(self, request: Request, productId: str) -> Any:  # the contract's name
        missing = not_found(ErrorCode.PRODUCT_NOT_FOUND, PRODUCT_NOT_FOUND_MESSAGE)
        product_id = path_id(productId, not_found=missing)  # any text naming no product: 404
        if not product_page_visible(product_id=product_id):
            raise missing
        rows = similar_questions_get(product_id=product_id, text=required_search_text(request))
        attach_product_summaries(rows, base_url=request_base_url(request))
        return conditional_response(
            request, {"registers": rendered_rows(CommentSerializer, rows)}, max_age=0
        )


class CommentCreateView(APIView):
    throttle_classes = [PublicWriteThrottle]
    throttle_scope = "product-comment"

    @product_comment_create_schema
    @idempotent
    def post(self, request: Request, productId: str) -> Response:  # the contract's name
        missing = not_found(ErrorCode.PRODUCT_NOT_FOUND, PRODUCT_NOT_FOUND_MESSAGE)
        product_id = path_id(productId, not_found=missing)  # any text naming no product: 404
        customer = request.user if isinstance(request.user, Customer) else None
        data = valid_data(CommentCreateSerializer, request, signed_in=customer is not None)
        comment = comment_create(product_id=product_id, customer=customer, **data)
        attach_product_summaries([comment], base_url=request_base_url(request))
        return Response(CommentSerializer(comment).data, status=201)
