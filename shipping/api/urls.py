"""Public API routes of the shipping app (prefixes are added in config/urls.py)."""

from storefront.api.routing import api_path

from .views import ShippingQuoteView, ZipcodeConsultView

urlpatterns = [
    *api_path(
        "shipping/zipcode/consult/<str:countryCode>/<str:zipCode>",
        ZipcodeConsultView.as_view(),
        "zipcode-consult",
    ),
    *api_path("publics/products/quote", ShippingQuoteView.as_view(), "products-quote"),
]
