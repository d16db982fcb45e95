"""Banner groups (publish buttons on the page, banners inline, the "Preview at" page) and
banners (schedule, fitted images, publishing actions)."""

import json

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Count
from django.http import Http404, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from apikit.responses import envelope
from infra.admin import HISTORY_FIELDSET, OwnPagesMixin, SafeAutocompleteMixin, truncated_column
from infra.forms import JsonObjectField

from ..api.listing import banner_listing_get
from ..models import DEVICES, Banner, BannerGroup
from ..selectors import default_sales_channel
from ..services import banners_set_active, schedules_publish_now, schedules_unpublish
from ..tasks import refresh_banner_images, refresh_group_images
from .common import (
    BANNER_IMAGES_FIELDSET,
    PublishingActions,
    StatusListFilter,
    fitted_images_column,
    public_cache_note,
    publishing_action,
    status_badge,
    status_column,
    thumbnail,
    when_text,
)


class IdentifierListField(forms.CharField):
    """A list of identifiers typed one per line (commas work too)."""

    widget = forms.Textarea(attrs={"rows": 3, "cols": 40})

    def prepare_value(self, value):
        if isinstance(value, list):
            return "\n".join(str(item) for item in value)
        return value

    def to_python(self, value):
        text = super().to_python(value) or ""
        parts = (part.strip() for line in text.splitlines() for part in line.split(","))
        return list(dict.fromkeys(part for part in parts if part))


# The change page's buttons (bannergroup/submit_line.html): "_<name>" saves the form, then
# runs the list action <name> on the group.
PAGE_ACTIONS = ("publish_now", "unpublish")
# The box that confirms a page action dropping a planned start (bannergroup/change_form.html).
CONFIRM_START_DROPPED = "confirm_start_dropped"


class BannerGroupForm(forms.ModelForm):
    """The page's "Publish now" and "Unpublish" drop a start still to come: refused until
    the "Replace the planned start" box is ticked."""

    start_drop_unconfirmed = False

    def clean(self):
        cleaned = super().clean()
        start = cleaned.get("start_at")
        clicked = any(f"_{action}" in self.data for action in PAGE_ACTIONS)
        if (
            clicked
            and start is not None
            and start > timezone.now()
            and not self.data.get(CONFIRM_START_DROPPED)
        ):
            self.start_drop_unconfirmed = True
            self.add_error(
                "start_at",
                gettext(
                    "The group is planned to start %(when)s; publishing or unpublishing it now "
                    "drops that start: tick “Replace the planned start” and click again."
                )
                % {"when": when_text(start)},
            )
        return cleaned

    showcases = IdentifierListField(
        label=capfirst(_("showcases")), required=False, help_text=_("One identifier per line.")
    )
    pages = IdentifierListField(
        label=capfirst(_("pages")), required=False, help_text=_("One identifier per line.")
    )


# "Additional parameter" left empty is {} (Django's form field gives None: a NOT NULL error).
JSON_OBJECTS = {models.JSONField: {"form_class": JsonObjectField}}


class BannerInline(admin.StackedInline):
    model = Banner
    formfield_overrides = JSON_OBJECTS
    extra = 0
    show_change_link = True
    ordering = ["order", "id"]
    readonly_fields = ["status", "fitted_images"]
    fieldsets = [
        (
            None,
            {"fields": [("name", "status"), "alt", ("active", "order"), ("start_at", "end_at")]},
        ),
        BANNER_IMAGES_FIELDSET,
        (_("Front-end data"), {"classes": ["collapse"], "fields": ["additional_parameter"]}),
    ]

    status = staticmethod(status_column)
    fitted_images = staticmethod(fitted_images_column)


@admin.register(BannerGroup)
class BannerGroupAdmin(OwnPagesMixin, PublishingActions, SafeAutocompleteMixin, admin.ModelAdmin):
    form = BannerGroupForm
    formfield_overrides = JSON_OBJECTS
    inlines = [BannerInline]
    list_display = [
        "status",
        "preview_link",
        "code",
        "short_name",
        "sales_channel",
        "location_id",
        "banner_count",
        "updated_at",
    ]
    list_display_links = ["code"]
    list_filter = ["sales_channel"]
    list_select_related = ["sales_channel"]
    search_fields = ["code", "name", "title", "location_id"]
    readonly_fields = ["schedule_status", "public_cache", "created_at", "updated_at"]
    autocomplete_fields = ["products", "brands", "categories"]
    actions = ["publish_now", "unpublish", "purge_cdn"]
    fieldsets = [
        (
            None,
            {"fields": ["code", "name", "sales_channel", "location_id", "title", "description"]},
        ),
        (
            _("Schedule (banners inherit it; their own start and end narrow it)"),
            {"fields": [("start_at", "end_at"), "schedule_status", "public_cache"]},
        ),
        (
            _("Sizes (pixels): banners are fitted to these"),
            {"fields": [(f"{device}_width", f"{device}_height") for device in DEVICES]},
        ),
        (
            _("Links for front ends"),
            {"fields": ["products", "brands", "categories", "showcases", "pages"]},
        ),
        (_("Front-end data"), {"fields": ["additional_parameter"]}),
        HISTORY_FIELDSET,
    ]

    def get_queryset(self, request):
        # `banners` (one query for the page) feeds the `status` column
        return (
            super()
            .get_queryset(request)
            .annotate(banners_total=Count("banners"))
            .prefetch_related("banners")
        )

    status = staticmethod(status_column)

    @admin.display(description=_("schedule status"))
    def schedule_status(self, group):
        return status_badge(group) if group.pk else "-"

    def render_change_form(self, request, context, *args, **kwargs):
        form = context["adminform"].form
        context["start_drop_unconfirmed"] = form.start_drop_unconfirmed
        context["page_actions"] = PAGE_ACTIONS
        return super().render_change_form(request, context, *args, **kwargs)

    def response_change(self, request, obj):
        clicked = next((name for name in PAGE_ACTIONS if f"_{name}" in request.POST), None)
        if clicked is None:
            return super().response_change(request, obj)
        getattr(self, clicked)(request, BannerGroup.objects.filter(pk=obj.pk))
        return HttpResponseRedirect(request.get_full_path())  # the same page, filters kept

    @admin.display(description=_("public cache"))
    def public_cache(self, group):
        return public_cache_note()

    publish_now = publishing_action(
        _("Publish now (start the selected groups now)"),
        ngettext_lazy("%(n)d group published:", "%(n)d groups published:", "n"),
        schedules_publish_now,
    )
    unpublish = publishing_action(
        _("Unpublish (end the selected groups now)"),
        ngettext_lazy("%(n)d group unpublished:", "%(n)d groups unpublished:", "n"),
        schedules_unpublish,
    )

    def banners_of(self, records: list) -> list[Banner]:
        return list(Banner.objects.filter(group__in=records).select_related("group"))

    short_name = staticmethod(truncated_column("name", description=_("name")))

    @admin.display(description=_("banners"), ordering="banners_total")
    def banner_count(self, group):
        return group.banners_total

    @admin.display(description=_("preview"))
    def preview_link(self, group):
        url = reverse("admin:marketing_bannergroup_preview", args=[group.pk])
        return format_html('<a class="button" href="{}">{}</a>', url, _("Preview at..."))

    own_pages = (("<path:object_id>/preview/", "preview_view", "preview"),)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # A job (enqueued in the admin's transaction) fits the copies that changed.
        refresh_group_images.enqueue(form.instance.pk)
        self.message_user(request, _("The fitted banner images are being generated."))

    # "Preview at": exactly what the public listing answers for this group at a moment.

    def preview_view(self, request, object_id):
        group = self.get_object(request, object_id)  # None for "abc" too
        if group is None:
            raise Http404
        if not self.has_view_or_change_permission(request, group):
            raise PermissionDenied
        form = PreviewForm(request.GET or None)
        moment = (form.is_valid() and form.cleaned_data.get("at")) or timezone.now()
        channel = group.sales_channel or default_sales_channel()
        listing = banner_listing_get(
            codes=[group.code],
            channel=channel,
            moment=moment,
            base_url=request.build_absolute_uri("/"),
        )
        banners = list(group.banners.order_by("order", "id"))
        return self.own_page(
            request,
            "preview.html",
            _("Preview of %(code)s") % {"code": group.code},
            original=group,
            form=form,
            moment=moment,
            channel=channel,
            live_banners=listing.groups[0]["banners"] if listing.groups else [],
            banner_rows=[(banner, status_badge(banner, moment)) for banner in banners],
            valid_until=listing.valid_until,
            payload_json=json.dumps(envelope(listing.groups), cls=DjangoJSONEncoder, indent=2),
        )


class PreviewForm(forms.Form):
    at = forms.DateTimeField(
        required=False,
        label=_("Preview at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"],
        help_text=_("Store time zone. Empty: now."),
    )


@admin.register(Banner)
class BannerAdmin(SafeAutocompleteMixin, PublishingActions, admin.ModelAdmin):
    formfield_overrides = JSON_OBJECTS
    list_display = ["status", "start_at", "end_at", "preview", "short_name", "group", "order"]
    list_display_links = ["preview", "short_name"]
    list_filter = [StatusListFilter, "active", "group"]
    list_select_related = ["group"]
    search_fields = ["name", "alt", "group__code", "group__name"]
    autocomplete_fields = ["group"]
    readonly_fields = ["status", "fitted_images", "created_at", "updated_at"]
    actions = [
        "publish_now",
        "unpublish",
        "activate",
        "deactivate",
        "regenerate_images",
        "purge_cdn",
    ]
    fieldsets = [
        (None, {"fields": ["group", "name", "alt", ("active", "status"), "order"]}),
        (_("Scheduling"), {"fields": [("start_at", "end_at")]}),
        BANNER_IMAGES_FIELDSET,
        (_("Front-end data"), {"fields": ["additional_parameter"]}),
        HISTORY_FIELDSET,
    ]

    @admin.display(description=_("image"))
    def preview(self, banner):
        return thumbnail(banner.desktop_image or banner.desktop_original_image, height=40)

    short_name = staticmethod(truncated_column("name", description=_("name")))

    status = staticmethod(status_column)
    fitted_images = staticmethod(fitted_images_column)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        refresh_banner_images.enqueue(obj.pk)

    publish_now = publishing_action(
        _("Publish now (start the selected banners now)"),
        ngettext_lazy("%(n)d banner published:", "%(n)d banners published:", "n"),
        schedules_publish_now,
    )
    unpublish = publishing_action(
        _("Unpublish (end the selected banners now)"),
        ngettext_lazy("%(n)d banner unpublished:", "%(n)d banners unpublished:", "n"),
        schedules_unpublish,
    )
    activate = publishing_action(
        _("Activate selected banners (keeping their schedule)"),
        ngettext_lazy("%(n)d banner activated:", "%(n)d banners activated:", "n"),
        lambda records, moment: banners_set_active(banners=records, active=True),
    )
    deactivate = publishing_action(
        _("Deactivate selected banners"),
        ngettext_lazy("%(n)d banner deactivated:", "%(n)d banners deactivated:", "n"),
        lambda records, moment: banners_set_active(banners=records, active=False),
    )

    @admin.action(description=_("Regenerate fitted images"))
    def regenerate_images(self, request, queryset):
        ids = list(queryset.values_list("pk", flat=True))
        for banner_id in ids:
            refresh_banner_images.enqueue(banner_id, force=True)
        self.message_user(
            request,
            ngettext(
                "Regeneration of the fitted images of %(count)d banner is queued.",
                "Regeneration of the fitted images of %(count)d banners is queued.",
                len(ids),
            )
            % {"count": len(ids)},
        )
