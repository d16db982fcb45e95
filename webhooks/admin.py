"""Back office of webhooks: endpoints (with their events) and the delivery log."""

import json

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.utils.html import format_html
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from infra.admin import ReadOnlyAdminMixin
from infra.events import EVENT_TYPES

from .models import Delivery, Endpoint
from .services import deliveries_resend, endpoints_resume


class EndpointForm(forms.ModelForm):
    url = forms.URLField(label=_("URL"), max_length=500, assume_scheme="https")
    events = forms.MultipleChoiceField(
        label=_("events"),
        choices=[(name, format_lazy("{}: {}", name, label)) for name, label in EVENT_TYPES.items()],
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = Endpoint
        fields = ["url", "description", "events", "active", "secret"]

    def clean_url(self):
        url = self.cleaned_data["url"]
        if not settings.WEBHOOKS_ALLOW_HTTP and not url.lower().startswith("https://"):
            raise forms.ValidationError(_("Only https URLs are allowed."))
        return url


@admin.register(Endpoint)
class EndpointAdmin(admin.ModelAdmin):
    form = EndpointForm
    list_display = ["__str__", "url", "active", "paused_at", "failure_streak", "event_list"]
    list_filter = ["active"]
    readonly_fields = ["paused_at", "failure_streak", "created_at", "updated_at"]
    actions = ["resume"]

    @admin.display(description=_("events"))
    def event_list(self, endpoint):
        return ", ".join(endpoint.events or [])

    def changelist_view(self, request, extra_context=None):
        for endpoint in Endpoint.objects.filter(paused_at__isnull=False):
            self.message_user(
                request,
                _(
                    "The endpoint %(url)s is paused since %(at)s after repeated failed "
                    "deliveries; fix the receiver and resume it."
                )
                % {"url": endpoint.url, "at": endpoint.paused_at},
                messages.WARNING,
            )
        return super().changelist_view(request, extra_context)

    @admin.action(description=_("Resume (and send the held deliveries)"))
    def resume(self, request, queryset):
        count = endpoints_resume(endpoints=list(queryset))
        self.message_user(
            request,
            ngettext("%(n)d endpoint resumed.", "%(n)d endpoints resumed.", count) % {"n": count},
        )


@admin.register(Delivery)
class DeliveryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "id",
        "event_type",
        "endpoint",
        "status",
        "attempts",
        "last_status_code",
        "last_attempt_at",
        "next_attempt_at",
        "created_at",
    ]
    list_filter = ["status", "event_type", "endpoint"]
    list_select_related = ["endpoint"]
    search_fields = ["event_id"]
    readonly_fields = [
        "endpoint",
        "event_id",
        "event_type",
        "status",
        "attempts",
        "created_at",
        "last_attempt_at",
        "next_attempt_at",
        "delivered_at",
        "last_status_code",
        "last_response",
        "last_error",
        "payload_json",
    ]
    exclude = ["payload"]
    actions = ["resend"]

    @admin.display(description=_("payload"))
    def payload_json(self, delivery):
        return format_html("<pre>{}</pre>", json.dumps(delivery.payload, indent=2))

    def has_resend_permission(self, request):
        return request.user.has_perm("webhooks.change_delivery")

    @admin.action(description=_("Resend now"), permissions=["resend"])
    def resend(self, request, queryset):
        count = deliveries_resend(deliveries=queryset)
        self.message_user(
            request,
            ngettext("%(n)d delivery queued again.", "%(n)d deliveries queued again.", count)
            % {"n": count},
        )
