"""Admin of the back-in-stock waves: staff's settings (one row) and the demand report."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from infra.admin import OwnPagesMixin

from ..models import BackInStockSettings
from ..restocks import demand_report, restock_totals


@admin.register(BackInStockSettings)
class BackInStockSettingsAdmin(OwnPagesMixin, admin.ModelAdmin):
    list_display = ("__str__", "wave_factor", "wave_wait_hours", "demand_report_link")
    fields = ("wave_factor", "wave_wait_hours", "demand_report_link", "updated_at")
    readonly_fields = ("demand_report_link", "updated_at")
    own_pages = (("demand/", "demand_view", "demand"),)

    def has_add_permission(self, request):
        # Asked by every admin page (the sidebar's app list): only this model's own pages
        # read whether the one row exists yet, so the other pages spend no query on it.
        match = getattr(request, "resolver_match", None)
        if match is None or not (match.url_name or "").startswith("catalog_backinstocksettings_"):
            return False
        return not BackInStockSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("Demand report"))
    def demand_report_link(self, obj=None):
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:catalog_backinstocksettings_demand"),
            _("Products shoppers are waiting for"),
        )

    def demand_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        return self.own_page(
            request,
            "demand.html",
            _("Products shoppers are waiting for"),
            rows=demand_report(),
            totals=restock_totals(),
        )
