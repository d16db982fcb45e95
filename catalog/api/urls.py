"""Public API routes of the catalog app (prefixes are added in config/urls.py)."""

from apikit.caching import cached_answers
from apikit.routing import api_path

from ..selectors import CATEGORY_CACHE
from .views import CategorySubtreeView, CategoryTreeView, ProductInterestView

urlpatterns: list = [
    *api_path(
        "publics/products/categories/tree",
        cached_answers(CategoryTreeView.as_view(), namespaces=(CATEGORY_CACHE,)),
        "category-tree",
    ),
    *api_path(
        "publics/products/categories/<str:categoryId>/tree",
        cached_answers(CategorySubtreeView.as_view(), namespaces=(CATEGORY_CACHE,)),
        "category-subtree",
    ),
    *api_path("publics/products/interests", ProductInterestView.as_view(), "product-interests"),
]
