"""Public API routes of the marketing app (prefixes are added in config/urls.py)."""

from apikit.caching import cached_answers
from apikit.routing import api_path
from catalog.selectors import PRODUCTS_CACHE
from storefront.selectors import SALES_CHANNEL_CACHE

from ..selectors import BANNERS_CACHE, UPSELLS_CACHE
from .views import BannerListView, UpsellView

urlpatterns = [
    *api_path(
        "publics/template/banners",
        cached_answers(BannerListView.as_view(), namespaces=(BANNERS_CACHE, SALES_CHANNEL_CACHE)),
        "banner-groups",
    ),
    *api_path(
        "cart/upsell/<str:locationId>",
        cached_answers(
            UpsellView.as_view(),
            # the product shows linked banner groups (marketing/api/sections.py)
            namespaces=(UPSELLS_CACHE, PRODUCTS_CACHE, BANNERS_CACHE, SALES_CHANNEL_CACHE),
        ),
        "cart-upsell",
    ),
]
