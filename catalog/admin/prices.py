"""Admin of trade policies and price rules."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from infra.admin import SafeAutocompleteMixin
from infra.forms import NumberField
from infra.numbers import money_text, percent_text

from ..models import PriceRule, TradePolicy
from ..pricing import ValueType


@admin.register(TradePolicy)
class TradePolicyAdmin(admin.ModelAdmin):
    list_display = ("active", "is_default", "name", "code", "updated_at")
    list_display_links = ("name",)
    list_filter = ("active", "is_default")
    search_fields = ("name", "code")
    readonly_fields = ("created_at", "updated_at")


@admin.register(PriceRule)
class PriceRuleAdmin(SafeAutocompleteMixin, admin.ModelAdmin):
    list_display = (
        "active",
        "start_at",
        "end_at",
        "name",
        "trigger",
        "rule_target",
        "discount",
        "priority",
    )
    list_display_links = ("name",)
    list_filter = ("active", "trigger", "rule_target", "value_type", "trade_policies")
    search_fields = ("name", "code")
    autocomplete_fields = ("products", "categories", "brands")
    filter_horizontal = ("trade_policies",)
    readonly_fields = ("last_update_user_name", "created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("name", "active", "priority", "origin")}),
        (
            _("Discount"),
            {"fields": ("value", "value_type", "base_price_field", "update_comparison_price")},
        ),
        (
            _("When"),
            {
                "fields": (
                    "trigger",
                    "code",
                    ("begin_quantity", "end_quantity"),
                    "apply_in_group",
                    ("start_at", "end_at"),
                    "trade_policies",
                )
            },
        ),
        (_("Applies to"), {"fields": ("rule_target", "products", "categories", "brands")}),
        (_("History"), {"fields": ("last_update_user_name", "created_at", "updated_at")}),
    )

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "value":  # a percentage or an amount: no R$ before it
            kwargs["form_class"] = NumberField
            kwargs["help_text"] = _(
                "A percentage or an amount in R$, as the value type says (10: 10 percent off, "
                "or R$ 10 off)."
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    @admin.display(description=_("value"), ordering="value")
    def discount(self, rule: PriceRule) -> str:
        if rule.value_type == ValueType.PERCENTAGE:
            return percent_text(rule.value)
        return money_text(rule.value)

    def save_model(self, request, obj, form, change):
        obj.last_update_user_name = request.user.get_username()
        super().save_model(request, obj, form, change)
