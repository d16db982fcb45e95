from django.contrib import admin
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult

from infra.admin import ReadOnlyAdminMixin

from .models import OutboundEmail
from .services import hidden_marker

# The background tasks as staff read them in "Task queue" (task name -> a Portuguese phrase).
TASK_NAMES = {
    "send_email": _("Send an e-mail"),
    "postal_import": _("Import postal codes"),
    "refresh_banner_images": _("Prepare a banner's images"),
    "refresh_group_images": _("Prepare a banner group's images"),
    "deliver_webhook": _("Deliver a webhook"),
}
# The hidden values' markers in the e-mails' bodies, as staff read them (the e-mail keeps the
# marker; the recipient's copy has the value itself).
HIDDEN_NAMES = {"reset link": _("reset link"), "link": _("link")}


@admin.register(OutboundEmail)
class OutboundEmailAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["subject", "to", "status", "attempts", "created_at", "sent_at"]
    list_filter = ["status"]
    search_fields = ["to", "subject", "key"]
    # `hidden` (one-time links and the like) is never shown: the bodies hold its markers.
    exclude = ["hidden", "body_text", "body_html"]  # shown by text_shown and html_shown
    readonly_fields = [
        {"body_text": "text_shown", "body_html": "html_shown"}.get(f.name, f.name)
        for f in OutboundEmail._meta.fields
        if f.name != "hidden"
    ]

    @admin.display(description=_("text body"))
    def text_shown(self, obj: OutboundEmail) -> str:
        return hidden_markers_translated(obj.body_text)

    @admin.display(description=_("HTML body"))
    def html_shown(self, obj: OutboundEmail) -> str:
        return hidden_markers_translated(obj.body_html)


def hidden_markers_translated(body: str) -> str:
    """`body` with its hidden values' markers in the staff member's language."""
    for name, shown in HIDDEN_NAMES.items():
        body = body.replace(
            hidden_marker(name),
            gettext("[%(name)s: hidden, sent only to the recipient]") % {"name": shown},
        )
    return body


class TaskResultAdmin(DBTaskResultAdmin):
    """django-tasks-db's admin with its column labels translatable."""

    list_display = tuple(
        "task" if name == "task_name" else name for name in DBTaskResultAdmin.list_display
    )

    @admin.display(description=_("task"))
    def task(self, obj: DBTaskResult) -> str:
        """The task's Portuguese name (its Python name for one not listed in TASK_NAMES)."""
        name = obj.task_path.rsplit(".", 1)[-1]
        return str(TASK_NAMES.get(name, name))

    @admin.display(description=_("traceback"))
    def formatted_traceback(self, obj: DBTaskResult) -> str:
        return super().formatted_traceback(obj)

    @admin.display(description=_("run after"))
    def display_run_after(self, obj: DBTaskResult):
        return super().display_run_after(obj)


admin.site.unregister(DBTaskResult)
admin.site.register(DBTaskResult, TaskResultAdmin)
