"""Labels of Django's and django-axes' admin pages that their code leaves in English: default
permission names (stored in English) and axes' status column."""

from axes.admin import AccessAttemptAdmin as AxesAccessAttemptAdmin
from axes.models import AccessAttempt
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, Permission
from django.utils.translation import gettext_lazy as _

DEFAULT_PERMISSIONS = {
    "add": _("Can add %(model)s"),
    "change": _("Can change %(model)s"),
    "delete": _("Can delete %(model)s"),
    "view": _("Can view %(model)s"),
}


def permission_label(permission: Permission) -> str:
    action, _sep, model_name = permission.codename.partition("_")
    model = permission.content_type.model_class()
    name = permission.name
    if action in DEFAULT_PERMISSIONS and model is not None and model_name == model._meta.model_name:
        name = DEFAULT_PERMISSIONS[action] % {"model": model._meta.verbose_name}
    return f"{permission.content_type} | {name}"


class TranslatedPermissionsMixin:
    def formfield_for_manytomany(self, db_field, request=None, **kwargs):
        field = super().formfield_for_manytomany(db_field, request=request, **kwargs)
        if field is not None and db_field.remote_field.model is Permission:
            field.label_from_instance = permission_label
        return field


class TranslatedGroupAdmin(TranslatedPermissionsMixin, GroupAdmin):
    pass


class TranslatedUserAdmin(TranslatedPermissionsMixin, UserAdmin):
    pass


class AccessAttemptAdmin(AxesAccessAttemptAdmin):
    @admin.display(description=_("status"))
    def status(self, obj: AccessAttempt):
        return super().status(obj)


def register_third_party_admins(site: admin.AdminSite = admin.site) -> None:
    for model, admin_class in (
        (Group, TranslatedGroupAdmin),
        (get_user_model(), TranslatedUserAdmin),
        (AccessAttempt, AccessAttemptAdmin),
    ):
        if site.is_registered(model):
            site.unregister(model)
        site.register(model, admin_class)
