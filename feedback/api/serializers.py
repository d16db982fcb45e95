"""Serializers of the review and comment endpoints (contract 2.12, 2.13, 2.14): e-mails
always masked, and a `masked` review's name too."""

import base64
import binascii
import re
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apikit.fields import (
    JsonIntegerField,
    PlainTextField,
    StrictBooleanField,
    StrictCharField,
    StrictEmailField,
)
from catalog.api.serializers import ProductSummaryField, ReviewProductSummaryField, file_url
from infra.ids import MAX_ID

from ..masking import mask_email, mask_name
from ..models import (
    COMMENT_MESSAGE_MAX_LENGTH,
    CUSTOMER_NAME_MAX_LENGTH,
    CUSTOMER_NAME_MIN_LENGTH,
    REVIEW_COMMENT_MAX_LENGTH,
    SCORE_MAX,
    SCORE_MIN,
    Comment,
    ProductReview,
    Review,
    ReviewMedia,
    SalesChannelReview,
)
from ..review_writes import REVIEW_MAX_IMAGES

REVIEW_FIELDS = ["customerId", "name", "email", "score", "comment", "recommended"]


class ReviewMediaSerializer(serializers.ModelSerializer):
    reviewId = serializers.IntegerField(source="review_id", read_only=True)
    mediaId = serializers.IntegerField(source="id", read_only=True)
    image = serializers.SerializerMethodField(help_text="Absolute URL of the photo.")
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)

    class Meta:
        model = ReviewMedia
        fields = ["reviewId", "mediaId", "image", "createdAt"]

    @extend_schema_field(OpenApiTypes.URI)
    def get_image(self, media: ReviewMedia) -> str:
        return file_url(media.image, self.context.get("base_url")) or ""


class ReviewSerializer(serializers.ModelSerializer):
    """`name` (masked when the review is) and `email` (always masked)."""

    # Shared by product and store reviews (this docstring is their OpenAPI description).

    customerId = serializers.IntegerField(
        source="public_customer_id", read_only=True, help_text="0 on a masked review."
    )
    name = serializers.SerializerMethodField(help_text="Masked (J*** S***) when `masked`.")
    email = serializers.SerializerMethodField(help_text="Always masked: j***@example.com.")
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)

    def get_name(self, review: Review) -> str:
        return mask_name(review.name) if review.masked else review.name

    def get_email(self, review: Review) -> str:
        return mask_email(review.email)


# Rendered only when `fields` names them (the contract's review keeps its keys and bytes).
REVIEW_OPT_IN_FIELDS = frozenset({"verifiedPurchase", "helpfulCount", "unhelpfulCount"})
_OPT_IN = "(Opt-in: only when `fields` names it.) "


class ProductReviewSerializer(ReviewSerializer):
    productId = serializers.IntegerField(source="product_id", read_only=True)
    # Output only; not read_only so that the schema lists them as optional keys.
    verifiedPurchase = serializers.BooleanField(
        source="verified_purchase",
        required=False,
        help_text=_OPT_IN + "The author bought the product (the store's orders).",
    )
    helpfulCount = serializers.IntegerField(
        source="helpful_count", required=False, help_text=_OPT_IN + "Votes finding it helpful."
    )
    unhelpfulCount = serializers.IntegerField(
        source="unhelpful_count",
        required=False,
        help_text=_OPT_IN + "Votes finding it not helpful.",
    )
    medias = ReviewMediaSerializer(many=True, read_only=True, source="media_list")  # attached
    # set on the row by the view (catalog.api.fragments)
    product = ReviewProductSummaryField(source="product_summary")

    class Meta:
        model = ProductReview
        fields = [
            "id",
            "productId",
            *REVIEW_FIELDS,
            "active",
            "masked",
            "medias",
            "product",
            "createdAt",
            "updatedAt",
            "verifiedPurchase",
            "helpfulCount",
            "unhelpfulCount",
        ]
        read_only_fields = fields


def without_opt_in(row: dict[str, Any], opt_in: Iterable[str] = ()) -> dict[str, Any]:
    """A rendered product review without the opt-in keys `opt_in` does not name (what every
    answer and payload of a review goes through: clients that do not ask see the contract)."""
    for name in REVIEW_OPT_IN_FIELDS.difference(opt_in):
        row.pop(name, None)
    return row


class ReviewVoteSerializer(serializers.Serializer):
    """Body of POST /review/product/{reviewId}/votes."""

    helpful = StrictBooleanField(help_text="true: the review helped; false: it did not.")
    voterToken = StrictCharField(
        source="voter_token",
        required=False,
        allow_blank=False,
        max_length=200,
        help_text=(
            "Anonymous voters only (or the X-Voter-Token header): a random token the client "
            "keeps; with the client address it names the voter (hashed, never stored)."
        ),
    )


class ReviewVoteResultSerializer(serializers.Serializer):
    reviewId = serializers.IntegerField(help_text="The review voted on.")
    helpful = serializers.BooleanField(help_text="The voter's vote now.")
    helpfulCount = serializers.IntegerField()
    unhelpfulCount = serializers.IntegerField()


class SalesChannelReviewSerializer(ReviewSerializer):
    salesChannelId = serializers.IntegerField(source="sales_channel_id", read_only=True)
    salesChannelDomain = serializers.CharField(source="sales_channel.domain", read_only=True)

    class Meta:
        model = SalesChannelReview
        fields = [
            "id",
            "salesChannelId",
            *REVIEW_FIELDS,
            "masked",
            "active",
            "salesChannelDomain",
            "createdAt",
            "updatedAt",
        ]
        read_only_fields = fields


class CommentSerializer(serializers.ModelSerializer):
    productId = serializers.IntegerField(source="product_id", read_only=True)
    parentCommentId = serializers.IntegerField(
        source="parent_id", read_only=True, allow_null=True, help_text="Set on replies."
    )
    customerId = serializers.IntegerField(source="customer_id", read_only=True, allow_null=True)
    customerName = serializers.CharField(source="customer_name", read_only=True)
    customerEmail = serializers.SerializerMethodField(help_text="Masked: j***@example.com.")
    userId = serializers.IntegerField(source="user_id", read_only=True, allow_null=True)
    userName = serializers.CharField(source="user_name", read_only=True)
    userEmail = serializers.SerializerMethodField(help_text="Masked: j***@example.com.")
    replyByUser = serializers.BooleanField(source="reply_by_user", read_only=True)
    totalReplies = serializers.IntegerField(
        source="total_replies", read_only=True, help_text="Approved replies to it."
    )
    product = ProductSummaryField(source="product_summary", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)

    class Meta:
        model = Comment
        fields = [
            "id",
            "productId",
            "parentCommentId",
            "customerId",
            "customerName",
            "customerEmail",
            "userId",
            "userName",
            "userEmail",
            "message",
            "replyByUser",
            "active",
            "totalReplies",
            "product",
            "createdAt",
            "updatedAt",
        ]
        read_only_fields = fields

    def get_customerEmail(self, comment: Comment) -> str:
        return mask_email(comment.customer_email)

    def get_userEmail(self, comment: Comment) -> str:
        return mask_email(comment.user_email)


class SimilarQuestionsSerializer(serializers.Serializer):
    """Answer of GET /publics/products/{productId}/comments/similar (bare)."""

    registers = CommentSerializer(
        many=True,
        help_text="At most 3 answered questions, the most alike first, each followed by its "
        "latest public staff answer (a Comment with `parentCommentId` set and `replyByUser` "
        "true): at most 6 registers.",
    )


class CommentCreateSerializer(serializers.Serializer):
    """Body of POST /publics/products/{productId}/comments.

    `customerName` and `customerEmail` are required from anonymous callers only (pass
    `signed_in` in the context); a signed-in customer's come from the account.
    """

    # The sources name `comment_create`'s keyword arguments: the view passes the data on.

    message = StrictCharField(max_length=COMMENT_MESSAGE_MAX_LENGTH)
    parentCommentId = serializers.IntegerField(
        source="parent_comment_id", required=False, allow_null=True, min_value=1, max_value=MAX_ID
    )
    customerName = StrictCharField(
        source="customer_name",
        required=False,
        allow_blank=True,
        min_length=CUSTOMER_NAME_MIN_LENGTH,
        max_length=CUSTOMER_NAME_MAX_LENGTH,
        help_text="Required when not signed in; 3 to 100 characters.",
    )
    customerEmail = StrictEmailField(
        source="customer_email",
        required=False,
        allow_blank=True,
        max_length=254,
        help_text="Required when not signed in; a valid e-mail address.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.context.get("signed_in"):
            return attrs
        errors = {}
        for field in ("customerName", "customerEmail"):
            if not attrs.get(self.fields[field].source or field):  # (a bound field has one)
                errors[field] = [f"The {field} field is required when not signed in."]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


DATA_URL = re.compile(r"data:image/[a-z0-9.+-]+;base64,", re.IGNORECASE)


class ReviewImagesField(serializers.ListField):
    """Up to three photos, each base64 (standard alphabet, padded) or a data URL, decoded
    to bytes (the service checks the images)."""

    child = StrictCharField(trim_whitespace=False, allow_blank=False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=REVIEW_MAX_IMAGES, **kwargs)

    def to_internal_value(self, data: Any) -> list[bytes]:
        texts = super().to_internal_value(data)
        # base64 grows the bytes by 4/3: refuse long strings before decoding them
        limit = (settings.REVIEW_IMAGE_MAX_BYTES + 2) // 3 * 4 + 100
        decoded = []
        for number, text in enumerate(texts, start=1):
            if len(text) > limit:
                raise serializers.ValidationError(
                    f"Image {number} is larger than {settings.REVIEW_IMAGE_MAX_BYTES} bytes."
                )
            match = DATA_URL.match(text)
            payload = text[match.end() :] if match else text
            try:
                decoded.append(base64.b64decode(payload, validate=True))
            except (binascii.Error, ValueError):
                raise serializers.ValidationError(f"Image {number} is not valid base64.") from None
        return decoded


class ReviewWriteSerializer(serializers.Serializer):
    """Fields shared by both review bodies."""

    score = JsonIntegerField(
        min_value=SCORE_MIN, max_value=SCORE_MAX, help_text="1 (worst) to 5 (best)."
    )
    comment = PlainTextField(
        max_length=REVIEW_COMMENT_MAX_LENGTH, required=False, allow_blank=True, default=""
    )
    recommended = StrictBooleanField(required=False, default=True)
    masked = StrictBooleanField(
        required=False,
        default=False,
        help_text="Hide the author's name in public too (J*** S***); the e-mail always is.",
    )


class ProductReviewWriteSerializer(ReviewWriteSerializer):
    """Body of POST /review/product."""

    productId = JsonIntegerField(source="product_id", min_value=1, max_value=MAX_ID)
    images = ReviewImagesField(
        required=False,
        default=list,
        help_text=(
            "Up to 3 photos, each a base64 string or data URL (JPEG, PNG, GIF or WebP; at "
            "most 3 MiB decoded and 40 megapixels). Stored scaled down to 1600 px. A second "
            "post replaces the photos of the earlier review."
        ),
    )
