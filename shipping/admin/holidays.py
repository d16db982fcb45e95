"""Admin of the store's holidays, with their CSV import (the flow of admin/imports)."""

from __future__ import annotations

from functools import partial

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.admin import HISTORY_FIELDSET, OwnPagesMixin

from ..imports.holidays import holidays_import
from ..imports.staging import staged_report
from ..models import Holiday, ImportKind
from .imports import CsvImportForm, import_flow, sample_view

# The CSV columns (shown on the import page) and the sample file's lines.
COLUMNS = [
    ("name", _("name of the holiday")),
    ("date", _("2027-01-25 or 25/01/2027")),
    ("yearly", _("every year on that day and month: sim/não (empty: sim)")),
    ("state_code", _("state, e.g. SP or BR-SP (empty: national)")),
    ("city", _("city of a city holiday (empty: the whole state)")),
    ("ibge_code", _("the city's IBGE code (optional)")),
]
SAMPLE = [
    "name,date,yearly,state_code,city,ibge_code",
    "Aniversário de São Paulo,2027-01-25,sim,SP,São Paulo,3550308",
    "Revolução Constitucionalista,2027-07-09,sim,SP,,",
    "Emenda de Natal,2026-12-24,não,,,",
]


@admin.register(Holiday)
class HolidayAdmin(OwnPagesMixin, admin.ModelAdmin):
    list_display = ("name", "date", "yearly", "scope", "state_code", "city")
    list_filter = ("scope", "yearly", "state_code")
    search_fields = ("name", "city")
    date_hierarchy = "date"
    readonly_fields = ("created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("name", "date", "yearly")}),
        (_("Where"), {"fields": ("scope", "state_code", "city", "ibge_code")}),
        HISTORY_FIELDSET,
    )
    own_pages = (
        ("import/", "import_view", "import"),
        (
            "import/sample.csv",
            sample_view("\n".join(SAMPLE) + "\n", "holidays-sample.csv"),
            "import_sample",
        ),
    )

    def import_view(self, request):
        if not self.has_add_permission(request):
            raise PermissionDenied
        return import_flow(
            self,
            request,
            form_class=CsvImportForm,
            title=gettext("Import holidays"),
            columns=COLUMNS,
            kind=ImportKind.HOLIDAYS,
            checked=lambda staged: gettext("File %(name)s, checked:") % {"name": staged.file_name},
            run=partial(staged_report, holidays_import),
        )
