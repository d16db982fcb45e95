"""Admin of carrier integrations (live tables) with a "test connection" action, and their
call log (read only)."""

from django.contrib import admin, messages
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.admin import ReadOnlyAdminMixin, SafeAutocompleteMixin, truncated, truncated_column

from ..carriers import breaker_of, connection_test
from ..models import CallStatus, CarrierCall, CarrierIntegration


@admin.register(CarrierIntegration)
class CarrierIntegrationAdmin(SafeAutocompleteMixin, admin.ModelAdmin):
    list_display = (
        "table",
        truncated_column("base_url", description=_("base URL")),
        "services",
        "markup_percent",
        "extra_days",
        "breaker",
    )
    list_select_related = ("table", "table__carrier")
    autocomplete_fields = ("table",)
    actions = ("test_connection",)
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    fieldsets = (
        (None, {"fields": ("table", "base_url", "token_variable")}),
        (_("Offer"), {"fields": ("services", ("markup_percent", "markup_fixed"), "extra_days")}),
        (_("Limits"), {"fields": ("calls_per_minute",)}),
    )

    @admin.display(description=_("circuit breaker"))
    def breaker(self, obj: CarrierIntegration) -> str:
        """This process's breaker: closed (calls go through) or open (skipped for now)."""
        return {"closed": gettext("closed"), "open": gettext("open")}.get(
            breaker_of(obj.pk).state, gettext("half-open")
        )

    @admin.action(description=_("Test the connection (one quote from São Paulo to Rio)"))
    def test_connection(self, request, queryset):
        for integration in queryset.select_related("table__carrier"):
            call = connection_test(integration)
            if call.status == CallStatus.OK:
                message = gettext("%(name)s: %(count)d services in %(ms)d ms.")
                level = messages.SUCCESS
            else:
                message = gettext("%(name)s: failed after %(ms)d ms: %(error)s")
                level = messages.ERROR
            values = {
                "name": integration,
                "count": call.options,
                "ms": call.latency_ms,
                "error": call.error,
            }
            self.message_user(request, message % values, level)


@admin.register(CarrierCall)
class CarrierCallAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Calls to carriers' APIs (quotes and connection tests): read only."""

    list_display = ("status", "created_at", "integration", "latency_ms", "options", "short_error")
    list_display_links = ("created_at",)
    list_filter = ("status", "integration")
    list_select_related = ("integration__table__carrier",)
    date_hierarchy = "created_at"
    readonly_fields = [field.name for field in CarrierCall._meta.fields]
    show_full_result_count = False

    @admin.display(description=_("error"))
    def short_error(self, obj: CarrierCall) -> str:
        return truncated(obj.error)
