"""The project's admin site: Django's default site, replaced (storefront.apps.StoreAdminConfig).

It differs from Django's in one thing: every ModelAdmin registered, the project's and
third-party ones (django-axes, task results, users), shows its change-list dates short
(`26/11/2026 10:37`, the full date on hover; infra.admin.ShortDatesMixin).
"""

from django.contrib import admin

from infra.admin import ShortDatesMixin


class StoreAdminSite(admin.AdminSite):
    def register(self, model_or_iterable, admin_class=None, **options):
        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, ShortDatesMixin):
            admin_class = type(
                admin_class.__name__,
                (ShortDatesMixin, admin_class),
                {"__module__": admin_class.__module__, "__doc__": admin_class.__doc__},
            )
        super().register(model_or_iterable, admin_class, **options)
