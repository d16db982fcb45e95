from decimal import Decimal

from django import forms
from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from infra.admin import HISTORY_FIELDSET, truncated_column
from infra.numbers import money_text, percent_text

from .admin_third_party import register_third_party_admins
from .models import Customer, PaymentOption, PaymentOptionKind, SalesChannel
from .payments import cash_discount, cash_discount_terms_of, installment_plan, installment_terms_of
from .services import customers_set_active

register_third_party_admins()


class SalesChannelForm(forms.ModelForm):
    def clean_is_default(self):
        is_default = self.cleaned_data["is_default"]
        current = SalesChannel.objects.filter(is_default=True).exclude(pk=self.instance.pk)
        if is_default and (channel := current.first()):
            raise forms.ValidationError(
                _("“%(channel)s” is already the default channel: untick it there first.")
                % {"channel": channel}
            )
        return is_default


@admin.register(SalesChannel)
class SalesChannelAdmin(admin.ModelAdmin):
    form = SalesChannelForm
    list_display = (
        "active",
        "is_default",
        "name",
        truncated_column("domain", description=_("domain")),
        "updated_at",
    )
    list_display_links = ("name",)
    list_filter = ("active", "is_default")
    search_fields = ("name", "domain")
    readonly_fields = ("created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("name", "domain")}),
        (_("Status"), {"fields": ("active", "is_default")}),
        HISTORY_FIELDSET,
    )


PREVIEW_VALUE = Decimal("1000.00")


class PaymentOptionForm(forms.ModelForm):
    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("kind") or self.instance.kind
        others = PaymentOption.objects.filter(kind=kind, is_default=True).exclude(
            pk=self.instance.pk
        )
        if cleaned.get("is_default") and kind and (option := others.first()):
            self.add_error(
                "is_default",
                _("“%(option)s” is already the default %(kind)s option: untick it there first.")
                % {"option": option.name, "kind": option.get_kind_display().lower()},
            )
        return cleaned


@admin.register(PaymentOption)
class PaymentOptionAdmin(admin.ModelAdmin):
    form = PaymentOptionForm
    list_display = ("active", "is_default", "name", "kind", "terms", "updated_at")
    list_display_links = ("name",)
    list_filter = ("kind", "active", "is_default")
    search_fields = ("name",)

    cash_fieldset = (
        _("Cash discount"),
        {
            "fields": ("discount_percentage",),
            "description": _("Used by cash-discount options only."),
        },
    )
    installments_fieldset = (
        _("Installments"),
        {
            "fields": (
                "max_installments",
                "interest_free_installments",
                "monthly_interest_rate",
                "min_installment_value",
            ),
            "description": _(
                "Used by installment options only. Counts up to the interest-free one split "
                "the value evenly; above it, compound monthly interest (Tabela Price). An "
                "installment count is offered only while each installment is at least the "
                "minimum; 1x is always offered."
            ),
        },
    )

    def get_fieldsets(self, request, obj=None):
        main = (None, {"fields": ("kind", "name", "active", "is_default")})
        if obj is None:
            return (main, self.cash_fieldset, self.installments_fieldset)
        terms = (
            self.cash_fieldset
            if obj.kind == PaymentOptionKind.CASH_DISCOUNT
            else self.installments_fieldset
        )
        preview = (
            _("Preview for %(value)s") % {"value": money_text(PREVIEW_VALUE)},
            {
                "fields": ("conditions_preview",),
                "description": _("As the storefront computes it with the saved terms."),
            },
        )
        return (main, terms, preview, HISTORY_FIELDSET)

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        # The kind picks the terms that apply: storefronts may hold the id, so it stays put.
        return ("kind", "conditions_preview", "created_at", "updated_at")

    @admin.display(description=_("Terms"))
    def terms(self, obj: PaymentOption) -> str:
        if obj.kind == PaymentOptionKind.CASH_DISCOUNT:
            return _("%(percent)s off") % {"percent": percent_text(obj.discount_percentage)}
        return _(
            "up to %(max)sx, %(free)sx interest-free, %(rate)s/month, "
            "minimum installment %(minimum)s"
        ) % {
            "max": obj.max_installments,
            "free": obj.interest_free_installments,
            "rate": percent_text(obj.monthly_interest_rate),
            "minimum": money_text(obj.min_installment_value),
        }

    @admin.display(description=_("Conditions"))
    def conditions_preview(self, obj: PaymentOption) -> str:
        if obj.kind == PaymentOptionKind.CASH_DISCOUNT:
            discount = cash_discount(PREVIEW_VALUE, cash_discount_terms_of(obj))
            return _("%(percent)s off: discount %(discount)s, pays %(pays)s") % {
                "percent": percent_text(discount.discount_percentage),
                "discount": money_text(discount.discount_value),
                "pays": money_text(discount.value_with_discount),
            }
        plan = installment_plan(PREVIEW_VALUE, installment_terms_of(obj))
        rows = format_html_join(
            "",
            "<tr><td>{}x</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    entry.installment,
                    money_text(entry.installment_value),
                    money_text(entry.total_value),
                    percent_text(entry.fee),
                    money_text(entry.fee_total_value),
                )
                for entry in plan
            ),
        )
        return format_html(
            "<table><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>"
            "</thead><tbody>{}</tbody></table>",
            _("Installments"),
            _("Each"),
            _("Total"),
            _("Monthly rate"),
            _("Interest"),
            rows,
        )


@admin.register(Customer)
class CustomerAdmin(admin.ModelAdmin):
    """Passwords are never shown or set here: customers choose them."""

    list_display = (
        "active",
        "name",
        truncated_column("email", description=_("email")),
        "last_login",
        "created_at",
    )
    list_display_links = ("name",)
    list_filter = ("active",)
    search_fields = ("name", "email")
    fieldsets = (
        (None, {"fields": ("name", "email", "active")}),
        (_("Sign-in"), {"fields": ("last_login",)}),
        HISTORY_FIELDSET,
    )
    readonly_fields = ("last_login", "created_at", "updated_at")
    actions = ("deactivate",)

    @admin.action(description=_("Deactivate selected customers (they can no longer sign in)"))
    def deactivate(self, request, queryset):
        count = customers_set_active(customers=queryset, active=False)
        message = ngettext(
            "%(count)d customer deactivated.", "%(count)d customers deactivated.", count
        )
        self.message_user(request, message % {"count": count})
