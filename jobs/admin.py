from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult

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


class TaskResultAdmin(DBTaskResultAdmin):
    """django-tasks-db's admin with its column labels translatable."""

    list_display = tuple(
        "task" if name == "task_name" else name for name in DBTaskResultAdmin.list_display
    )

    @admin.display(description=_("task"))
    def task(self, obj: DBTaskResult) -> str:
        return obj.task_name

    @admin.display(description=_("traceback"))
    def formatted_traceback(self, obj: DBTaskResult) -> str:
        return super().formatted_traceback(obj)

    @admin.display(description=_("run after"))
    def display_run_after(self, obj: DBTaskResult):
        return super().display_run_after(obj)


admin.site.unregister(DBTaskResult)
admin.site.register(DBTaskResult, TaskResultAdmin)
