"""Admin of storages and stock."""

from django.contrib import admin
from django.db.models import Sum
from django.utils.translation import gettext_lazy as _

from infra.admin import HISTORY_FIELDSET, SafeAutocompleteMixin, truncated_column

from ..models import Stock, Storage


@admin.register(Storage)
class StorageAdmin(admin.ModelAdmin):
    list_display = (
        "active",
        "short_trade_name",
        "code",
        "city",
        "state_code",
        "zip_code",
        "priority",
    )
    list_display_links = ("short_trade_name",)  # a storage opens by its name
    list_filter = ("active", "state_code", "country_code")
    search_fields = ("trade_name", "corporate_name", "code", "city", "zip_code", "document")
    filter_horizontal = ("trade_policy_exceptions",)
    readonly_fields = ("created_at", "updated_at")
    short_trade_name = staticmethod(truncated_column("trade_name", description=_("trade name")))
    fieldsets = (
        (None, {"fields": ("code", "trade_name", "corporate_name", "document", "active")}),
        (_("Contact"), {"fields": ("email", "phone")}),
        (
            _("Address"),
            {
                "fields": (
                    "zip_code",
                    "address",
                    "number",
                    "complement",
                    "district",
                    "city",
                    "state_code",
                    "country_code",
                    ("latitude", "longitude"),
                )
            },
        ),
        (_("Dispatch"), {"fields": ("cutoff_time", "additional_time", "dispatches_on_saturdays")}),
        (_("Shipping"), {"fields": ("priority", "trade_policy_exceptions", "observation")}),
        HISTORY_FIELDSET,
    )


@admin.register(Stock)
class StockAdmin(SafeAutocompleteMixin, admin.ModelAdmin):
    list_display = ("product", "storage", "available", "reserved", "updated_at")
    list_filter = ("storage",)
    list_select_related = ("product", "storage")
    search_fields = ("product__sku", "product__name")
    autocomplete_fields = ("product", "storage")
    readonly_fields = ("created_at", "updated_at")

    def changelist_view(self, request, extra_context=None):
        response = super().changelist_view(request, extra_context)
        changelist = getattr(response, "context_data", {}).get("cl")
        if changelist is not None:
            totals = changelist.queryset.aggregate(available=Sum("available"))
            response.context_data["title"] = _(
                "Stock (%(units)s units available in the filtered rows)"
            ) % {"units": totals["available"] or 0}
        return response
