"""Admin of product interests, with the reply form for price-on-request interests."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import flatten_fieldsets
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from infra.admin import NAME_COLUMN_CHARS, OwnPagesMixin, badge, truncated

from ..models import InterestOrigin, InterestStatus, ProductInterest
from ..services import InterestReplyError, interest_reply

REPLY_MAX_LENGTH = 5000
STATUS_COLORS: dict[str, str] = {
    InterestStatus.PENDING: "orange",
    InterestStatus.NOTIFIED: "green",
    InterestStatus.REPLIED: "green",
}


class InterestReplyForm(forms.Form):
    reply = forms.CharField(
        label=_("Reply"),
        widget=forms.Textarea(attrs={"rows": 10, "cols": 80}),
        max_length=REPLY_MAX_LENGTH,
        help_text=_("Sent to the customer by e-mail as plain text."),
    )


@admin.register(ProductInterest)
class ProductInterestAdmin(OwnPagesMixin, admin.ModelAdmin):
    list_display = (
        "status_badge",
        "reply_link",
        "customer",
        "product_name",
        "origin",
        "created_at",
        "replied_at",
    )
    list_display_links = ("customer",)
    list_filter = ("origin", "status", "created_at")
    list_select_related = ("product",)
    search_fields = ("name", "email", "product__sku", "product__name")
    date_hierarchy = "created_at"
    fieldsets = (
        (_("Customer"), {"fields": ("name", "email", "phone")}),
        (_("Interest"), {"fields": ("product", "origin", "message", "created_at")}),
        (
            _("Answer"),
            {
                "fields": (
                    "status",
                    "notified_at",
                    "reply",
                    "replied_at",
                    "replied_by",
                    "reply_link",
                    "updated_at",
                )
            },
        ),
    )

    readonly_fields = flatten_fieldsets(fieldsets)  # staff only answer, through the reply view

    def has_add_permission(self, request):
        return False  # customers register interests through the API

    own_pages = (("<int:object_id>/reply/", "reply_view", "reply"),)

    @admin.display(description=_("status"), ordering="status")
    def status_badge(self, interest: ProductInterest):
        color = STATUS_COLORS.get(interest.status, "grey")
        return badge(interest.get_status_display(), color)

    @admin.display(description=_("customer"), ordering="name")
    def customer(self, interest: ProductInterest):
        return format_html(
            '{}<br><small class="quiet">{}</small>',
            truncated(interest.name, NAME_COLUMN_CHARS),
            truncated(interest.email, NAME_COLUMN_CHARS),
        )

    @admin.display(description=_("product"), ordering="product__name")
    def product_name(self, interest: ProductInterest):
        return truncated(interest.product.name, NAME_COLUMN_CHARS)

    @admin.display(description=_("reply"))
    def reply_link(self, interest: ProductInterest):
        if interest.origin != InterestOrigin.ON_REQUEST or interest.pk is None:
            return "-"
        url = reverse("admin:catalog_productinterest_reply", args=[interest.pk])
        label = _("Reply") if interest.status == InterestStatus.PENDING else _("Reply again")
        return format_html('<a class="button" href="{}">{}</a>', url, label)

    def reply_view(self, request, object_id: int):
        interest = get_object_or_404(
            ProductInterest.objects.select_related("product"), pk=object_id
        )
        if not self.has_change_permission(request, interest):
            raise PermissionDenied
        changelist = reverse("admin:catalog_productinterest_changelist")
        if interest.origin != InterestOrigin.ON_REQUEST:
            messages.error(request, _("Only price-on-request interests are answered with a reply."))
            return redirect(changelist)

        form = InterestReplyForm(request.POST or None, initial={"reply": interest.reply})
        if request.method == "POST" and form.is_valid():
            try:
                interest_reply(
                    interest=interest, reply=form.cleaned_data["reply"], replied_by=request.user
                )
            except InterestReplyError as exc:
                form.add_error("reply", str(exc))
            else:
                messages.success(
                    request,
                    _("Reply recorded; the e-mail to %(email)s is queued.")
                    % {"email": interest.email},
                )
                return redirect(changelist)

        title = _("Reply to %(name)s") % {"name": interest.name}
        return self.own_page(
            request, "reply.html", title, interest=interest, form=form, original=interest
        )
