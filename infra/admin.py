"""Admin pieces for any app (infra knows no app, so even jobs may import them)."""


class ReadOnlyAdminMixin:
    """Before admin.ModelAdmin: a log staff read (and may delete from), never add or edit."""

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
