"""Admin of the marketing app: banner groups (banners inline, "preview at"), banners and
upsell offers."""

import json

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Count
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext

from apikit.responses import envelope
from storefront.models import SalesChannel

from .api.listing import banner_listing_get
from .models import DEVICES, Banner, BannerGroup, Upsell, UpsellLocation
from .scheduling import Status
from .tasks import refresh_banner_images, refresh_group_images

STATUS_COLORS = {
    Status.LIVE: "#1e7e34",
    Status.SCHEDULED: "#1d5fa8",
    Status.EXPIRED: "#7a7a7a",
    Status.INACTIVE: "#a33",
}


def status_badge(record, moment=None):
    status = record.status_at(moment or timezone.now())
    return format_html(
        '<span style="color:#fff;background:{};padding:2px 8px;border-radius:8px">{}</span>',
        STATUS_COLORS[status],
        status.value,
    )


def thumbnail(file, *, height: int = 48):
    if not file:
        return "-"
    return format_html(
        '<img src="{}" alt="" style="max-height:{}px;max-width:160px;border:1px solid #ddd">',
        file.url,
        height,
    )


class StatusListFilter(admin.SimpleListFilter):
    """live / scheduled / expired / inactive, right now."""

    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [(status.value, status.value.capitalize()) for status in Status]

    def queryset(self, request, queryset):
        if self.value() in {status.value for status in Status}:
            return queryset.with_status(self.value(), timezone.now())
        return queryset


class AutocompleteWhenSearchable:
    """Autocomplete widgets for the relations whose admin can be searched (the catalog's);
    plain selects otherwise, so a catalog admin without search_fields never breaks checks."""

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


class BannerGroupForm(forms.ModelForm):
    showcases = IdentifierListField(required=False, help_text="One identifier per line.")
    pages = IdentifierListField(required=False, help_text="One identifier per line.")

    class Meta:
        model = BannerGroup
        fields = [
            "code",
            "name",
            "sales_channel",
            "location_id",
            "title",
            "description",
            "desktop_width",
            "desktop_height",
            "tablet_width",
            "tablet_height",
            "mobile_width",
            "mobile_height",
            "products",
            "brands",
            "categories",
            "showcases",
            "pages",
            "additional_parameter",
        ]


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
        (
            "Images and links",
            {
                "fields": [
                    ("desktop_original_image", "desktop_url"),
                    ("tablet_original_image", "tablet_url"),
                    ("mobile_original_image", "mobile_url"),
                    "fitted_images",
                ]
            },
        ),
        ("Front-end data", {"classes": ["collapse"], "fields": ["additional_parameter"]}),
    ]

    @admin.display(description="status")
    def status(self, banner):
        return status_badge(banner) if banner.pk else "-"

    @admin.display(description="fitted copies (desktop, tablet, mobile)")
    def fitted_images(self, banner):
        if not banner.pk:
            return "Generated when saved."
        return format_html(
            "{} {} {}", *(thumbnail(getattr(banner, f"{device}_image")) for device in DEVICES)
        )


@admin.register(BannerGroup)
class BannerGroupAdmin(AutocompleteWhenSearchable, admin.ModelAdmin):
    form = BannerGroupForm
    inlines = [BannerInline]
    list_display = [
        "code",
        "name",
        "sales_channel",
        "location_id",
        "banner_count",
        "preview_link",
        "updated_at",
    ]
    list_filter = ["sales_channel"]
    list_select_related = ["sales_channel"]
    search_fields = ["code", "name", "title", "location_id"]
    readonly_fields = ["created_at", "updated_at"]
    autocomplete_candidates = ("products", "brands", "categories")
    fieldsets = [
        (
            None,
            {"fields": ["code", "name", "sales_channel", "location_id", "title", "description"]},
        ),
        (
            "Sizes (pixels): banners are fitted to these",
            {
                "fields": [
                    ("desktop_width", "desktop_height"),
                    ("tablet_width", "tablet_height"),
                    ("mobile_width", "mobile_height"),
                ]
            },
        ),
        (
            "Links for front ends",
            {"fields": ["products", "brands", "categories", "showcases", "pages"]},
        ),
        ("Front-end data", {"fields": ["additional_parameter"]}),
        ("History", {"fields": ["created_at", "updated_at"]}),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(banners_total=Count("banners"))

    @admin.display(description="banners", ordering="banners_total")
    def banner_count(self, group):
        return group.banners_total

    @admin.display(description="preview")
    def preview_link(self, group):
        url = reverse("admin:marketing_bannergroup_preview", args=[group.pk])
        return format_html('<a href="{}">Preview at...</a>', url)

    def get_urls(self):
        preview = path(
            "<path:object_id>/preview/",
            self.admin_site.admin_view(self.preview_view),
            name="marketing_bannergroup_preview",
        )
        return [preview, *super().get_urls()]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # A job (enqueued in the admin's transaction) fits the copies that changed.
        refresh_group_images.enqueue(form.instance.pk)

    # "Preview at": exactly what the public listing answers for this group at a moment.

    def preview_view(self, request, object_id):
        group = get_object_or_404(BannerGroup, pk=object_id)
        if not self.has_view_or_change_permission(request, group):
            raise PermissionDenied
        form = PreviewForm(request.GET or None)
        moment = timezone.now()
        if form.is_valid() and form.cleaned_data.get("at"):
            moment = form.cleaned_data["at"]
        channel = group.sales_channel or SalesChannel.objects.filter(is_default=True).first()
        listing = banner_listing_get(
            codes=[group.code],
            channel=channel,
            moment=moment,
            base_url=request.build_absolute_uri("/"),
        )
        payload = envelope(listing.groups)
        banners = list(group.banners.order_by("order", "id"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": group,
            "title": f"Preview of {group.code}",
            "form": form,
            "moment": moment,
            "channel": channel,
            "live_banners": listing.groups[0]["banners"] if listing.groups else [],
            "banner_rows": [(banner, status_badge(banner, moment)) for banner in banners],
            "valid_until": listing.valid_until,
            "payload_json": json.dumps(payload, cls=DjangoJSONEncoder, indent=2),
        }
        return TemplateResponse(request, "admin/marketing/bannergroup/preview.html", context)


class PreviewForm(forms.Form):
    at = forms.DateTimeField(
        required=False,
        label="Preview at",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"],
        help_text="Store time zone. Empty: now.",
    )


@admin.register(Banner)
class BannerAdmin(admin.ModelAdmin):
    list_display = [
        "preview",
        "name",
        "group",
        "status",
        "order",
        "start_at",
        "end_at",
        "updated_at",
    ]
    list_display_links = ["preview", "name"]
    list_filter = [StatusListFilter, "active", "group"]
    list_select_related = ["group"]
    search_fields = ["name", "alt", "group__code", "group__name"]
    autocomplete_fields = ["group"]
    readonly_fields = ["status", "fitted_images", "created_at", "updated_at"]
    actions = ["activate", "deactivate", "regenerate_images"]
    fieldsets = [
        (None, {"fields": ["group", "name", "alt", ("active", "status"), "order"]}),
        ("Scheduling", {"fields": [("start_at", "end_at")]}),
        (
            "Images and links",
            {
                "fields": [
                    ("desktop_original_image", "desktop_url"),
                    ("tablet_original_image", "tablet_url"),
                    ("mobile_original_image", "mobile_url"),
                    "fitted_images",
                ]
            },
        ),
        ("Front-end data", {"fields": ["additional_parameter"]}),
        ("History", {"fields": ["created_at", "updated_at"]}),
    ]

    @admin.display(description="image")
    def preview(self, banner):
        return thumbnail(banner.desktop_image or banner.desktop_original_image, height=40)

    @admin.display(description="status")
    def status(self, banner):
        return status_badge(banner)

    @admin.display(description="fitted copies (desktop, tablet, mobile)")
    def fitted_images(self, banner):
        return format_html(
            "{} {} {}", *(thumbnail(getattr(banner, f"{device}_image")) for device in DEVICES)
        )

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        refresh_banner_images.enqueue(obj.pk)

    @admin.action(description="Activate selected banners")
    def activate(self, request, queryset):
        for banner in queryset:  # save() per banner: signals refresh the public cache
            banner.active = True
            banner.save(update_fields=["active", "updated_at"])
        self.message_user(request, f"{queryset.count()} banner(s) activated.")

    @admin.action(description="Deactivate selected banners")
    def deactivate(self, request, queryset):
        for banner in queryset:
            banner.active = False
            banner.save(update_fields=["active", "updated_at"])
        self.message_user(request, f"{queryset.count()} banner(s) deactivated.")

    @admin.action(description="Regenerate fitted images")
    def regenerate_images(self, request, queryset):
        ids = list(queryset.values_list("pk", flat=True))
        for banner_id in ids:
            refresh_banner_images.enqueue(banner_id, force=True)
        self.message_user(
            request,
            gettext("Regeneration of the fitted images of %(count)d banner(s) is queued.")
            % {"count": len(ids)},
        )


# --- Upsell -------------------------------------------------------------------------------


class UpsellForm(forms.ModelForm):
    location = forms.CharField(
        max_length=50,
        initial=UpsellLocation.CART,
        widget=forms.TextInput(attrs={"list": "upsell-locations"}),
        help_text=(
            "cart, checkout, or any location your front end asks for (GET /cart/upsell/{location})."
        ),
    )

    class Meta:
        model = Upsell
        fields = [
            "display_title",
            "display_description",
            "display_button_text",
            "product",
            "quantity",
            "price_rule",
            "location",
            "priority",
            "active",
            "start_at",
            "end_at",
            "trigger_products",
            "trigger_categories",
        ]


@admin.register(Upsell)
class UpsellAdmin(AutocompleteWhenSearchable, admin.ModelAdmin):
    form = UpsellForm
    list_display = [
        "display_title",
        "location",
        "product",
        "price_rule",
        "priority",
        "quantity",
        "status",
        "start_at",
        "end_at",
    ]
    list_filter = [StatusListFilter, "location", "active"]
    list_select_related = ["product", "price_rule"]
    search_fields = ["display_title", "product__name", "product__sku", "location"]
    readonly_fields = ["status", "created_at", "updated_at"]
    autocomplete_candidates = ("product", "price_rule", "trigger_products", "trigger_categories")
    fieldsets = [
        (
            "Offer",
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
            "Where and when",
            {"fields": ["location", "priority", ("active", "status"), "start_at", "end_at"]},
        ),
        (
            "Triggers (empty: always offered)",
            {"fields": ["trigger_products", "trigger_categories"]},
        ),
        ("History", {"fields": ["created_at", "updated_at"]}),
    ]

    @admin.display(description="status")
    def status(self, upsell):
        return status_badge(upsell) if upsell.pk else "-"

    def render_change_form(self, request, context, *args, **kwargs):
        context["upsell_locations"] = list(
            dict.fromkeys(
                [choice.value for choice in UpsellLocation]
                + list(Upsell.objects.values_list("location", flat=True).distinct()[:50])
            )
        )
        return super().render_change_form(request, context, *args, **kwargs)
