"""URL configuration: every API route at the contract's path and under /api/v3/, each with
and without a trailing slash (apikit.routing); anything else answers the error envelope."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from django.utils.translation import gettext_lazy as _
from django.views.static import serve
from drf_spectacular.views import SpectacularSwaggerView

from apikit import fallback
from apikit.health import health
from apikit.routing import RememberingResolver
from apikit.schema import SchemaView
from catalog import pages as catalog_pages
from catalog.api.urls import product_page_urlpatterns
from storefront import pages

API_APPS = ("storefront", "catalog", "marketing", "shipping", "feedback", "webhooks")
api_patterns = [path("", include(f"{app}.api.urls")) for app in API_APPS]
# `publics/products/<productId>` last: every app's fixed `publics/products/...` path first.
api_patterns.append(path("", include(product_page_urlpatterns)))

admin.site.site_header = _("Store back office")
admin.site.site_title = _("Store back office")
admin.site.index_title = _("Store administration")
admin.site.site_url = "/"

urlpatterns = [
    path("", fallback.read_only(pages.home), name="home"),
    path("favicon.ico", fallback.read_only(pages.favicon), name="favicon"),
    # Demo only (PASSWORD_RESET_DEMO_PAGE; a JSON 404 otherwise): a storefront hosts this page.
    re_path(
        r"^account/password-reset/?$",
        fallback.read_only(pages.password_reset_page),
        name="demo-password-reset",
    ),
    # Demo only (STOREFRONT_DEMO_PAGE; a JSON 404 otherwise): the starter storefront.
    re_path(
        r"^demo/storefront/?$",
        fallback.read_only(pages.starter_storefront),
        name="demo-storefront",
    ),
    # Links of the back-in-stock e-mails (catalog/pages.py): signed, no sign-in.
    path(
        "notices/back-in-stock/unsubscribe/<str:token>",
        catalog_pages.unsubscribe,
        name="back-in-stock-unsubscribe",
    ),
    path("notices/back-in-stock/visit/<str:link>", catalog_pages.visit, name="back-in-stock-visit"),
    # The admin's language switcher (Django's set_language), before the admin's catch-all.
    path("admin/i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    re_path(r"^health/?$", health, name="health"),
    path("api/schema/", fallback.read_only(SchemaView.as_view()), name="schema"),
    path(
        "api/docs/",
        fallback.read_only(SpectacularSwaggerView.as_view(url_name="schema")),
        name="swagger-ui",
    ),
    path("api/v3/", include(api_patterns)),
    path("", include(api_patterns)),
]


@fallback.read_only
def serve_media(request, path):
    """Uploaded media from MEDIA_ROOT, read per request (so settings overrides apply)."""
    return serve(request, path, document_root=settings.MEDIA_ROOT)


if settings.SERVE_MEDIA and settings.MEDIA_URL.startswith("/"):
    media_prefix = settings.MEDIA_URL.lstrip("/")
    urlpatterns.append(re_path(rf"^{media_prefix}(?P<path>.*)$", serve_media))

if settings.WEBHOOKS_DEMO_RECEIVER:
    from webhooks.demo_views import DEMO_PATH, demo_webhook_receiver

    urlpatterns.append(path(DEMO_PATH, demo_webhook_receiver, name="demo-webhook-receiver"))

urlpatterns.append(re_path(r"^", fallback.unknown_url))
# One resolver over all of it that remembers recent paths (apikit.routing).
urlpatterns = [RememberingResolver(urlpatterns)]

handler400 = fallback.bad_request
handler403 = fallback.permission_denied
handler404 = fallback.page_not_found
handler500 = fallback.server_error
