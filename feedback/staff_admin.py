"""The staff member's public display name, edited on the User admin page (an inline)."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from .models import StaffProfile


class StaffProfileInline(admin.StackedInline):
    model = StaffProfile
    can_delete = False
    extra = 1
    max_num = 1
    fields = ("display_name",)


def register_user_admin_with_profile(site: admin.AdminSite = admin.site) -> None:
    user_model = get_user_model()
    current = site._registry.get(user_model)
    base = type(current) if current is not None else UserAdmin
    if current is not None:
        site.unregister(user_model)
    attrs = {"inlines": [*getattr(base, "inlines", []), StaffProfileInline]}
    site.register(user_model, type("UserWithStaffProfileAdmin", (base,), attrs))
