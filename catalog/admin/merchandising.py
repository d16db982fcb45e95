"""Admin of seals, and the related and indicated products inline on the product."""

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from infra.admin import HISTORY_FIELDSET, SafeAutocompleteMixin, thumbnail
from infra.scheduling import status_at

from ..models import ProductRelation, Seal
from ..services import MediaImageError, seal_prepare_image


class ProductRelationInline(SafeAutocompleteMixin, admin.TabularInline):
    model = ProductRelation
    fk_name = "product"
    fields = ("kind", "target", "position")
    autocomplete_fields = ("target",)
    ordering = ("kind", "position", "id")
    verbose_name = _("related or indicated product")
    verbose_name_plural = _("related and indicated products")
    extra = 0


class SealForm(forms.ModelForm):
    def _post_clean(self):
        super()._post_clean()  # the instance now carries the upload
        if "original_image" in self.changed_data and self.instance.original_image:
            if self.has_error("original_image"):
                return
            try:
                seal_prepare_image(seal=self.instance)
            except MediaImageError as exc:
                self.add_error("original_image", str(exc))


@admin.register(Seal)
class SealAdmin(SafeAutocompleteMixin, admin.ModelAdmin):
    form = SealForm
    list_display = ("status", "active", "start_at", "end_at", "thumbnail", "name", "position")
    list_display_links = ("thumbnail", "name")
    list_filter = ("active",)
    search_fields = ("name",)
    autocomplete_fields = ("products", "categories")
    readonly_fields = ("preview", "created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("name", ("original_image", "preview"), ("active", "position"))}),
        (_("Schedule"), {"fields": (("start_at", "end_at"),)}),
        (_("Shown on"), {"fields": ("products", "categories")}),
        HISTORY_FIELDSET,
    )

    @admin.display(description=_("image"))
    def thumbnail(self, seal: Seal):
        return thumbnail(seal.image or seal.original_image, height=40)

    @admin.display(description=_("preview"))
    def preview(self, seal: Seal):
        shown = thumbnail(seal.image or seal.original_image, height=96)
        if seal.width is None:
            return shown
        return format_html("{} <span>{} x {} px</span>", shown, seal.width, seal.height)

    @admin.display(description=_("status"))
    def status(self, seal: Seal) -> str:
        return str(status_at(active=seal.active, window=seal.window, moment=timezone.now()).label)
