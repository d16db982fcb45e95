"""Reads of the feedback app: the public review and comment lists."""

from django.db.models import Case, Count, F, IntegerField, OuterRef, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce

from storefront.models import SalesChannel

from .models import Comment, ProductReview, SalesChannelReview

# Every public review and comment list (bumped by signals.py and the moderation services).
FEEDBACK_CACHE = "feedback"


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
    return with_public_customer_id(ProductReview.objects.public().prefetch_related("medias"))


def sales_channel_reviews_public(*, channel: SalesChannel | None) -> QuerySet:
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
    return comments_with_reply_count(Comment.objects.public())


def product_review_get(*, review_id: int) -> ProductReview:
    """One product review as the list renders it (any state: its author sees it pending)."""
    return with_public_customer_id(ProductReview.objects.prefetch_related("medias")).get(
        pk=review_id
    )


def sales_channel_review_get(*, review_id: int) -> SalesChannelReview:
    """One store review as the list renders it (any state)."""
    return with_public_customer_id(SalesChannelReview.objects.select_related("sales_channel")).get(
        pk=review_id
    )
