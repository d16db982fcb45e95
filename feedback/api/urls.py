"""Public API routes of the feedback app (prefixes are added in config/urls.py)."""

from apikit.caching import cached_answers
from apikit.routing import api_path
from catalog.selectors import PRODUCTS_CACHE
from storefront.selectors import SALES_CHANNEL_CACHE

from ..selectors import FEEDBACK_CACHE
from .views import (
    CommentCreateView,
    CommentListView,
    ProductReviewView,
    ProductReviewVoteView,
    SalesChannelReviewView,
    SimilarQuestionsView,
)

# The review paths answer GET (the public list) and POST (a review write).
urlpatterns: list = [
    *api_path(
        "review/product",
        cached_answers(ProductReviewView.as_view(), namespaces=(FEEDBACK_CACHE, PRODUCTS_CACHE)),
        "product-review-list",
    ),
    *api_path(
        "review/product/<str:reviewId>/votes",
        ProductReviewVoteView.as_view(),
        "product-review-vote",
    ),
    *api_path(
        "review/sales-channel",
        cached_answers(
            SalesChannelReviewView.as_view(),
            namespaces=(FEEDBACK_CACHE, SALES_CHANNEL_CACHE),
        ),
        "sales-channel-review-list",
    ),
    *api_path(
        "publics/products/comments",
        cached_answers(CommentListView.as_view(), namespaces=(FEEDBACK_CACHE, PRODUCTS_CACHE)),
        "product-comment-list",
    ),
    *api_path(
        "publics/products/<str:productId>/comments",
        CommentCreateView.as_view(),
        "product-comment-create",
    ),
    *api_path(
        "publics/products/<str:productId>/comments/similar",
        cached_answers(SimilarQuestionsView.as_view(), namespaces=(FEEDBACK_CACHE, PRODUCTS_CACHE)),
        "product-comment-similar",
    ),
]
