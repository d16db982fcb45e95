"""Public API routes of the store app (prefixes are added in config/urls.py)."""

from .customer_views import CustomerLoginView, CustomerMeView, CustomerRegisterView
from .payment_views import CardFlagsView, PaymentConditionsView
from .routing import api_path

urlpatterns: list = [
    *api_path("publics/payments/card-flags", CardFlagsView.as_view(), "payments-card-flags"),
    *api_path(
        "publics/payments/conditions", PaymentConditionsView.as_view(), "payments-conditions"
    ),
    *api_path("publics/customers", CustomerRegisterView.as_view(), "customer-register"),
    *api_path("publics/customers/login", CustomerLoginView.as_view(), "customer-login"),
    *api_path("publics/customers/me", CustomerMeView.as_view(), "customer-me"),
]
