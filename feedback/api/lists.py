"""What each public list accepts in `condition`, `order` and `fields`: the API names, their
ORM paths and types, as one django-filter FilterSet per list (apikit.query). Names and
e-mails are never filterable (a filter would reveal what the masking hides); `fields` takes
any key the serializer renders.
"""

from apikit.query import ListField, list_filterset

from .serializers import CommentSerializer, ProductReviewSerializer, SalesChannelReviewSerializer

_ID = ListField("id", "int", order=True)
_SCORE = ListField("score", "int", order=True)
_RECOMMENDED = ListField("recommended", "bool", order=True)
_CUSTOMER_ID = ListField("customer_id", "int")
# A masked review shows, and filters as, customer 0: it must not lead to its author's other
# reviews (annotated by `with_public_customer_id`).
_REVIEW_CUSTOMER_ID = ListField("public_customer_id", "int")
_CREATED_AT = ListField("created_at", "datetime", order=True)
_UPDATED_AT = ListField("updated_at", "datetime", order=True)

PRODUCT_REVIEW_LIST = list_filterset(
    fields={
        "id": _ID,
        "productId": ListField("product_id", "int", order=True),
        "customerId": _REVIEW_CUSTOMER_ID,
        "score": _SCORE,
        "recommended": _RECOMMENDED,
        "createdAt": _CREATED_AT,
        "updatedAt": _UPDATED_AT,
    },
    output_fields=frozenset(ProductReviewSerializer().fields),
    default_order=("-createdAt",),
)

SALES_CHANNEL_REVIEW_LIST = list_filterset(
    fields={
        "id": _ID,
        "customerId": _REVIEW_CUSTOMER_ID,
        "score": _SCORE,
        "recommended": _RECOMMENDED,
        "createdAt": _CREATED_AT,
        "updatedAt": _UPDATED_AT,
    },
    output_fields=frozenset(SalesChannelReviewSerializer().fields),
    default_order=("-createdAt",),
)

COMMENT_LIST = list_filterset(
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
    output_fields=frozenset(CommentSerializer().fields),
    default_order=("-createdAt",),
)
