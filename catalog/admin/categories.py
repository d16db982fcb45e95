"""Admin of categories (an indented tree), brands, attributes and cargo types."""

from django.contrib import admin
from django.db import connection
from django.db.models import Count, Value
from django.db.models.functions import Collate, Replace
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from infra.admin import HISTORY_FIELDSET, SafeAutocompleteMixin, truncated

from ..models import Attribute, AttributeValue, Brand, CargoType, Category


def tree_order():
    """Depth-first order: the url with "/" sorting lowest (bytewise on PostgreSQL)."""
    path = Replace("url", Value("/"), Value(" "))
    if connection.vendor == "postgresql":
        path = Collate(path, "C")
    return path.asc()


@admin.register(Category)
class CategoryAdmin(SafeAutocompleteMixin, admin.ModelAdmin):
    list_display = ("active", "position", "indented_name", "slug", "short_url", "updated_at")
    list_display_links = ("indented_name",)
    list_editable = ("active", "position")
    list_filter = ("active",)
    search_fields = ("name", "slug", "url")
    autocomplete_fields = ("parent",)
    readonly_fields = ("url", "created_at", "updated_at")
    list_per_page = 200
    fieldsets = (
        (None, {"fields": ("name", "slug", "parent", "url")}),
        (_("Display"), {"fields": ("active", "position")}),
        HISTORY_FIELDSET,
    )
    prepopulated_fields = {"slug": ("name",)}

    def get_ordering(self, request):
        return (tree_order(), "id")

    @admin.display(description=_("URL"), ordering="url")
    def short_url(self, category: Category):
        return truncated(category.url, 40)

    @admin.display(description=_("name"), ordering="name")
    def indented_name(self, category: Category):
        depth = max(category.url.count("/") - 1, 0)
        return format_html(
            '<span style="padding-left:{}em">{}{}</span>',
            depth * 1.5,
            "└ " if depth else "",
            truncated(category.name, 40),
        )


@admin.register(Brand)
class BrandAdmin(admin.ModelAdmin):
    list_display = ("active", "name", "slug", "updated_at")
    list_display_links = ("name",)
    list_filter = ("active",)
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("created_at", "updated_at")


class AttributeValueInline(admin.TabularInline):
    model = AttributeValue
    fields = ("label", "color", "image", "order")
    extra = 1


@admin.register(Attribute)
class AttributeAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "position", "filterable", "value_count")
    search_fields = ("name", "code")
    prepopulated_fields = {"code": ("name",)}
    readonly_fields = ("created_at", "updated_at")
    inlines = [AttributeValueInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_value_count=Count("values"))

    @admin.display(description=_("values"), ordering="_value_count")
    def value_count(self, attribute) -> int:
        return attribute._value_count


@admin.register(AttributeValue)
class AttributeValueAdmin(SafeAutocompleteMixin, admin.ModelAdmin):
    list_display = ("label", "attribute", "swatch", "order")
    list_filter = ("attribute",)
    list_select_related = ("attribute",)
    search_fields = ("label", "attribute__name")
    autocomplete_fields = ("attribute",)
    readonly_fields = ("created_at", "updated_at")

    @admin.display(description=_("colour"))
    def swatch(self, value: AttributeValue):
        if not value.color:
            return "-"
        return format_html(
            '<span style="display:inline-block;width:1em;height:1em;background:{};'
            'border:1px solid #999;vertical-align:middle"></span> {}',
            value.color,
            value.color,
        )


@admin.register(CargoType)
class CargoTypeAdmin(admin.ModelAdmin):
    list_display = ("is_default", "name", "updated_at")
    list_display_links = ("name",)
    list_filter = ("is_default",)
    search_fields = ("name",)
    readonly_fields = ("created_at", "updated_at")
