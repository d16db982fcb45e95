"""Reads of the feedback app: the public review and comment lists.

Each list has a `ListSpec` whitelist (storefront/api/query.py): only these API names may
appear in `condition` and `order`. Names and e-mails are never filterable (a filter
would reveal what the masking hides).
"""

from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from storefront.api.query import ListField, ListSpec
from storefront.models import SalesChannel

from .models import Comment, ProductReview, SalesChannelReview

# Every public review and comment list (bumped by signals.py and the moderation services).
FEEDBACK_CACHE = "feedback"

_ID = ListField("id", "int", order=True)
_SCORE = ListField("score", "int", order=True)
_RECOMMENDED = ListField("recommended", "bool", order=True)
_CUSTOMER_ID = ListField("customer_id", "int")
# A masked review shows, and filters as, customer 0: it must not lead to its author's other
# reviews (annotated by `with_public_customer_id`).
_REVIEW_CUSTOMER_ID = ListField("public_customer_id", "int")
_CREATED_AT = ListField("created_at", "datetime", order=True)
_UPDATED_AT = ListField("updated_at", "datetime", order=True)

PRODUCT_REVIEW_LIST = ListSpec(
    fields={
        "id": _ID,
        "productId": ListField("product_id", "int", order=True),
        "customerId": _REVIEW_CUSTOMER_ID,
        "score": _SCORE,
        "recommended": _RECOMMENDED,
        "createdAt": _CREATED_AT,
        "updatedAt": _UPDATED_AT,
    },
    output_fields=frozenset(
        {
            "id",
            "productId",
            "customerId",
            "name",
            "email",
            "score",
            "comment",
            "recommended",
            "active",
            "masked",
            "medias",
            "product",
            "createdAt",
            "updatedAt",
        }
    ),
    default_order=("-createdAt",),
)

SALES_CHANNEL_REVIEW_LIST = ListSpec(
    fields={
        "id": _ID,
        "customerId": _REVIEW_CUSTOMER_ID,
        "score": _SCORE,
        "recommended": _RECOMMENDED,
        "createdAt": _CREATED_AT,
        "updatedAt": _UPDATED_AT,
    },
    output_fields=frozenset(
        {
            "id",
            "salesChannelId",
            "customerId",
            "name",
            "email",
            "score",
            "comment",
            "recommended",
            "masked",
            "active",
            "salesChannelDomain",
            "createdAt",
            "updatedAt",
        }
    ),
    default_order=("-createdAt",),
)

COMMENT_LIST = ListSpec(
    fields={
        "id": _ID,
        "productId": ListField("product_id", "int", order=True),
        "parentCommentId": ListField("parent_id", "int"),
        "customerId": _CUSTOMER_ID,
        "userId": ListField("user_id", "int"),
        "replyByUser": ListField("reply_by_user", "bool", order=True),
        "totalReplies": ListField("total_replies", "int", order=True),
        "createdAt": _CREATED_AT,
        "updatedAt": _UPDATED_AT,
    },
    output_fields=frozenset(
        {
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
        }
    ),
    default_order=("-createdAt",),
)


def with_public_customer_id(reviews: QuerySet) -> QuerySet:
    """Annotate `public_customer_id`: the author's id, or 0 on a masked review."""
    return reviews.annotate(
        public_customer_id=Case(
            When(masked=True, then=Value(0)),
            default=F("customer_id"),
            output_field=IntegerField(),
        )
    )


def product_reviews_public() -> QuerySet:
    """Approved product reviews with their photos (the product summaries come from the
    product read model, catalog.api.fragments)."""
    # feeds `medias`
    return with_public_customer_id(ProductReview.objects.public().prefetch_related("medias"))


def sales_channel_reviews_public(*, channel: SalesChannel | None) -> QuerySet:
    """Approved reviews of `channel` (none when there is no channel)."""
    if channel is None:
        return SalesChannelReview.objects.none()
    return with_public_customer_id(
        SalesChannelReview.objects.public()
        .filter(sales_channel=channel)
        .select_related("sales_channel")
    )


def comments_with_reply_count(queryset: QuerySet) -> QuerySet:
    """Annotate `total_replies`: the public replies of each comment, in the same query."""
    replies = (
        Comment.objects.filter(parent=OuterRef("pk"), active=True)
        .order_by()
        .values("parent")
        .annotate(total=Count("pk"))
        .values("total")
    )
    return queryset.annotate(
        total_replies=Coalesce(Subquery(replies, output_field=IntegerField()), Value(0))
    )


def comments_public() -> QuerySet:
    """Approved comments and replies (a reply only while its parent is approved too)."""
    return comments_with_reply_count(Comment.objects.public())
