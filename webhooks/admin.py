"""Back office of webhooks: endpoints and the delivery log. An endpoint's signing secret is
shown in full once, after its creation or "Generate a new secret"; elsewhere it is masked."""

import json

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from infra.admin import OwnPagesMixin, ReadOnlyAdminMixin, truncated
from infra.events import EVENT_TYPES

from .models import EVENT_NAMES, Delivery, Endpoint, event_label, masked_secret
from .services import (
    deliveries_resend,
    endpoint_secret_rotate,
    endpoint_send_test,
    endpoints_resume,
)


class EndpointForm(forms.ModelForm):
    url = forms.URLField(label=_("URL"), max_length=500, assume_scheme="https")
    events = forms.MultipleChoiceField(
        label=capfirst(_("events")),
        choices=[(code, event_label(code)) for code in EVENT_TYPES],
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = Endpoint
        fields = ["url", "description", "events", "active"]  # the secret: generated

    def clean_url(self):
        url = self.cleaned_data["url"]
        if not settings.WEBHOOKS_ALLOW_HTTP and not url.lower().startswith("https://"):
            raise forms.ValidationError(_("Only https URLs are allowed."))
        # compared case-insensitively (a new endpoint has no pk: it excludes none)
        other = Endpoint.objects.filter(url__iexact=url).exclude(pk=self.instance.pk).first()
        if other is not None:
            raise forms.ValidationError(
                _(
                    "The endpoint “%(endpoint)s” already receives events at this URL: tick the "
                    "events there instead (two endpoints would deliver each event twice, "
                    "with different ids)."
                ),
                params={"endpoint": str(other)},
            )
        return url


@admin.register(Endpoint)
class EndpointAdmin(OwnPagesMixin, admin.ModelAdmin):
    form = EndpointForm
    list_display = ["__str__", "url", "active", "paused_at", "failure_streak", "event_list"]
    list_filter = ["active"]
    readonly_fields = ["masked_secret", "paused_at", "failure_streak", "created_at", "updated_at"]
    actions = ["send_test", "resume"]
    own_pages = (
        ("<path:object_id>/send-test/", "send_test_view", "send_test"),
        ("<path:object_id>/new-secret/", "new_secret_view", "new_secret"),
    )

    @admin.display(description=_("events"))
    def event_list(self, endpoint):
        return truncated(", ".join(str(event_label(code)) for code in endpoint.events or []))

    @admin.display(description=_("secret"))
    def masked_secret(self, endpoint):
        return masked_secret(endpoint.secret)

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        return fields if obj is not None else [f for f in fields if f != "masked_secret"]

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

    def response_add(self, request, obj, post_url_continue=None):
        if "_popup" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        return self._secret_page(request, obj, obj.secret)

    @admin.action(description=_("Resume (and send the held deliveries)"), permissions=["change"])
    def resume(self, request, queryset):
        count = endpoints_resume(endpoints=list(queryset))
        self.message_user(
            request,
            ngettext("%(n)d endpoint resumed.", "%(n)d endpoints resumed.", count) % {"n": count},
        )

    @admin.action(description=_("Send a test event"), permissions=["change"])
    def send_test(self, request, queryset):
        for endpoint in queryset:
            self._report_test(request, endpoint, endpoint_send_test(endpoint=endpoint))

    def send_test_view(self, request, object_id):
        """Confirm, then deliver a signed `ping` event and open the endpoint's delivery log."""
        endpoint = self._endpoint_to_change(request, object_id)
        if request.method == "POST":
            delivery = endpoint_send_test(endpoint=endpoint)
            self._report_test(request, endpoint, delivery)
            if delivery is None:
                return HttpResponseRedirect(self._change_url(endpoint))
            return HttpResponseRedirect(self._log_url(endpoint))
        return self._page(
            request,
            endpoint,
            "confirm.html",
            title=_("Send a test event"),
            text=_(
                "A signed “ping” event goes to %(url)s through the normal delivery path "
                "(a job, with retries); its result shows in the delivery log."
            )
            % {"url": endpoint.url},
            button=_("Send the test event"),
        )

    def new_secret_view(self, request, object_id):
        """Confirm, then replace the signing secret and show the new one, this once."""
        endpoint = self._endpoint_to_change(request, object_id)
        if request.method == "POST":
            secret = endpoint_secret_rotate(endpoint=endpoint)
            # The log records that the secret changed, never its value.
            self.log_change(request, endpoint, [{"changed": {"fields": ["secret"]}}])
            return self._secret_page(request, endpoint, secret)
        return self._page(
            request,
            endpoint,
            "confirm.html",
            title=_("Generate a new secret"),
            text=_(
                "The current secret stops working at once: deliveries are refused by the "
                "receiver until it is given the new one, which is shown only once."
            ),
            button=_("Generate a new secret"),
        )

    def _endpoint_to_change(self, request, object_id) -> Endpoint:
        endpoint = self.get_object(request, object_id)
        if endpoint is None:
            raise Http404(_("No such endpoint."))
        if not self.has_change_permission(request, endpoint):
            raise PermissionDenied
        return endpoint

    def _change_url(self, endpoint):
        return reverse("admin:webhooks_endpoint_change", args=[endpoint.pk])

    def _log_url(self, endpoint):
        changelist = reverse("admin:webhooks_delivery_changelist")
        return f"{changelist}?endpoint__id__exact={endpoint.pk}"

    def _report_test(self, request, endpoint, delivery):
        if delivery is None:
            self.message_user(
                request,
                _("%(endpoint)s is inactive or paused: no test event was sent.")
                % {"endpoint": endpoint},
                messages.WARNING,
            )
            return
        self.message_user(
            request,
            format_html(
                '{} <a href="{}">{}</a>',
                _("Test event queued for %(endpoint)s.") % {"endpoint": endpoint},
                self._log_url(endpoint),
                _("See it in the delivery log."),
            ),
        )

    def _page(self, request, endpoint, template, title, **context):
        change_url = self._change_url(endpoint)
        return self.own_page(
            request, template, title, original=endpoint, change_url=change_url, **context
        )

    def _secret_page(self, request, endpoint, secret):
        # Never cached: admin_view adds `Cache-Control: no-store` to every admin page.
        return self._page(
            request, endpoint, "secret.html", title=_("Signing secret"), secret=secret
        )


class EventFilter(admin.SimpleListFilter):
    title = _("event")
    parameter_name = "event_type"

    def lookups(self, request, model_admin):
        return [(code, event_label(code)) for code in EVENT_NAMES]

    def queryset(self, request, queryset):
        return queryset.filter(event_type=self.value()) if self.value() else queryset


@admin.register(Delivery)
class DeliveryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "id",
        "event",
        "endpoint",
        "status",
        "attempts",
        "last_status_code",
        "last_attempt_at",
        "next_attempt_at",
        "created_at",
    ]
    list_filter = ["status", EventFilter, "endpoint"]
    list_select_related = ["endpoint"]
    search_fields = ["event_id"]
    readonly_fields = [
        "endpoint",
        "event_id",
        "event",
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
    exclude = ["payload", "event_type"]
    actions = ["resend"]

    @admin.display(description=_("event"), ordering="event_type")
    def event(self, delivery):
        return event_label(delivery.event_type)

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
