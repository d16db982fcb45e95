"""Admin of postal codes (search, CSV import in the background) and their import jobs."""

from django.contrib import admin
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _

from infra.admin import HISTORY_FIELDSET, OwnPagesMixin, ReadOnlyAdminMixin, truncated_column

from ..models import PostalCode, PostalImportJob
from ..postal import search_words
from . import imports


@admin.register(PostalCode)
class PostalCodeAdmin(OwnPagesMixin, admin.ModelAdmin):
    list_display = (
        "postal_code",
        "country",
        truncated_column("public_place", description=_("public place")),
        "district",
        "city",
        "state_code",
    )
    list_filter = ("country",)
    search_fields = ("search",)  # for the search box; get_search_results does the searching
    search_help_text = _(
        "Postal code, street, district or city: every word typed, in any part of the address "
        "(accents ignored); a code whole or in part, with or without the hyphen."
    )
    readonly_fields = ("created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("country", "code")}),
        (
            _("Address"),
            {
                "fields": (
                    "public_place",
                    "complement",
                    "district",
                    "city",
                    "state_code",
                    ("latitude", "longitude"),
                )
            },
        ),
        HISTORY_FIELDSET,
    )
    # Millions of rows: no COUNT(*) of the whole table on every page.
    show_full_result_count = False
    list_per_page = 50
    own_pages = (
        ("import/", imports.postal_import_view, "import"),
        ("import/sample.csv", imports.postal_import_sample_view, "import_sample"),
        ("import/jobs/<int:job_id>/", imports.postal_import_job_view, "import_job"),
    )

    @admin.display(description=_("postal code"), ordering="code")
    def postal_code(self, obj: PostalCode) -> str:
        return obj.display_code

    def get_search_results(self, request, queryset, search_term):
        # Every word in the code or the address words ("sao paulo", "01310", "01310-100"),
        # on the generated column `search` (a trigram index on PostgreSQL: see migration 0008).
        words = search_words(search_term)
        for word in words:
            queryset = queryset.filter(search__contains=word)
        return queryset, False


@admin.register(PostalImportJob)
class PostalImportJobAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Background postal-code imports (started from Postal codes > Import): read only."""

    list_display = ("status", "__str__", "dry_run", "rows_read", "rows_rejected", "created_at")
    list_display_links = ("__str__",)
    list_filter = ("status", "dry_run")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if object_id.isdigit():
            return redirect("admin:shipping_postalcode_import_job", int(object_id))
        return super().change_view(request, object_id, form_url, extra_context)
