"""OpenAPI declarations of the feedback endpoints, one per operation (applied to the views)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from apikit.errors import ErrorCode
from apikit.schema import error_responses, success_envelope
from catalog.search import MAX_QUERY
from storefront.api.idempotency import idempotency_key_parameter
from storefront.api.throttling import rate_limit_headers

from .serializers import (
    CommentCreateSerializer,
    CommentSerializer,
    ProductReviewSerializer,
    ProductReviewWriteSerializer,
    ReviewVoteResultSerializer,
    ReviewVoteSerializer,
    ReviewWriteSerializer,
    SalesChannelReviewSerializer,
    SimilarQuestionsSerializer,
)

product_review_list_schema = extend_schema(
    operation_id="product_review_list",
    summary="List product reviews",
    description=(
        "Approved product reviews, newest first. E-mails are masked (j***@example.com); "
        "a review with `masked` true also masks the name (J*** S***). Opt-in keys, "
        "rendered only when `fields` names them: `verifiedPurchase` (the author bought the "
        "product, from the store's orders), `helpfulCount` and `unhelpfulCount` (votes). "
        "`condition[verifiedPurchase]=true` lists verified reviews only (the page's "
        "`registers` counts them); `order=-helpfulness` ranks by the lower bound of the "
        "Wilson interval (95 %) of the helpful share, ties by id."
    ),
    tags=["reviews"],
    responses={200: ProductReviewSerializer, **error_responses(422)},
)


sales_channel_review_list_schema = extend_schema(
    operation_id="sales_channel_review_list",
    summary="List reviews of the store (current sales channel)",
    description=(
        "Approved reviews of the sales channel serving the request's host (else the "
        "default channel), newest first. E-mails are masked; `masked` reviews mask the "
        "name too."
    ),
    tags=["reviews"],
    responses={200: SalesChannelReviewSerializer, **error_responses(422)},
)


product_comment_list_schema = extend_schema(
    operation_id="product_comment_list",
    summary="List product comments and replies",
    description=(
        "Approved comments, newest first. Replies are registers with `parentCommentId` "
        "set (use `condition[parentCommentId][isNull]=true` for top-level comments "
        "only); `totalReplies` counts a comment's approved replies. E-mails are masked. "
        "A list of replies only (`condition[parentCommentId]=<id>`, or any condition on "
        "`parentCommentId` but ne, nin and isNull true) lists the staff's answers first "
        "(`replyByUser` true), each part newest first; an `order` given decides instead. "
        "`condition[answered]=false` lists the questions (top-level comments) without a "
        "public staff reply, `true` those with one."
    ),
    tags=["comments"],
    responses={200: CommentSerializer, **error_responses(422)},
)


product_comment_similar_schema = extend_schema(
    operation_id="product_comment_similar",
    summary="Answered questions like the shopper's (before asking)",
    description=(
        "At most 3 approved questions of the product that staff answered and that look "
        "like `q`, matched as the catalogue search matches words (accents and case "
        "ignored, plurals meet singulars, one typo in a word of five letters or more, "
        "stop words left out): more than half of the words of `q` must be found. The most "
        "words found first, then fewer typos, then the newest. Each question is followed "
        "by its latest public staff answer. Bare response, as the comment list; ETag and "
        "`Cache-Control: max-age=0`. An unknown, inactive or hidden product is 404 "
        "SERVICE_STORE_PRODUCT_NOT_FOUND (checked first); a missing, empty, too long, "
        "symbols-only or control-character `q` is 422."
    ),
    tags=["comments"],
    parameters=[
        OpenApiParameter(
            "productId", OpenApiTypes.INT, OpenApiParameter.PATH, description="Product id."
        ),
        OpenApiParameter(
            "q",
            {"type": "string", "minLength": 1, "maxLength": MAX_QUERY},
            OpenApiParameter.QUERY,
            required=True,
            description="The shopper's question as typed (1 to 100 characters).",
        ),
    ],
    responses={
        200: SimilarQuestionsSerializer,
        **error_responses(404, 422, not_found_code=ErrorCode.PRODUCT_NOT_FOUND),
    },
)


product_comment_create_schema = extend_schema(
    operation_id="product_comment_create",
    summary="Comment on a product, or reply to a comment",
    description=(
        "Signed-in customers (Authorization: Bearer <token>) comment under their "
        "account's name and e-mail; anonymous callers must give `customerName` (3 to "
        "100 characters) and `customerEmail`. `parentCommentId` must be an approved "
        "comment of the same product (else 404 SERVICE_STORE_COMMENT_NOT_FOUND) and "
        "top-level (a reply: 422). The new comment is held for moderation "
        "(`active` false) unless the store publishes comments at once. Throttled per IP. "
        "`Idempotency-Key` makes a retry return the first answer, never a second comment."
    ),
    tags=["comments"],
    parameters=[
        OpenApiParameter(
            "productId", OpenApiTypes.INT, OpenApiParameter.PATH, description="Product id."
        ),
        idempotency_key_parameter(),
        *rate_limit_headers(),
    ],
    request=CommentCreateSerializer,
    responses={
        201: CommentSerializer,
        **error_responses(
            404,
            409,
            422,
            429,
            not_found_code=f"{ErrorCode.PRODUCT_NOT_FOUND}; {ErrorCode.COMMENT_NOT_FOUND} for "
            "an unknown parentCommentId",
        ),
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


_REVIEW_WRITE_RULES = (
    "Signed-in customers only (Authorization: Bearer <token>; 401 UNAUTHENTICATED "
    "otherwise). One review per customer: a second post updates the customer's review "
    "(200 instead of 201) and sends it back to moderation. New and updated reviews are "
    "held for staff (`active` false) unless the store publishes them at once "
    "(REVIEWS_REQUIRE_MODERATION). Throttled per client IP. `Idempotency-Key` makes a "
    "retry return the first answer without writing again. The answer is the review as "
    "the list renders it (e-mail masked; name masked when `masked`)."
)

product_review_write_schema = extend_schema(
    operation_id="product_review_write",
    summary="Review a product (signed-in customer)",
    description=(
        "Writes the signed-in customer's review of an active product, with up to 3 photos "
        "as base64 strings or data URLs in `images` (JSON body; each photo at most "
        "REVIEW_IMAGE_MAX_BYTES, 3 MiB, decoded and 40 megapixels; stored re-encoded, "
        "without metadata, at most 1600 px on the longer side; a second post replaces "
        "the photos). This path takes bodies up to 12 MiB. An unknown or inactive "
        "product is 404 SERVICE_STORE_PRODUCT_NOT_FOUND; a photo that is not an image, "
        "too large, or a fourth photo is 422 naming `images`. " + _REVIEW_WRITE_RULES
    ),
    tags=["reviews"],
    parameters=[idempotency_key_parameter(), *rate_limit_headers()],
    request=ProductReviewWriteSerializer,
    responses={
        201: success_envelope("ProductReviewEnvelope", ProductReviewSerializer),
        200: success_envelope("ProductReviewUpdatedEnvelope", ProductReviewSerializer),
        **error_responses(
            401, 404, 409, 413, 415, 422, 429, not_found_code=ErrorCode.PRODUCT_NOT_FOUND
        ),
    },
    examples=[
        OpenApiExample(
            "Review with a photo",
            request_only=True,
            value={
                "productId": 12,
                "score": 5,
                "comment": "Ótimo produto, chegou antes do prazo.",
                "recommended": True,
                "masked": False,
                # a 1x1 PNG; photos up to REVIEW_IMAGE_MAX_BYTES
                "images": [
                    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1Pe"
                    "AAAADElEQVR4nGM4IScHAAK2AQU0pnWqAAAAAElFTkSuQmCC"
                ],
            },
        )
    ],
)


sales_channel_review_write_schema = extend_schema(
    operation_id="sales_channel_review_write",
    summary="Review the store (current sales channel; signed-in customer)",
    description=(
        "Writes the signed-in customer's review of the sales channel serving the "
        "request's host (else the default channel; 404 NOT_FOUND when the store has "
        "none). " + _REVIEW_WRITE_RULES
    ),
    tags=["reviews"],
    parameters=[idempotency_key_parameter(), *rate_limit_headers()],
    request=ReviewWriteSerializer,
    responses={
        201: success_envelope("SalesChannelReviewEnvelope", SalesChannelReviewSerializer),
        200: success_envelope("SalesChannelReviewUpdatedEnvelope", SalesChannelReviewSerializer),
        **error_responses(401, 404, 409, 415, 422, 429),
    },
    examples=[
        OpenApiExample(
            "Store review",
            request_only=True,
            value={"score": 4, "comment": "Entrega rápida.", "recommended": True},
        )
    ],
)


product_review_vote_schema = extend_schema(
    operation_id="product_review_vote",
    summary="Vote a product review helpful or not",
    description=(
        "One vote per voter and approved review: a signed-in customer (Authorization: "
        "Bearer <token>) by account, an anonymous voter by a keyed hash of the client "
        "address and `voterToken` (body) or the X-Voter-Token header (required when not "
        "signed in; nothing of either is stored). A second vote by the same voter moves "
        "the vote or, the same, changes nothing; the answer is the counts after it. An "
        "unknown, pending or hidden review is 404 SERVICE_STORE_REVIEW_NOT_FOUND. "
        "Throttled per client IP; `Idempotency-Key` makes a retry return the first answer."
    ),
    tags=["reviews"],
    parameters=[
        OpenApiParameter(
            "reviewId", OpenApiTypes.INT, OpenApiParameter.PATH, description="Review id."
        ),
        OpenApiParameter(
            "X-Voter-Token",
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            required=False,
            description="The anonymous voter's token (or `voterToken` in the body).",
        ),
        idempotency_key_parameter(),
        *rate_limit_headers(),
    ],
    request=ReviewVoteSerializer,
    responses={
        200: success_envelope("ProductReviewVoteEnvelope", ReviewVoteResultSerializer),
        **error_responses(404, 409, 413, 415, 422, 429, not_found_code=ErrorCode.REVIEW_NOT_FOUND),
    },
    examples=[
        OpenApiExample(
            "Anonymous helpful vote",
            request_only=True,
            value={"helpful": True, "voterToken": "3f6c1f0e-8a0b-4c55-9d0e-2b7f1c9a4e21"},
        )
    ],
)
