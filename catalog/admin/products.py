"""Admin of products: prices, stock per storage, medias, descriptions and variations inline."""

import copy
from decimal import Decimal

from django import forms
from django.contrib import admin
from django.db import models
from django.db.models import Q, Sum
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from infra.admin import HISTORY_FIELDSET, SafeAutocompleteMixin, thumbnail, truncated
from infra.numbers import money_text

from ..models import Product, ProductDescription, ProductMedia, ProductPrice, Stock
from ..pricing import PRICE_CHANGE_FACTOR, price_change_needs_confirmation
from ..selectors import selling_prices_get
from ..services import MediaImageError, media_prepare_image
from .merchandising import ProductRelationInline

# The product page's checkbox confirming large price changes (change_form.html).
CONFIRM_PRICE_CHANGE = "confirm_price_change"


def confirming_widget(widget: forms.Widget) -> forms.Widget:
    """`widget` followed by the "Confirm price change" box: the confirmation sits right under
    the price it guards (a 4,000 px product page once had it at the bottom)."""

    class Confirming(type(widget)):  # type: ignore[misc]
        def render(self, name, value, attrs=None, renderer=None):
            return format_html(
                '{}<div class="price-change-confirmation" id="{}-confirmation">'
                '<input type="checkbox" name="{}" value="1" id="id_{}-{}">'
                '<label class="vCheckboxLabel" for="id_{}-{}">{}</label></div>',
                super().render(name, value, attrs, renderer),
                name,
                CONFIRM_PRICE_CHANGE,
                CONFIRM_PRICE_CHANGE,
                name,
                CONFIRM_PRICE_CHANGE,
                name,
                _("Confirm price change"),
            )

    confirming = copy.copy(widget)
    confirming.__class__ = Confirming
    return confirming


class PriceChangeForm(forms.ModelForm):
    """Refuses a large change of `price_fields` until "Confirm price change" (under the
    field) is ticked."""

    price_fields: tuple[str, ...] = ()

    def clean(self):
        cleaned = super().clean()
        if self.data.get(CONFIRM_PRICE_CHANGE):
            return cleaned
        for name in self.price_fields:
            old, new = self.initial.get(name), cleaned.get(name)
            if not (isinstance(old, Decimal) and isinstance(new, Decimal)):
                continue
            if price_change_needs_confirmation(old, new):
                self.fields[name].widget = confirming_widget(self.fields[name].widget)
                self.add_error(
                    name,
                    _(
                        "%(new)s is more than %(factor)d times %(old)s or less than its "
                        "fraction: check it, then tick “Confirm price change” to save it."
                    )
                    % {
                        "new": money_text(new),
                        "old": money_text(old),
                        "factor": PRICE_CHANGE_FACTOR,
                    },
                )
        return cleaned


class ProductPriceForm(PriceChangeForm):
    price_fields = ("sale_price",)


class BasePriceForm(PriceChangeForm):
    price_fields = ("base_price",)


# Typed addresses without a scheme are taken as https (Django 6's default, said now).
URL_FIELD_OVERRIDES = {models.URLField: {"assume_scheme": "https"}}


class ProductPriceInline(admin.TabularInline):
    model = ProductPrice
    form = ProductPriceForm
    fields = ("trade_policy", "sale_price", "comparison_price", "markup", "available_for_sale")
    extra = 0

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("trade_policy")  # the row captions


class StockInline(SafeAutocompleteMixin, admin.TabularInline):
    model = Stock
    fields = ("storage", "available", "reserved", "updated_at")
    readonly_fields = ("updated_at",)
    autocomplete_fields = ("storage",)
    extra = 0

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("storage")  # the row captions


class ProductMediaForm(forms.ModelForm):
    """Reads an uploaded image's sizes (and makes a web copy); the admin gives it its Meta."""

    def _post_clean(self):
        super()._post_clean()  # the instance now carries the upload
        if "original_file" in self.changed_data and self.instance.original_file:
            try:
                media_prepare_image(media=self.instance)
            except MediaImageError as exc:
                self.add_error("original_file", str(exc))


class ProductMediaInline(admin.StackedInline):
    """Stacked, two fields a line: as a table its eight columns were 1,760 px wide."""

    model = ProductMedia
    form = ProductMediaForm
    formfield_overrides = URL_FIELD_OVERRIDES
    fields = (
        ("thumbnail", "dimensions"),
        ("type", "position"),
        ("original_file", "url"),
        ("title", "alternative_text"),
    )
    readonly_fields = ("thumbnail", "dimensions")
    extra = 0

    @admin.display(description=_("preview"))
    def thumbnail(self, media: ProductMedia):
        return thumbnail(media.file or media.original_file, height=60)

    @admin.display(description=_("size"))
    def dimensions(self, media: ProductMedia) -> str:
        if media.width is None:
            return "-"
        kilobytes = (media.size or 0) // 1024
        return f"{media.width} x {media.height} px, {kilobytes} KB"


class ProductDescriptionInline(admin.StackedInline):
    model = ProductDescription
    formfield_overrides = URL_FIELD_OVERRIDES
    extra = 0
    classes = ("collapse",)
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "trade_policy",
                    "name",
                    "short_description",
                    "description",
                    "search_description",
                    "video_url",
                    "measure_table",
                    ("custom_description_1", "custom_description_2", "custom_description_3"),
                )
            },
        ),
        (
            _("SEO"),
            {
                "fields": (
                    "seo_title",
                    "seo_description",
                    "seo_keywords",
                    "seo_canonical",
                    "seo_social_title",
                    "seo_social_description",
                    "seo_twitter_image_url",
                    "seo_graph_image_url",
                    "seo_google_category_id",
                    "seo_index_on_google",
                    ("seo_google_condition", "seo_google_age_group", "seo_google_gender"),
                )
            },
        ),
    )


class VariationInline(SafeAutocompleteMixin, admin.TabularInline):
    model = Product
    form = BasePriceForm
    fk_name = "parent"
    verbose_name = _("variation")
    verbose_name_plural = _("variations")
    fields = ("sku", "name", "attribute_values", "base_price", "active")
    autocomplete_fields = ("attribute_values",)
    show_change_link = True
    extra = 0


class ProductAdminForm(BasePriceForm):
    def clean(self):
        cleaned = super().clean()
        values = cleaned.get("attribute_values")
        if values:
            attributes = [value.attribute_id for value in values]
            if len(attributes) != len(set(attributes)):
                self.add_error("attribute_values", _("Choose at most one value per attribute."))
        return cleaned


@admin.register(Product)
class ProductAdmin(SafeAutocompleteMixin, admin.ModelAdmin):
    form = ProductAdminForm
    list_display = (
        "active",
        "sku",
        "short_name",
        "type",
        "brand",
        "main_category",
        "price",
        "available_stock",
    )
    list_display_links = ("sku", "short_name")
    list_filter = (
        "active",
        "type",
        "is_gift_card",
        "service",
        "brand",
        "main_category",
        "cargo_type",
    )
    list_select_related = ("brand", "main_category")
    search_fields = ("sku", "name", "ean", "mpn")
    autocomplete_fields = (
        "brand",
        "main_category",
        "categories",
        "cargo_type",
        "parent",
        "attribute_values",
    )
    readonly_fields = ("created_at", "updated_at")
    inlines = [
        ProductPriceInline,
        StockInline,
        ProductMediaInline,
        ProductDescriptionInline,
        VariationInline,
        ProductRelationInline,
    ]
    fieldsets = (
        (None, {"fields": ("name", "sku", "slug", "type", "active", "priority", "base_price")}),
        (_("Catalog"), {"fields": ("brand", "main_category", "categories")}),
        (_("Variation"), {"fields": ("parent", "attribute_values"), "classes": ("collapse",)}),
        (
            _("Flags"),
            {
                "fields": (
                    "is_gift_card",
                    "subscription",
                    "service",
                    "show_in_site",
                    "sale_without_stock",
                    "minimum_stock",
                )
            },
        ),
        (_("Tax"), {"fields": ("mpn", "ean", "ncm", "tax_exclusive")}),
        (
            _("Dimensions"),
            {"fields": ("cargo_type", "additional_time", ("width", "height", "length"), "weight")},
        ),
        HISTORY_FIELDSET,
    )

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(_available=Sum("stocks__available", filter=Q(stocks__storage__active=True)))
        )

    def get_changelist_instance(self, request):
        changelist = super().get_changelist_instance(request)
        changelist.result_list = list(changelist.result_list)
        prices = selling_prices_get(changelist.result_list)
        for product in changelist.result_list:
            product.selling_price = prices[product.pk]
        return changelist

    @admin.display(description=_("price"))
    def price(self, product: Product):
        selling = product.selling_price.sale_price  # type: ignore[attr-defined]  # the changelist's
        if selling == product.base_price:
            return money_text(selling)
        return format_html(
            '{}<br><small style="color:var(--body-quiet-color)">{}</small>',
            money_text(selling),
            _("base price %(price)s") % {"price": money_text(product.base_price)},
        )

    @admin.display(description=_("name"), ordering="name")
    def short_name(self, product: Product):
        return truncated(product.name, 48)

    @admin.display(description=_("stock"), ordering="_available")
    def available_stock(self, product: Product) -> int:
        return product._available or 0  # type: ignore[attr-defined]  # get_queryset annotates it
