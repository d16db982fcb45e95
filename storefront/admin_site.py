"""The project's admin site (storefront.apps.StoreAdminConfig): every ModelAdmin shows its
change-list dates short (infra.admin.ShortDatesMixin)."""

from django.contrib import admin

from infra.admin import ShortDatesMixin


class StoreAdminSite(admin.AdminSite):
    index_template = "admin/store_index.html"

    def index(self, request, extra_context=None):
        """The index also lists the work waiting for staff: each ModelAdmin's
        `index_links(request)`, (label, url) pairs, asked here only (not by every page's
        sidebar)."""
        waiting = [
            link
            for model_admin in self._registry.values()
            if hasattr(model_admin, "index_links")
            for link in model_admin.index_links(request)
        ]
        return super().index(request, {"waiting": waiting, **(extra_context or {})})

    def register(self, model_or_iterable, admin_class=None, **options):
        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, ShortDatesMixin):
            admin_class = type(
                admin_class.__name__,
                (ShortDatesMixin, admin_class),
                {"__module__": admin_class.__module__, "__doc__": admin_class.__doc__},
            )
        super().register(model_or_iterable, admin_class, **options)
