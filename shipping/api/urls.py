"""Public API routes of the shipping app (prefixes are added in config/urls.py)."""

from catalog.selectors import PRODUCTS_CACHE
from storefront.api.caching import cached_answers
from storefront.api.routing import api_path

from ..selectors import POSTAL_CODES_CACHE, SHIPPING_CACHE
from .views import ShippingQuoteView, ZipcodeConsultView

urlpatterns = [
    *api_path(
        "shipping/zipcode/consult/<str:countryCode>/<str:zipCode>",
        cached_answers(ZipcodeConsultView.as_view(), namespaces=(POSTAL_CODES_CACHE,)),
        "zipcode-consult",
    ),
    *api_path(
        "publics/products/quote",
        cached_answers(
            ShippingQuoteView.as_view(),
            namespaces=(SHIPPING_CACHE, POSTAL_CODES_CACHE, PRODUCTS_CACHE),
            settings_names=("SHIPPING_CUBIC_DIVISOR",),
        ),
        "products-quote",
    ),
]
