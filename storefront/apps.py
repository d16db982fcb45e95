from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class StorefrontConfig(AppConfig):
    name = "storefront"
    verbose_name = _("Store")

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects cache invalidation)


class StoreAdminConfig(admin_apps.AdminConfig):
    """Django's admin app with the project's site as its default site (`admin.site`)."""

    default = False  # named in INSTALLED_APPS; StorefrontConfig stays this module's default
    default_site = "storefront.admin_site.StoreAdminSite"
