from django.contrib import admin

from .models import OutboundEmail


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    list_display = ["subject", "to", "status", "attempts", "created_at", "sent_at"]
    list_filter = ["status"]
    search_fields = ["to", "subject", "key"]
    readonly_fields = [f.name for f in OutboundEmail._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
