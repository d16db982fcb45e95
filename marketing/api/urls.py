"""Public API routes of the marketing app (prefixes are added in config/urls.py)."""

from storefront.api.routing import api_path

from .views import BannerListView, UpsellView

urlpatterns = [
    *api_path("publics/template/banners", BannerListView.as_view(), "banner-groups"),
    *api_path("cart/upsell/<str:locationId>", UpsellView.as_view(), "cart-upsell"),
]
