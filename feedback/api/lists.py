"""What each public list accepts in `condition`, `order` and `fields`: the API names, their
ORM paths and types, as one django-filter FilterSet per list (apikit.query). Names and
e-mails are never filterable (a filter would reveal what the masking hides); `fields` takes
any key the serializer renders. Every list is newest first by default.
"""

from apikit.query import ListField, list_filterset

from .serializers import CommentSerializer, ProductReviewSerializer, SalesChannelReviewSerializer

_ID = {"id": ListField("id", "int", order=True)}
_PRODUCT_ID = {"productId": ListField("product_id", "int", order=True)}
_REVIEW = {
    # A masked review shows, and filters as, customer 0: it must not lead to its author's
    # other reviews (annotated by `with_public_customer_id`).
    "customerId": ListField("public_customer_id", "int"),
    "score": ListField("score", "int", order=True),
    "recommended": ListField("recommended", "bool", order=True),
}
_TIMESTAMPS = {
    "createdAt": ListField("created_at", "datetime", order=True),
    "updatedAt": ListField("updated_at", "datetime", order=True),
}

PRODUCT_REVIEW_LIST = list_filterset(
    fields={**_ID, **_PRODUCT_ID, **_REVIEW, **_TIMESTAMPS},
    output_fields=frozenset(ProductReviewSerializer().fields),
)

SALES_CHANNEL_REVIEW_LIST = list_filterset(
    fields={**_ID, **_REVIEW, **_TIMESTAMPS},
    output_fields=frozenset(SalesChannelReviewSerializer().fields),
)

COMMENT_LIST = list_filterset(
    fields={
        **_ID,
        **_PRODUCT_ID,
        "parentCommentId": ListField("parent_id", "int"),
        "customerId": ListField("customer_id", "int"),
        "userId": ListField("user_id", "int"),
        "replyByUser": ListField("reply_by_user", "bool", order=True),
        "totalReplies": ListField("total_replies", "int", order=True),
        **_TIMESTAMPS,
    },
    output_fields=frozenset(CommentSerializer().fields),
)
