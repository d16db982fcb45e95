"""Public API routes of the catalog app (prefixes are added in config/urls.py)."""

from apikit.caching import cached_answers
from apikit.routing import api_path

from ..selectors import CATEGORY_CACHE, PRODUCTS_CACHE
from ..selectors.listing import LISTING_NAMESPACES
from .ahead import answer_ahead
from .products import ProductListView, ProductPageView, ProductSuggestView, searches_counted
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
    *api_path(
        "publics/products",
        searches_counted(cached_answers(ProductListView.as_view(), namespaces=LISTING_NAMESPACES)),
        "product-list",
    ),
    # a fixed path: before `publics/products/<productId>` (product_page_urlpatterns)
    *api_path(
        "publics/products/suggest",
        cached_answers(ProductSuggestView.as_view(), namespaces=LISTING_NAMESPACES),
        "product-suggest",
    ),
]

# `publics/products/<any text>`: after every app's fixed `publics/products/...` paths
# (config/urls.py includes these last), so `comments` or `quote` never reach it.
product_page_urlpatterns: list = [
    *api_path(
        "publics/products/<str:productId>",
        # the product's own versions and its sections' are noted as it is rendered
        cached_answers(ProductPageView.as_view(), namespaces=(PRODUCTS_CACHE,), ahead=answer_ahead),
        "product-page",
    ),
]
