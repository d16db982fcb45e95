"""The admin's answer to a locked-out sign-in (AXES_LOCKOUT_CALLABLE): its login page with
the lockout message, 429 and Retry-After."""

from math import ceil

from axes.helpers import get_client_username, get_cool_off
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.forms.utils import ErrorDict
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

LOCKOUT_MESSAGE = ngettext_lazy(
    "Too many failed sign-in attempts from this address or for this account. Try again in "
    "%(minutes)d minute, or ask another administrator to lift the lock (Axes > Access "
    "attempts).",
    "Too many failed sign-in attempts from this address or for this account. Try again in "
    "%(minutes)d minutes, or ask another administrator to lift the lock (Axes > Access "
    "attempts).",
    "minutes",
)


class LockedOutForm(AdminAuthenticationForm):
    """The login form with the lockout message (never validated: that counts a failure)."""

    def __init__(self, request, *, message: str, username: str) -> None:
        super().__init__(request, initial={"username": username})
        self._errors = ErrorDict({"__all__": self.error_class([message], error_class="nonfield")})


def admin_lockout_response(request, original_response=None, credentials=None):
    cool_off = get_cool_off(request)
    seconds = max(1, ceil(cool_off.total_seconds())) if cool_off else 3600
    minutes = max(1, ceil(seconds / 60))
    message = LOCKOUT_MESSAGE % {"minutes": minutes}
    username = get_client_username(request, credentials) or ""
    context = {
        **admin.site.each_context(request),
        "title": _("Log in"),
        "subtitle": None,
        "app_path": request.get_full_path(),
        "username": "",
        "form": LockedOutForm(request, message=message, username=username),
    }
    # Rendered here: axes calls this from its middleware, after Django renders responses.
    response = render(request, "admin/login.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
