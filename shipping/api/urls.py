"""Public API routes of the shipping app (prefixes are added in config/urls.py)."""

from apikit.caching import cached_answers
from apikit.routing import api_path
from catalog.selectors import PRODUCTS_CACHE

from ..fetch import SHIPPING_CACHE
from ..selectors import POSTAL_CODES_CACHE
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
