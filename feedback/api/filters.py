"""What each public list accepts in `condition` (never names or e-mails: a filter would
reveal what the masking hides)."""

from django.db.models import Q

from apikit.filters import BooleanFilter, DateTimeFilter, FilterSet, NumberFilter

from ..models import Comment, ProductReview, SalesChannelReview


class MaskedCustomerFilter(NumberFilter):
    """No `customerId` condition matches a masked review (it must not lead to its author)."""

    def q(self, operator: str, value: object) -> Q:
        return super().q(operator, value) & Q(masked=False)


class SalesChannelReviewFilter(FilterSet):
    customerId = MaskedCustomerFilter(field_name="customer_id")
    createdAt = DateTimeFilter(field_name="created_at")
    updatedAt = DateTimeFilter(field_name="updated_at")

    class Meta:
        model = SalesChannelReview
        fields = ("id", "customerId", "score", "recommended", "createdAt", "updatedAt")


class ProductReviewFilter(SalesChannelReviewFilter):
    productId = NumberFilter(field_name="product_id")

    class Meta:
        model = ProductReview
        fields = ("id", "productId", "customerId", "score", "recommended", "createdAt", "updatedAt")


class CommentFilter(FilterSet):
    productId = NumberFilter(field_name="product_id")
    parentCommentId = NumberFilter(field_name="parent_id")
    customerId = NumberFilter(field_name="customer_id")
    userId = NumberFilter(field_name="user_id")
    replyByUser = BooleanFilter(field_name="reply_by_user")
    totalReplies = NumberFilter(field_name="total_replies")
    createdAt = DateTimeFilter(field_name="created_at")
    updatedAt = DateTimeFilter(field_name="updated_at")

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
