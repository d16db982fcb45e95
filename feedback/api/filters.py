"""What each public list accepts in `condition` (never names or e-mails: a filter would
reveal what the masking hides)."""

from django.db.models import Q

from apikit.filters import FilterSet, NumberFilter

from ..models import Comment, ProductReview, SalesChannelReview


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


class CommentFilter(FilterSet):
    parentCommentId = NumberFilter(field_name="parent_id")
    totalReplies = NumberFilter()  # an annotation (feedback.selectors)

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
        )
