"""Admin of carrier integrations (live tables): the API token typed here (stored encrypted,
shown masked) or an environment variable's name, "Test the connection" on the integration's
page and as a list action, and their call log (read only); every verdict and error in the
staff member's language (the log keeps the carrier client's technical text)."""

import re

from django import forms
from django.contrib import admin, messages
from django.db import models
from django.http import HttpResponseRedirect
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.admin import ReadOnlyAdminMixin, SafeAutocompleteMixin, truncated, truncated_column

from ..carriers import breaker_of, connection_test
from ..models import CallStatus, CarrierCall, CarrierIntegration

# The carrier client's error texts (shipping/carriers.py, stored in CarrierCall.error) as staff
# read them: (pattern, message); the pattern's named groups fill the message.
ERROR_TEXTS = [
    (r"HTTP 401", _("the carrier refused the token (HTTP 401): check it")),
    (r"HTTP 403", _("the carrier refused the token (HTTP 403): check its permissions")),
    (r"HTTP 404", _("the API was not found at this address (HTTP 404): check the base URL")),
    (r"HTTP 429", _("too many calls (HTTP 429): the carrier's limit was reached")),
    (r"HTTP (?P<code>5\d\d)", _("the carrier's server failed (HTTP %(code)s)")),
    (r"HTTP (?P<code>\d+)", _("the carrier answered with an error (HTTP %(code)s)")),
    (r"the environment variable\s+is empty", _("no token: type the API token")),
    (
        r"the environment variable (?P<name>\S+) is empty",
        _("no token: the environment variable %(name)s is empty or unset"),
    ),
    (r"the base URL must be an http\(s\) URL", _("the base URL must start with https://")),
    (r"the answer is too long", _("the answer is too long")),
    (r"the answer is not JSON", _("the answer is not JSON (check the base URL)")),
    (r"the answer is not a list of services", _("the answer is not a list of services")),
    (r"a service has no id", _("a service in the answer has no id")),
    (r"no answer by the deadline", _("no answer in time")),
    (r".*(?:timed out|TimeoutError|timeout).*", _("no answer in time")),
    (
        r".*(?:Name or service not known|nodename nor servname|getaddrinfo|Temporary failure "
        r"in name resolution).*",
        _("the address's server was not found: check the base URL"),
    ),
    (r".*Connection refused.*", _("the connection was refused: check the base URL")),
    (r".*(?:CERTIFICATE|SSL).*", _("the secure connection (TLS) failed")),
    (r".*(?:Connection reset|RemoteDisconnected|closed connection).*", _("the connection dropped")),
    (r"(?:URLError|OSError|ValueError|\w+Error):.*", _("the carrier could not be reached")),
]
_ERROR_PATTERNS = [(re.compile(pattern, re.S), text) for pattern, text in ERROR_TEXTS]


def error_text(error: str) -> str:
    """The carrier client's error in the staff member's language (unknown ones as they are)."""
    for pattern, text in _ERROR_PATTERNS:
        if match := pattern.fullmatch(error.strip()):
            return str(text) % match.groupdict() if match.groupdict() else str(text)
    return error


def verdict(call: CarrierCall) -> str:
    """One word per outcome: answered, failed, timed out (a connection test's socket timeout
    is logged as an error, yet reads like a quote's deadline)."""
    if call.status == CallStatus.ERROR and error_text(call.error) == gettext("no answer in time"):
        return str(CallStatus.TIMEOUT.label)
    return str(CallStatus(call.status).label)


class CarrierIntegrationForm(forms.ModelForm):
    token = forms.CharField(
        label=_("API token"),
        required=False,
        strip=True,
        max_length=4000,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
        help_text=_(
            "Stored encrypted and never shown again. Empty: the stored token is kept (or the "
            "environment variable below is used)."
        ),
    )
    token_forget = forms.BooleanField(
        label=_("Forget the stored token (use the environment variable)"), required=False
    )

    class Meta:
        model = CarrierIntegration
        fields = (
            "table",
            "base_url",
            "token_variable",
            "services",
            "markup_percent",
            "markup_fixed",
            "extra_days",
            "calls_per_minute",
        )
        # (the admin's formfield_overrides come later: this class's own fields are made first)
        formfield_callback = staticmethod(
            lambda field, **kwargs: field.formfield(
                **({"assume_scheme": "https"} if isinstance(field, models.URLField) else {}),
                **kwargs,
            )
        )

    def clean(self):
        data = super().clean()
        if data.get("token"):
            self.instance.token_set(data["token"])
        elif data.get("token_forget"):
            self.instance.token_set("")
        return data


@admin.register(CarrierIntegration)
class CarrierIntegrationAdmin(SafeAutocompleteMixin, admin.ModelAdmin):
    form = CarrierIntegrationForm
    list_display = (
        "table",
        truncated_column("base_url", description=_("base URL")),
        "token_source",
        "services",
        "markup_percent",
        "extra_days",
        "calls_state",
    )
    list_select_related = ("table", "table__carrier")
    autocomplete_fields = ("table",)
    actions = ("test_connection",)
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    readonly_fields = ("token_stored", "calls_state")
    fieldsets = (
        (None, {"fields": ("table", "base_url")}),
        (_("API token"), {"fields": ("token_stored", "token", "token_forget", "token_variable")}),
        (_("Offer"), {"fields": ("services", ("markup_percent", "markup_fixed"), "extra_days")}),
        (_("Limits"), {"fields": ("calls_per_minute", "calls_state")}),
    )

    @admin.display(description=_("stored token"))
    def token_stored(self, obj: CarrierIntegration) -> str:
        if obj.token_unreadable:
            return gettext(
                "stored, but it cannot be decrypted with the current key (SECRETS_KEY or "
                "SECRET_KEY changed): type it again"
            )
        return obj.token_shown() or gettext("none")

    @admin.display(description=_("token"))
    def token_source(self, obj: CarrierIntegration) -> str:
        if obj.token_encrypted:
            return gettext("typed in the admin")
        # a long variable name is one unbreakable word: cut, whole in the hover title
        return truncated(gettext("variable %(name)s") % {"name": obj.token_variable}, 24)

    @admin.display(description=_("calls"))
    def calls_state(self, obj: CarrierIntegration) -> str:
        """This process's breaker, one word: calls go through, are paused after failures
        (the quotes leave the carrier out), or one call is trying again."""
        if obj.pk is None:
            return ""
        state = breaker_of(obj).state
        return {"closed": gettext("Normal"), "open": gettext("Paused")}.get(
            state, gettext("Retrying")
        )

    def _test_and_report(self, request, integration: CarrierIntegration) -> None:
        call = connection_test(integration)
        values = {
            "name": integration,
            "verdict": verdict(call),
            "count": call.options,
            "ms": call.latency_ms,
            "error": error_text(call.error),
        }
        if call.status == CallStatus.OK:
            breaker_of(integration).record_success()
            message = gettext("%(name)s: %(verdict)s, %(count)d services in %(ms)d ms.")
            level = messages.SUCCESS
        else:
            message = gettext("%(name)s: %(verdict)s after %(ms)d ms: %(error)s.")
            level = messages.ERROR
        self.message_user(request, message % values, level)

    def response_add(self, request, obj, post_url_continue=None):
        if "_test_connection" not in request.POST:
            return super().response_add(request, obj, post_url_continue)
        self._test_and_report(request, obj)
        return HttpResponseRedirect(
            request.path.replace("/add/", f"/{obj.pk}/change/")
            if "/add/" in request.path
            else request.path
        )

    def response_change(self, request, obj):
        if "_test_connection" not in request.POST:
            return super().response_change(request, obj)
        self._test_and_report(request, obj)
        return HttpResponseRedirect(request.get_full_path())

    @admin.action(description=_("Test the connection (one quote from São Paulo to Rio)"))
    def test_connection(self, request, queryset):
        for integration in queryset.select_related("table__carrier"):
            self._test_and_report(request, integration)


@admin.register(CarrierCall)
class CarrierCallAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Calls to carriers' APIs (quotes and connection tests): read only."""

    list_display = ("outcome", "created_at", "integration", "latency_ms", "options", "short_error")
    list_display_links = ("created_at",)
    list_filter = ("status", "integration")
    list_select_related = ("integration__table__carrier",)
    date_hierarchy = "created_at"
    fields = (
        "created_at",
        "integration",
        "outcome",
        "latency_ms",
        "http_status",
        "options",
        "details",
    )
    readonly_fields = fields
    show_full_result_count = False

    @admin.display(description=_("status"), ordering="status")
    def outcome(self, obj: CarrierCall) -> str:
        return verdict(obj)

    @admin.display(description=_("error"))
    def short_error(self, obj: CarrierCall) -> str:
        return truncated(error_text(obj.error)) if obj.error else ""

    @admin.display(description=_("details"))
    def details(self, obj: CarrierCall) -> str:
        return error_text(obj.error) if obj.error else "-"
