"""Public API routes of the store app (prefixes are added in config/urls.py)."""

from apikit.caching import cached_answers
from apikit.routing import api_path

from ..selectors import PAYMENT_OPTIONS_CACHE
from .customer_views import CustomerLoginView, CustomerMeView, CustomerRegisterView
from .password_reset_views import PasswordResetConfirmView, PasswordResetRequestView
from .payment_views import CardFlagsView, PaymentConditionsView

urlpatterns: list = [
    *api_path(
        "publics/payments/card-flags",
        cached_answers(CardFlagsView.as_view(), namespaces=()),
        "payments-card-flags",
    ),
    *api_path(
        "publics/payments/conditions",
        cached_answers(
            PaymentConditionsView.as_view(),
            namespaces=(PAYMENT_OPTIONS_CACHE,),
            read_only_post=True,
        ),
        "payments-conditions",
    ),
    *api_path("publics/customers", CustomerRegisterView.as_view(), "customer-register"),
    *api_path("publics/customers/login", CustomerLoginView.as_view(), "customer-login"),
    *api_path("publics/customers/me", CustomerMeView.as_view(), "customer-me"),
    *api_path(
        "publics/customers/password-reset",
        PasswordResetRequestView.as_view(),
        "customer-password-reset",
    ),
    *api_path(
        "publics/customers/password-reset/confirm",
        PasswordResetConfirmView.as_view(),
        "customer-password-reset-confirm",
    ),
]
