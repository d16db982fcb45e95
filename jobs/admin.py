from django.contrib import admin

from infra.admin import ReadOnlyAdminMixin

from .models import OutboundEmail


@admin.register(OutboundEmail)
class OutboundEmailAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["subject", "to", "status", "attempts", "created_at", "sent_at"]
    list_filter = ["status"]
    search_fields = ["to", "subject", "key"]
    # `hidden` (one-time links and the like) is never shown: the bodies hold its markers.
    exclude = ["hidden"]
    readonly_fields = [f.name for f in OutboundEmail._meta.fields if f.name != "hidden"]
