"""Admin of the back-in-stock waves: staff's settings (one row) and the demand report."""

from django.contrib import admin
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from infra.admin import OwnPagesMixin

from ..models import BackInStockSettings
from ..models.restocks import SETTINGS_ROW
from ..restocks import demand_report, restock_totals


@admin.register(BackInStockSettings)
class BackInStockSettingsAdmin(OwnPagesMixin, admin.ModelAdmin):
    fields = ("wave_factor", "wave_wait_hours", "demand_report_link", "updated_at")
    readonly_fields = ("demand_report_link", "updated_at")
    own_pages = (("demand/", "demand_view", "demand"),)

    def has_add_permission(self, request):
        return not BackInStockSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        """The one row's form (the add form until it is saved once)."""
        if BackInStockSettings.objects.filter(pk=SETTINGS_ROW).exists():
            return redirect("admin:catalog_backinstocksettings_change", SETTINGS_ROW)
        return redirect("admin:catalog_backinstocksettings_add")

    def response_post_save_add(self, request, obj):
        return redirect("admin:catalog_backinstocksettings_change", obj.pk)

    def response_post_save_change(self, request, obj):
        return redirect("admin:catalog_backinstocksettings_change", obj.pk)

    @admin.display(description=_("Demand report"))
    def demand_report_link(self, obj=None):
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:catalog_backinstocksettings_demand"),
            _("Products shoppers are waiting for"),
        )

    def demand_view(self, request):
        if not self.has_view_permission(request):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        return self.own_page(
            request,
            "demand.html",
            _("Products shoppers are waiting for"),
            rows=demand_report(),
            totals=restock_totals(),
        )
