"""Admin of the marketing app: banner groups (banners inline, "preview at"), banners and
upsell offers."""

import json
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from apikit.responses import envelope
from infra.admin import (
    NAME_COLUMN_CHARS,
    OwnPagesMixin,
    SafeAutocompleteMixin,
    badge,
    truncated,
    truncated_column,
)
from infra.cdn import cdn_purge, cdn_purge_configured
from storefront.models import SalesChannel

from .api.listing import banner_listing_get
from .models import DEVICES, Banner, BannerGroup, Upsell, UpsellLocation
from .scheduling import Status
from .services import (
    banner_groups_publish_now,
    banner_groups_unpublish,
    banners_publish_now,
    banners_set_active,
    banners_unpublish,
)
from .tasks import refresh_banner_images, refresh_group_images

STATUS_BADGES = {  # label, colour
    Status.LIVE: (_("live"), "green"),
    Status.SCHEDULED: (_("scheduled"), "blue"),
    Status.EXPIRED: (_("expired"), "grey"),
    Status.INACTIVE: (_("inactive"), "red"),
}


def status_badge(record, moment=None):
    return badge(*STATUS_BADGES[record.status_at(moment or timezone.now())])


@admin.display(description=_("status"))
def status_column(record):
    return status_badge(record) if record.pk else "-"


def thumbnail(file, *, height: int = 48):
    if not file:
        return "-"
    return format_html(
        '<img src="{}" alt="" style="max-height:{}px;max-width:160px;border:1px solid #ddd">',
        file.url,
        height,
    )


def fitted_thumbnails(banner):
    return format_html(
        "{} {} {}", *(thumbnail(getattr(banner, f"{device}_image")) for device in DEVICES)
    )


def _when(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def _scheduled_reason(banner: Banner, moment) -> str:
    """Why a scheduled banner is not live yet: its group's start or its own."""
    group_start = banner.group.start_at
    if (
        group_start is not None
        and group_start > moment
        and (banner.start_at is None or group_start >= banner.start_at)
    ):
        return gettext("its group starts %(when)s") % {"when": _when(group_start)}
    if banner.start_at is not None and banner.start_at > moment:
        return gettext("starts %(when)s") % {"when": _when(banner.start_at)}
    return gettext("its schedule never overlaps its group's")


def banner_states_message(banners: list[Banner], moment) -> str:
    """ "2 banners live, 1 still scheduled (its group starts 2026-12-01 00:00)": what
    `banners` show in the public listing at `moment` (their group's schedule included)."""
    by_status: dict[Status, list[Banner]] = {status: [] for status in Status}
    for banner in banners:
        by_status[banner.status_at(moment)].append(banner)
    live = len(by_status[Status.LIVE])
    parts = [ngettext("%(n)d banner live", "%(n)d banners live", live) % {"n": live}]
    scheduled = by_status[Status.SCHEDULED]
    if scheduled:
        reasons = list(dict.fromkeys(_scheduled_reason(banner, moment) for banner in scheduled))
        parts.append(
            ngettext(
                "%(n)d still scheduled (%(why)s)", "%(n)d still scheduled (%(why)s)", len(scheduled)
            )
            % {"n": len(scheduled), "why": "; ".join(reasons[:3])}
        )
    expired = len(by_status[Status.EXPIRED])
    if expired:
        parts.append(ngettext("%(n)d expired", "%(n)d expired", expired) % {"n": expired})
    inactive = len(by_status[Status.INACTIVE])
    if inactive:
        parts.append(ngettext("%(n)d inactive", "%(n)d inactive", inactive) % {"n": inactive})
    return ", ".join(parts) + "."


def public_cache_note() -> str:
    """How long a browser or CDN may keep the listing answered before a change."""
    note = gettext(
        "The public banner listing answers the change at once to clients that revalidate; "
        "a browser or CDN may keep its previous copy for up to %(seconds)d seconds "
        "(Cache-Control max-age of %(path)s)."
    ) % {"seconds": settings.PUBLIC_CACHE_SECONDS, "path": banners_public_path()}
    if cdn_purge_configured():
        note += " " + gettext('Use the "Purge CDN" action to drop the CDN\'s copies now.')
    return note


def banners_public_path() -> str:
    return "/api/v3" + reverse("banner-groups")


def banners_public_url() -> str:
    return settings.PUBLIC_BASE_URL.rstrip("/") + banners_public_path()


def publishing_action(description, message, change):
    """An action of a PublishingActions admin: `change(queryset, moment)` returns the records
    it changed; the report counts them with `message` (ngettext_lazy(..., "n")) and says what
    their banners show now."""

    @admin.action(description=description)
    def action(self, request, queryset):
        moment = timezone.now()
        records = change(queryset, moment)
        banners = self.banners_of(records)
        self.message_user(
            request,
            f"{message % {'n': len(records)}} {banner_states_message(banners, moment)} "
            f"{public_cache_note()}",
        )

    return action


class PublishingActions:
    """ "Publish now", "Unpublish" and "Purge CDN" for the banner and banner group admins."""

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not cdn_purge_configured():
            actions.pop("purge_cdn", None)
        return actions

    def banners_of(self, records: list) -> list[Banner]:
        """The banners whose state an action on `records` reports (these are banners)."""
        return records

    @admin.action(description=_("Purge CDN copies of the banner listing"))
    def purge_cdn(self, request, queryset):
        url = banners_public_url()
        failure = cdn_purge([url])
        if failure:
            self.message_user(
                request,
                gettext("CDN purge of %(url)s failed: %(reason)s.")
                % {"url": url, "reason": failure},
                messages.ERROR,
            )
        else:
            self.message_user(request, gettext("CDN purge requested for %(url)s.") % {"url": url})


class StatusListFilter(admin.SimpleListFilter):
    """live / scheduled / expired / inactive, right now."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [(status.value, STATUS_BADGES[status][0]) for status in Status]

    def queryset(self, request, queryset):
        if self.value() in {status.value for status in Status}:
            return queryset.with_status(self.value(), timezone.now())
        return queryset


class AutocompleteWhenSearchable(SafeAutocompleteMixin):
    """Autocomplete widgets for the relations whose admin can be searched (the catalog's);
    plain selects otherwise, so a catalog admin without search_fields never breaks checks.
    The widgets are the safe ones: a garbage id is a form error."""

    autocomplete_candidates: tuple[str, ...] = ()

    def get_autocomplete_fields(self, request):
        fields = []
        for name in self.autocomplete_candidates:
            related = self.model._meta.get_field(name).related_model
            related_admin = self.admin_site._registry.get(related)
            if related_admin is not None and related_admin.search_fields:
                fields.append(name)
        return fields


# --- Banner groups ---------------------------------------------------------------------


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


# The admin forms below have no Meta: the admin builds them from its fieldsets.


# The change page's buttons (bannergroup/submit_line.html): "_<name>" saves the form, then
# runs the list action <name> on the group.
PAGE_ACTIONS = ("publish_now", "unpublish")
# The box that confirms a page action dropping a planned start (bannergroup/change_form.html).
CONFIRM_START_DROPPED = "confirm_start_dropped"


class BannerGroupForm(forms.ModelForm):
    """Its page's "Publish now" and "Unpublish" replace a start still to come: the form is
    refused until the page's "Replace the planned start" box is ticked."""

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
                % {"when": _when(start)},
            )
        return cleaned

    showcases = IdentifierListField(
        label=capfirst(_("showcases")), required=False, help_text=_("One identifier per line.")
    )
    pages = IdentifierListField(
        label=capfirst(_("pages")), required=False, help_text=_("One identifier per line.")
    )


BANNER_IMAGES_FIELDSET: tuple[Any, Any] = (  # shared by the inline and the banner admin
    _("Images and links"),
    {
        "fields": [
            ("desktop_original_image", "desktop_url"),
            ("tablet_original_image", "tablet_url"),
            ("mobile_original_image", "mobile_url"),
            "fitted_images",
        ]
    },
)


class BannerInline(admin.StackedInline):
    model = Banner
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

    @admin.display(description=_("fitted copies (desktop, tablet, mobile)"))
    def fitted_images(self, banner):
        if not banner.pk:
            return _("Generated when saved.")
        return fitted_thumbnails(banner)


@admin.register(BannerGroup)
class BannerGroupAdmin(
    OwnPagesMixin, PublishingActions, AutocompleteWhenSearchable, admin.ModelAdmin
):
    form = BannerGroupForm
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
    autocomplete_candidates = ("products", "brands", "categories")
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
            {
                "fields": [
                    ("desktop_width", "desktop_height"),
                    ("tablet_width", "tablet_height"),
                    ("mobile_width", "mobile_height"),
                ]
            },
        ),
        (
            _("Links for front ends"),
            {"fields": ["products", "brands", "categories", "showcases", "pages"]},
        ),
        (_("Front-end data"), {"fields": ["additional_parameter"]}),
        (_("History"), {"fields": ["created_at", "updated_at"]}),
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
        lambda groups, moment: banner_groups_publish_now(groups=groups, moment=moment),
    )
    unpublish = publishing_action(
        _("Unpublish (end the selected groups now)"),
        ngettext_lazy("%(n)d group unpublished:", "%(n)d groups unpublished:", "n"),
        lambda groups, moment: banner_groups_unpublish(groups=groups, moment=moment),
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
        group = get_object_or_404(BannerGroup, pk=object_id)
        if not self.has_view_or_change_permission(request, group):
            raise PermissionDenied
        form = PreviewForm(request.GET or None)
        moment = (form.is_valid() and form.cleaned_data.get("at")) or timezone.now()
        channel = group.sales_channel or SalesChannel.objects.filter(is_default=True).first()
        listing = banner_listing_get(
            codes=[group.code],
            channel=channel,
            moment=moment,
            base_url=request.build_absolute_uri("/"),
        )
        banners = list(group.banners.order_by("order", "id"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": group,
            "title": _("Preview of %(code)s") % {"code": group.code},
            "form": form,
            "moment": moment,
            "channel": channel,
            "live_banners": listing.groups[0]["banners"] if listing.groups else [],
            "banner_rows": [(banner, status_badge(banner, moment)) for banner in banners],
            "valid_until": listing.valid_until,
            "payload_json": json.dumps(envelope(listing.groups), cls=DjangoJSONEncoder, indent=2),
        }
        return TemplateResponse(request, "admin/marketing/bannergroup/preview.html", context)


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
    list_display = [
        "status",
        "start_at",
        "end_at",
        "preview",
        "short_name",
        "group",
        "order",
    ]
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
        (_("History"), {"fields": ["created_at", "updated_at"]}),
    ]

    @admin.display(description=_("image"))
    def preview(self, banner):
        return thumbnail(banner.desktop_image or banner.desktop_original_image, height=40)

    short_name = staticmethod(truncated_column("name", description=_("name")))

    status = staticmethod(status_column)

    @admin.display(description=_("fitted copies (desktop, tablet, mobile)"))
    def fitted_images(self, banner):
        return fitted_thumbnails(banner)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        refresh_banner_images.enqueue(obj.pk)

    publish_now = publishing_action(
        _("Publish now (start the selected banners now)"),
        ngettext_lazy("%(n)d banner published:", "%(n)d banners published:", "n"),
        lambda banners, moment: banners_publish_now(banners=banners, moment=moment),
    )
    unpublish = publishing_action(
        _("Unpublish (end the selected banners now)"),
        ngettext_lazy("%(n)d banner unpublished:", "%(n)d banners unpublished:", "n"),
        lambda banners, moment: banners_unpublish(banners=banners, moment=moment),
    )
    activate = publishing_action(
        _("Activate selected banners (keeping their schedule)"),
        ngettext_lazy("%(n)d banner activated:", "%(n)d banners activated:", "n"),
        lambda banners, moment: banners_set_active(banners=banners, active=True),
    )
    deactivate = publishing_action(
        _("Deactivate selected banners"),
        ngettext_lazy("%(n)d banner deactivated:", "%(n)d banners deactivated:", "n"),
        lambda banners, moment: banners_set_active(banners=banners, active=False),
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


# --- Upsell -------------------------------------------------------------------------------


class UpsellForm(forms.ModelForm):
    location = forms.CharField(
        label=capfirst(_("location")),
        max_length=50,
        initial=UpsellLocation.CART,
        widget=forms.TextInput(attrs={"list": "upsell-locations"}),
        help_text=_(
            "cart, checkout, or any location your front end asks for (GET /cart/upsell/{location})."
        ),
    )


@admin.register(Upsell)
class UpsellAdmin(AutocompleteWhenSearchable, admin.ModelAdmin):
    form = UpsellForm
    list_display = [
        "status",
        "start_at",
        "end_at",
        "short_title",
        "location",
        "product_name",
        "priority",
    ]
    list_display_links = ["short_title"]
    list_filter = [StatusListFilter, "location", "active"]
    list_select_related = ["product", "price_rule"]
    search_fields = ["display_title", "product__name", "product__sku", "location"]
    readonly_fields = ["status", "created_at", "updated_at"]
    autocomplete_candidates = ("product", "price_rule", "trigger_products", "trigger_categories")
    fieldsets = [
        (
            _("Offer"),
            {
                "fields": [
                    "display_title",
                    "display_description",
                    "display_button_text",
                    ("product", "quantity"),
                    "price_rule",
                ]
            },
        ),
        (
            _("Where and when"),
            {"fields": ["location", "priority", ("active", "status"), "start_at", "end_at"]},
        ),
        (
            _("Triggers (empty: always offered)"),
            {"fields": ["trigger_products", "trigger_categories"]},
        ),
        (_("History"), {"fields": ["created_at", "updated_at"]}),
    ]

    short_title = staticmethod(truncated_column("display_title", description=_("title")))

    @admin.display(description=_("product"), ordering="product__name")
    def product_name(self, upsell):
        return truncated(upsell.product.name, NAME_COLUMN_CHARS)

    status = staticmethod(status_column)

    def render_change_form(self, request, context, *args, **kwargs):
        context["upsell_locations"] = list(
            dict.fromkeys(
                [choice.value for choice in UpsellLocation]
                + list(Upsell.objects.values_list("location", flat=True).distinct()[:50])
            )
        )
        return super().render_change_form(request, context, *args, **kwargs)
