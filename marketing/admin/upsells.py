"""Upsell offers."""

from django import forms
from django.contrib import admin
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from infra.admin import (
    HISTORY_FIELDSET,
    NAME_COLUMN_CHARS,
    SafeAutocompleteMixin,
    truncated,
    truncated_column,
)

from ..models import Upsell, UpsellLocation
from .common import StatusListFilter, status_column


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
class UpsellAdmin(SafeAutocompleteMixin, admin.ModelAdmin):
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
    autocomplete_fields = ["product", "price_rule", "trigger_products", "trigger_categories"]
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
        HISTORY_FIELDSET,
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
