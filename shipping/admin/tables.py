"""Admin of carriers, shipping tables (rows, CSV upload) and pickup points."""

from decimal import Decimal, InvalidOperation

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from infra.admin import (
    HISTORY_FIELDSET,
    CountColumnsMixin,
    OwnPagesMixin,
    SafeAutocompleteMixin,
    money_column,
    truncated,
    truncated_column,
)
from infra.forms import MoneyField, NumberField, WeightField
from infra.numbers import money_text, range_text, weight_text

from ..models import (
    MAX_ORDER_VALUE,
    MAX_WEIGHT,
    ROW_COLUMNS,
    VARIABLE_FIELDS,
    Carrier,
    CarrierIntegration,
    Pickup,
    ShippingRow,
    ShippingTable,
    ShippingTableKind,
)
from . import imports


class TableFilter(admin.SimpleListFilter):
    """Filter by shipping table, listing tables with their carrier in one query."""

    title = _("shipping table")
    parameter_name = "table"

    def lookups(self, request, model_admin):
        tables = ShippingTable.objects.select_related("carrier").order_by("carrier__name", "label")
        return [(str(table.pk), str(table)) for table in tables]

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(table_id=int(value))
        return queryset


@admin.register(Carrier)
class CarrierAdmin(CountColumnsMixin, admin.ModelAdmin):
    list_display = ("active", "name", "tracking_url", "table_count")
    list_display_links = ("name",)
    list_filter = ("active",)
    search_fields = ("name",)
    readonly_fields = ("created_at", "updated_at")
    count_columns = {"table_count": ("tables", _("tables"))}

    @admin.display(description=_("tracking URL template"))
    def tracking_url(self, obj):
        return truncated(obj.tracking_url_template)


class PickupInline(admin.StackedInline):
    model = Pickup
    extra = 0
    fields = (
        ("name", "type", "active", "position"),
        ("zip_code", "address", "number", "complement"),
        ("district", "city", "state_code", "country_code"),
        ("latitude", "longitude"),
        "opening_hours",
    )


@admin.register(ShippingTable)
class ShippingTableAdmin(CountColumnsMixin, OwnPagesMixin, SafeAutocompleteMixin, admin.ModelAdmin):
    list_display = ("active", "label", "carrier", "kind", "country", "row_count")
    list_display_links = ("label",)
    list_filter = ("active", "kind", "country", "carrier")
    list_select_related = ("carrier",)
    search_fields = ("label", "integration_code", "external_shipping_code", "carrier__name")
    autocomplete_fields = ("carrier",)
    filter_horizontal = ("storages", "cargo_types")
    readonly_fields = ("rows_link", "created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("label", "carrier", "kind", "country", "active")}),
        (_("Delivery days"), {"fields": ("delivers_on_saturdays",)}),
        (_("Codes"), {"fields": ("integration_code", "external_shipping_code")}),
        (_("Serves"), {"fields": ("storages", "cargo_types")}),
        (_("Rows"), {"fields": ("rows_link",)}),
        HISTORY_FIELDSET,
    )
    inlines = [PickupInline]
    count_columns = {"row_count": ("rows", _("rows"))}
    own_pages = (
        ("<int:table_id>/import-rows/", imports.import_rows_view, "import_rows"),
        ("import-rows/sample.csv", imports.import_rows_sample_view, "import_rows_sample"),
    )

    def get_inlines(self, request, obj):
        # Pickup points belong to pickup tables only.
        return self.inlines if obj is not None and obj.kind == ShippingTableKind.PICKUP else []

    @admin.display(description=_("rows"))
    def rows_link(self, obj):
        if obj.pk is None:
            return _("Save the table first, then add or import its rows.")
        if obj.kind == ShippingTableKind.LIVE:  # priced by its carrier integration, no rows
            integration = CarrierIntegration.objects.filter(table=obj).first()
            url = (
                reverse("admin:shipping_carrierintegration_change", args=[integration.pk])
                if integration
                else reverse("admin:shipping_carrierintegration_add") + f"?table={obj.pk}"
            )
            text = _("Live prices: its carrier integration")
            return format_html('<a href="{}">{}</a>', url, text)
        rows_url = reverse("admin:shipping_shippingrow_changelist") + f"?table={obj.pk}"
        add_url = reverse("admin:shipping_shippingrow_add") + f"?table={obj.pk}"
        import_url = reverse("admin:shipping_shippingtable_import_rows", args=[obj.pk])
        count = obj.rows__count  # get_queryset counted them
        return format_html(
            '<a href="{}">{}</a> &middot; <a href="{}">{}</a> &middot; <a href="{}">{}</a>',
            rows_url,
            ngettext("%(count)d row", "%(count)d rows", count) % {"count": count},
            add_url,
            _("Add a row"),
            import_url,
            _("Import rows from CSV"),
        )


class NoLimit(NumberField):
    """An upper bound where empty means "no limit" (stored as `limit`, shown empty)."""

    def __init__(self, *, limit, **kwargs):
        self.limit = limit
        super().__init__(required=False, min_value=0, help_text=_("Empty: no limit."), **kwargs)

    def prepare_value(self, value):
        try:
            if value not in (None, "") and Decimal(str(value)) >= self.limit:
                return ""
        except (InvalidOperation, ValueError):
            pass  # what was typed, shown again with its error
        return super().prepare_value(value)

    def to_python(self, value):
        number = super().to_python(value)
        return self.limit if number is None else number


class NoLimitWeightField(NoLimit, WeightField):
    pass


class NoLimitMoneyField(NoLimit, MoneyField):
    pass


class ShippingRowForm(forms.ModelForm):
    final_weight = NoLimitWeightField(
        limit=MAX_WEIGHT, max_digits=10, decimal_places=3, label=_("Final weight (kg)")
    )
    final_price = NoLimitMoneyField(
        limit=MAX_ORDER_VALUE, max_digits=12, decimal_places=2, label=_("Final order value (BRL)")
    )

    class Meta:
        model = ShippingRow
        fields = ["table", *ROW_COLUMNS, *VARIABLE_FIELDS]  # the import's columns


@admin.register(ShippingRow)
class ShippingRowAdmin(OwnPagesMixin, SafeAutocompleteMixin, admin.ModelAdmin):
    form = ShippingRowForm
    list_display = (
        "zipcode_range",
        "table",
        "weight_range",
        "order_value_range",
        money_column("shipping_value", description=_("shipping value")),
        "days",
    )
    list_filter = ("table__carrier", TableFilter)
    search_fields = ("=initial_zipcode", "=final_zipcode", "table__label")
    autocomplete_fields = ("table",)
    readonly_fields = ("created_at", "updated_at")
    list_per_page = 100
    show_full_result_count = False
    own_pages = (("import/", imports.choose_table_view, "import"),)
    fieldsets = (
        (None, {"fields": ("table",)}),
        (
            _("Ranges (inclusive)"),
            {
                "fields": (
                    ("initial_zipcode", "final_zipcode"),
                    ("initial_weight", "final_weight"),
                    ("initial_price", "final_price"),
                )
            },
        ),
        (
            _("Price and days"),
            {"fields": ("shipping_value", ("begin_shipping_time", "end_shipping_time"))},
        ),
        (
            _("Variables (extra charges; 0 = none)"),
            {
                "fields": (
                    ("extra_kg_value", "extra_kg_threshold"),
                    "order_value_percentage",
                    "fixed_fee",
                )
            },
        ),
        HISTORY_FIELDSET,
    )

    def get_queryset(self, request):
        # the rows' captions read the table (the change form too, not only the list)
        return super().get_queryset(request).select_related("table__carrier")

    @admin.display(description=_("postal codes"), ordering="initial_zipcode")
    def zipcode_range(self, obj: ShippingRow) -> str:
        return obj.zipcode_range()

    @admin.display(description=_("weight (kg)"), ordering="initial_weight")
    def weight_range(self, obj: ShippingRow) -> str:
        return range_text(obj.initial_weight, obj.final_weight, weight_text, MAX_WEIGHT)

    @admin.display(description=_("order value (BRL)"), ordering="initial_price")
    def order_value_range(self, obj: ShippingRow) -> str:
        return range_text(obj.initial_price, obj.final_price, money_text, MAX_ORDER_VALUE)

    @admin.display(description=_("days"), ordering="begin_shipping_time")
    def days(self, obj: ShippingRow) -> str:
        if obj.begin_shipping_time == obj.end_shipping_time:
            return str(obj.begin_shipping_time)
        return f"{obj.begin_shipping_time}-{obj.end_shipping_time}"


@admin.register(Pickup)
class PickupAdmin(SafeAutocompleteMixin, admin.ModelAdmin):
    list_display = ("active", "short_name", "table", "type", "city", "state_code")
    list_display_links = ("short_name",)
    list_filter = ("active", "type", TableFilter)
    list_select_related = ("table", "table__carrier")
    search_fields = ("name", "city", "zip_code", "address")
    autocomplete_fields = ("table",)
    readonly_fields = ("created_at", "updated_at")

    short_name = staticmethod(truncated_column("name", description=_("name")))
