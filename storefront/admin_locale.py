"""The admin's language: the switcher's cookie, else ADMIN_LANGUAGE_CODE, else (empty) the
browser's; every other path speaks LANGUAGE_CODE (the public API's texts are the contract's).
"""

from functools import lru_cache

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_noop, ngettext_lazy

# Django's admin messages that name a model, translated in the project's catalogue without a
# gendered article or participle: Portuguese agrees them with the model's gender ("O tabela de
# frete … foi adicionado" was wrong for every feminine model), and one phrasing built on a
# feminine noun ("Inclusão de … concluída") is right for all. Listed so `make messages` keeps them.
DJANGO_ADMIN_MESSAGES = [
    gettext_noop("The {name} “{obj}” was added successfully."),
    gettext_noop("You may edit it again below."),
    gettext_noop("The {name} “{obj}” was added successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may add another {name} below."),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
    gettext_noop(
        "%(name)s with ID “%(key)s” doesn’t exist. Perhaps it was deleted?"  # noqa: RUF001
    ),
    gettext_noop("Successfully deleted %(count)d %(items)s."),
    gettext_noop("Add another %(verbose_name)s"),
    ngettext_lazy(
        "%(count)s %(name)s was changed successfully.",
        "%(count)s %(name)s were changed successfully.",
        "count",
    ),
]


@lru_cache(maxsize=8)
def _admin_prefix(urlconf: str) -> str | None:
    try:
        prefix = reverse("admin:index", urlconf=urlconf)
    except NoReverseMatch:  # a URL configuration without the admin
        return None
    return "/" + prefix.removeprefix(get_script_prefix())


def is_admin_path(path: str) -> bool:
    # Asked twice per request: reversing each time cost about a tenth of a cached answer.
    prefix = _admin_prefix(get_urlconf() or settings.ROOT_URLCONF)
    return prefix is not None and path.startswith(prefix)


def admin_language(request) -> str:
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen:
        try:
            return translation.get_supported_language_variant(chosen)
        except LookupError:
            pass
    if settings.ADMIN_LANGUAGE_CODE:
        return translation.get_supported_language_variant(settings.ADMIN_LANGUAGE_CODE)
    return translation.get_language_from_request(request)


class AdminLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request):
        if is_admin_path(request.path_info):
            language = admin_language(request)
        else:
            language = settings.LANGUAGE_CODE
        # Activated on every request: a thread serving an admin page next serves the API.
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request, response):
        if not is_admin_path(request.path_info):
            return response  # the public API's headers stay as the contract writes them
        response.headers.setdefault("Content-Language", translation.get_language())
        if not settings.ADMIN_LANGUAGE_CODE:
            patch_vary_headers(response, ("Accept-Language",))
        return response
