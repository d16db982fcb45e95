"""What each public list accepts in `condition` (never names or e-mails: a filter would
reveal what the masking hides)."""

import operator as operators
from collections.abc import Iterable
from typing import Any

from django.db.models import Q

from apikit.filters import BooleanFilter, FilterSet, NumberFilter

from ..models import Comment, ProductReview, SalesChannelReview, staff_answered


class MaskedCustomerFilter(NumberFilter):
    """No `customerId` condition matches a masked review (it must not lead to its author)."""

    def q(self, operator: str, value: object) -> Q:
        return super().q(operator, value) & Q(masked=False)


class SalesChannelReviewFilter(FilterSet):
    customerId = MaskedCustomerFilter()

    class Meta:
        model = SalesChannelReview
        fields = ("id", "customerId", "score", "recommended", "createdAt", "updatedAt")


class ProductReviewFilter(SalesChannelReviewFilter):
    class Meta:
        model = ProductReview
        fields = (
            "id",
            "productId",
            "customerId",
            "score",
            "recommended",
            "createdAt",
            "updatedAt",
            "verifiedPurchase",
        )


COMPARISONS = {
    "eq": operators.eq,
    "ne": operators.ne,
    "gt": operators.gt,
    "gte": operators.ge,
    "lt": operators.lt,
    "lte": operators.le,
    "in": lambda value, values: value in values,
    "nin": lambda value, values: value not in values,
}


class AnsweredFilter(BooleanFilter):
    """`answered`, a property of questions: whether a staff reply to it is public. A reply
    has no such value: only `isNull: true` finds replies, every other condition finds
    questions (then `ne: true` is `eq: false`)."""

    description = (
        "Questions (top-level comments) with a public staff reply (true) or without one "
        "(false); replies match no answered condition but isNull: true."
    )

    def q(self, operator: str, value: Any) -> Q:
        if operator == "isNull":
            return Q(parent__isnull=not value)  # null: a reply (no question)
        holds = COMPARISONS[operator]
        values = {answered for answered in (False, True) if holds(answered, value)}
        if values == {True}:
            return Q(parent__isnull=True) & Q(staff_answered())
        if values == {False}:
            return Q(parent__isnull=True) & ~Q(staff_answered())
        return Q(parent__isnull=True) if values else Q(pk__in=[])


class CommentFilter(FilterSet):
    parentCommentId = NumberFilter(field_name="parent_id")
    totalReplies = NumberFilter()  # an annotation (feedback.selectors)
    answered = AnsweredFilter()

    class Meta:
        model = Comment
        fields = (
            "id",
            "productId",
            "parentCommentId",
            "customerId",
            "userId",
            "replyByUser",
            "totalReplies",
            "createdAt",
            "updatedAt",
            "answered",
        )


def replies_only(terms: Iterable[tuple[str, Any, str, Any]]) -> bool:
    """Whether the list's conditions (`ConditionFilter`'s terms) leave only replies: a
    `parentCommentId` compared to ids, or not null; `answered` null."""
    for name, _filter, operator, operand in terms:
        if name == "parentCommentId" and operator not in ("ne", "nin", "isNull"):
            return True
        if (name, operator, operand) in (
            ("parentCommentId", "isNull", False),
            ("answered", "isNull", True),
        ):
            return True
    return False
