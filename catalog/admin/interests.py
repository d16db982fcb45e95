"""Admin of product interests, with the reply form for price-on-request interests."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from ..models import InterestOrigin, InterestStatus, ProductInterest
from ..services import InterestReplyError, interest_reply

REPLY_MAX_LENGTH = 5000


class InterestReplyForm(forms.Form):
    reply = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 10, "cols": 80}),
        max_length=REPLY_MAX_LENGTH,
        help_text="Sent to the customer by e-mail as plain text.",
    )


@admin.register(ProductInterest)
class ProductInterestAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "name",
        "email",
        "product",
        "origin",
        "status",
        "replied_at",
        "reply_link",
    )
    list_filter = ("origin", "status", "created_at")
    list_select_related = ("product",)
    search_fields = ("name", "email", "product__sku", "product__name")
    date_hierarchy = "created_at"
    readonly_fields = (
        "product",
        "origin",
        "name",
        "email",
        "phone",
        "message",
        "status",
        "notified_at",
        "reply",
        "replied_at",
        "replied_by",
        "created_at",
        "updated_at",
        "reply_link",
    )
    fieldsets = (
        ("Customer", {"fields": ("name", "email", "phone")}),
        ("Interest", {"fields": ("product", "origin", "message", "created_at")}),
        (
            "Answer",
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

    def has_add_permission(self, request):
        return False  # customers register interests through the API

    def get_urls(self):
        reply = self.admin_site.admin_view(self.reply_view)
        return [
            path("<int:object_id>/reply/", reply, name="catalog_productinterest_reply"),
            *super().get_urls(),
        ]

    @admin.display(description="reply")
    def reply_link(self, interest: ProductInterest):
        if interest.origin != InterestOrigin.ON_REQUEST or interest.pk is None:
            return "-"
        url = reverse("admin:catalog_productinterest_reply", args=[interest.pk])
        label = "Reply" if interest.status == InterestStatus.PENDING else "Reply again"
        return format_html('<a class="button" href="{}">{}</a>', url, label)

    def reply_view(self, request, object_id: int):
        interest = get_object_or_404(
            ProductInterest.objects.select_related("product"), pk=object_id
        )
        if not self.has_change_permission(request, interest):
            raise PermissionDenied
        changelist = reverse("admin:catalog_productinterest_changelist")
        if interest.origin != InterestOrigin.ON_REQUEST:
            messages.error(request, "Only price-on-request interests are answered with a reply.")
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
                    request, f"Reply recorded; the e-mail to {interest.email} is queued."
                )
                return redirect(changelist)

        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Reply to {interest.name}",
            "interest": interest,
            "form": form,
            "original": interest,
            "has_view_permission": True,
        }
        return TemplateResponse(request, "admin/catalog/productinterest/reply.html", context)
