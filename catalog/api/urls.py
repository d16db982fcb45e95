"""Public API routes of the catalog app (prefixes are added in config/urls.py)."""

from storefront.api.routing import api_path

from .views import CategorySubtreeView, CategoryTreeView, ProductInterestView

urlpatterns: list = [
    *api_path("publics/products/categories/tree", CategoryTreeView.as_view(), "category-tree"),
    *api_path(
        "publics/products/categories/<str:categoryId>/tree",
        CategorySubtreeView.as_view(),
        "category-subtree",
    ),
    *api_path("publics/products/interests", ProductInterestView.as_view(), "product-interests"),
]
