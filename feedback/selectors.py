"""Reads of the feedback app: the public review and comment lists."""

import functools
from collections import defaultdict
from collections.abc import Sequence

from django.db.models import Case, Count, F, IntegerField, OuterRef, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce

from infra.queries import Statements, instances
from storefront.models import SalesChannel

from .models import Comment, ProductReview, ReviewMedia, SalesChannelReview

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


@functools.cache
def _product_reviews_public() -> QuerySet:
    return with_public_customer_id(ProductReview.objects.public())


def product_reviews_public() -> QuerySet:
    """The approved product reviews (built once: its annotation costs 0.4 ms a request);
    `attach_review_medias` gives a page its photos."""
    return _product_reviews_public().all()


_MEDIA_STATEMENTS = Statements(size=128)


def _medias_of(*review_ids: int) -> QuerySet[ReviewMedia]:
    return ReviewMedia.objects.filter(review_id__in=review_ids).order_by("id")


def attach_review_medias(reviews: Sequence[ProductReview]) -> None:
    """Set `media_list` (its photos in id order) on each review, in one query."""
    ids = [review.pk for review in reviews]
    found = instances(ReviewMedia, _medias_of, ids, _MEDIA_STATEMENTS) if ids else ()
    by_review: defaultdict[int, list[ReviewMedia]] = defaultdict(list)
    for media in found:
        by_review[media.review_id].append(media)
    for review in reviews:
        review.media_list = by_review.get(review.pk, [])  # type: ignore[attr-defined]


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


@functools.cache
def _comments_public() -> QuerySet:
    return comments_with_reply_count(Comment.objects.public())


def comments_public() -> QuerySet:
    """The public comments with their reply counts (built once: the subquery costs 1 ms)."""
    return _comments_public().all()


def product_review_get(*, review_id: int) -> ProductReview:
    """One product review as the list renders it (any state: its author sees it pending)."""
    review = with_public_customer_id(ProductReview.objects.all()).get(pk=review_id)
    attach_review_medias([review])
    return review


def sales_channel_review_get(*, review_id: int) -> SalesChannelReview:
    """One store review as the list renders it (any state)."""
    return with_public_customer_id(SalesChannelReview.objects.select_related("sales_channel")).get(
        pk=review_id
    )
