"""The `data` of a webhook event: the resource rendered as the API answers it (absolute URLs
against PUBLIC_BASE_URL, as in e-mails), so a receiver parses one shape per resource."""

from collections.abc import Callable
from typing import Any

import orjson
from django.conf import settings

from apikit.renderers import json_bytes
from catalog.api.fragments import attach_product_summaries, product_summaries
from catalog.api.interest_serializers import InterestSerializer
from catalog.models import Product, ProductInterest
from feedback.api.serializers import CommentSerializer, ProductReviewSerializer, without_opt_in
from feedback.models import Comment, ProductReview
from feedback.selectors import comments_with_reply_count, product_review_get


def _base_url() -> str:
    return settings.PUBLIC_BASE_URL.rstrip("/")


def _comment(comment: Comment) -> dict[str, Any]:
    row = comments_with_reply_count(Comment.objects.filter(pk=comment.pk)).first() or comment
    if not hasattr(row, "total_replies"):
        row.total_replies = 0  # type: ignore[union-attr]
    attach_product_summaries([row], base_url=_base_url())
    return dict(CommentSerializer(row).data)


def _review(review: ProductReview) -> dict[str, Any]:
    try:
        row = product_review_get(review_id=review.pk)
    except ProductReview.DoesNotExist:
        return {"id": review.pk}
    attach_product_summaries([row], base_url=_base_url(), key="productId")
    return without_opt_in(
        dict(ProductReviewSerializer(row, context={"base_url": _base_url()}).data)
    )


def _interest(interest: ProductInterest) -> dict[str, Any]:
    return dict(InterestSerializer(interest, context={"base_url": _base_url()}).data)


def _product(product: Product) -> Any:
    fragment = product_summaries([product.pk], base_url=_base_url()).get(product.pk)
    return fragment if fragment is not None else {"id": product.pk}


RENDERERS: dict[str, Callable[[Any], Any]] = {
    "product.back_in_stock": _product,
    "interest.created": _interest,
    "comment.created": _comment,
    "comment.replied": _comment,
    "review.created": _review,
    "review.approved": _review,
}


def event_data(event_type: str, instance: Any) -> dict[str, Any]:
    """JSON-ready public shape of `instance` for `event_type`."""
    data = RENDERERS[event_type](instance)
    return orjson.loads(json_bytes(data))  # splices the product fragments
