"""The plain pages a browser asks for first: the home page `/` and `/favicon.ico`; and, in
the demo only, the storefront's password-reset page the reset e-mail links to."""

from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from apikit.fallback import page_not_found

from .selectors import current_sales_channel

FAVICON = Path(__file__).resolve().parent / "static" / "storefront" / "favicon.ico"
FAVICON_MAX_AGE = 24 * 3600
# The API endpoint the demo reset page posts to (the contract's path).
RESET_CONFIRM_PATH = "/publics/customers/password-reset/confirm"
# Longer query values are no link of ours: the page treats them as missing.
MAX_LINK_VALUE = 200


@cache
def _favicon_bytes() -> bytes:
    return FAVICON.read_bytes()


def home(request: HttpRequest) -> HttpResponse:
    """A page for people, so in their language, unlike the API's answers."""
    channel = current_sales_channel(request)
    language = translation.get_language_from_request(request)
    with translation.override(language):
        context = {
            "store_name": channel.name if channel is not None else _("Storefront"),
            "channel": channel,
            "host": request.get_host(),
            "public_base_url": settings.PUBLIC_BASE_URL.rstrip("/"),
            "starter_storefront": settings.STOREFRONT_DEMO_PAGE,
        }
        response = render(request, "storefront/home.html", context)
        response["Content-Language"] = translation.get_language()
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def favicon(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_favicon_bytes(), content_type="image/x-icon")
    response["Cache-Control"] = f"public, max-age={FAVICON_MAX_AGE}"
    return response


def _validator_messages() -> list[str]:
    """The messages the API's password check can answer with, in the active language (the
    same order in every language: the page pairs the English ones with the shopper's)."""
    from django.contrib.auth import get_user_model, password_validation
    from django.core.exceptions import FieldDoesNotExist

    messages = []
    user_model = get_user_model()
    for validator in password_validation.get_default_password_validators():
        if isinstance(validator, password_validation.UserAttributeSimilarityValidator):
            for attribute in validator.user_attributes:
                try:
                    name = getattr(user_model._meta.get_field(attribute), "verbose_name", attribute)
                except FieldDoesNotExist:  # an attribute that is no field
                    name = attribute
                messages.append(
                    _("The password is too similar to the %(verbose_name)s.")
                    % {"verbose_name": name}
                )
        elif isinstance(validator, password_validation.MinimumLengthValidator):
            messages.append(validator.get_error_message())
        elif isinstance(validator, password_validation.CommonPasswordValidator):
            messages.append(_("This password is too common."))
        elif isinstance(validator, password_validation.NumericPasswordValidator):
            messages.append(_("This password is entirely numeric."))
    # PasswordResetLinkInvalid's message, of either field (a test checks they stay equal)
    for field in ("token", "uid"):
        message = _(
            "The %(field)s of this password reset link is invalid, was already used or has "
            "expired. Ask for a new link."
        ) % {"field": field}
        messages.append(message)
    messages.append(_("This field is required."))
    return messages


def password_reset_page(request: HttpRequest) -> HttpResponse:
    """A stand-in for the storefront page at PASSWORD_RESET_URL (PASSWORD_RESET_DEMO_PAGE):
    a form whose script posts to the API's confirmation."""
    if not settings.PASSWORD_RESET_DEMO_PAGE:
        return page_not_found(request)
    link = {
        name: value
        for name in ("uid", "token")
        if 0 < len(value := request.GET.get(name, "")) <= MAX_LINK_VALUE
    }
    context = {
        "uid": link.get("uid", ""),
        "token": link.get("token", ""),
        "complete": len(link) == 2,
        "confirm_path": RESET_CONFIRM_PATH,
    }
    # The API answers in its own (the contract's) language; the page shows each known message
    # in the shopper's, and any other as "The password could not be changed."
    with translation.override(settings.LANGUAGE_CODE):
        english = _validator_messages()
    with translation.override(settings.CUSTOMER_LANGUAGE_CODE):
        context["error_texts"] = dict(zip(english, _validator_messages(), strict=True))
        response = render(request, "storefront/password_reset.html", context)
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"  # the address holds the one-time token
    return response


def starter_storefront(request: HttpRequest) -> HttpResponse:
    """The starter storefront (clients/storefront) at /demo/storefront/, on the demo only
    (STOREFRONT_DEMO_PAGE): one page whose script and style are the committed build in
    storefront/static/storefront/starter/; it calls this service's API at its own origin."""
    if not settings.STOREFRONT_DEMO_PAGE:
        return page_not_found(request)
    response = render(request, "storefront/starter.html")
    response["Cache-Control"] = "no-cache"
    return response
