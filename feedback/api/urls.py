"""Public API routes of the feedback app (prefixes are added in config/urls.py)."""

from storefront.api.routing import api_path

from .views import (
    CommentCreateView,
    CommentListView,
    ProductReviewListView,
    SalesChannelReviewListView,
)

urlpatterns: list = [
    *api_path("review/product", ProductReviewListView.as_view(), "product-review-list"),
    *api_path(
        "review/sales-channel", SalesChannelReviewListView.as_view(), "sales-channel-review-list"
    ),
    *api_path("publics/products/comments", CommentListView.as_view(), "product-comment-list"),
    *api_path(
        "publics/products/<str:productId>/comments",
        CommentCreateView.as_view(),
        "product-comment-create",
    ),
]
