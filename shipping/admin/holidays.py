"""Admin of the store's holidays, with their CSV import (the flow of admin/imports)."""

from __future__ import annotations

from functools import partial

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.template.response import TemplateResponse
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.admin import HISTORY_FIELDSET, OwnPagesMixin

from ..calendar import AppliedHoliday, package_holidays_named
from ..countries import state_choices
from ..imports.holidays import holidays_import
from ..imports.staging import staged_report
from ..models import Holiday, HolidayScope, ImportKind
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
    list_display = ("name", "when", "yearly", "scope", "state_code", "city")
    list_filter = ("scope", "yearly", "state_code")
    search_fields = ("name", "city")
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
        ("applied/", "applied_view", "applied"),
    )

    @admin.display(description=_("date"), ordering="date")
    def when(self, obj: Holiday) -> str:
        """A yearly holiday by its day and month ("25 de janeiro"), another by its date."""
        if obj.yearly:
            return formats.date_format(obj.date, "MONTH_DAY_FORMAT")
        return formats.date_format(obj.date, "SHORT_DATE_FORMAT")

    def applied_view(self, request):
        """The holidays the quotes skip in a year and a state (read only): Brazil's and the
        state's from the `holidays` package, and the store's own, each marked by source."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        today = timezone.localdate()
        year_text = request.GET.get("year", "")
        year = (
            int(year_text) if year_text.isdigit() and 1900 < int(year_text) < 2200 else today.year
        )
        states = dict(state_choices("BRA"))
        state = request.GET.get("state", "BR-SP")
        state = state if state in states else "BR-SP"
        applied = [*package_holidays_named(year, state), *store_holidays(year, state)]
        sources = {
            "package-national": gettext("National (holidays package)"),
            "package-state": gettext("State (holidays package)"),
            "store-national": gettext("Store: national"),
            "store-state": gettext("Store: state"),
            "store-city": gettext("Store: city"),
        }
        rows = [
            (holiday.day, holiday.name, sources[holiday.source], holiday.city)
            for holiday in sorted(applied, key=lambda holiday: (holiday.day, holiday.source))
        ]
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": gettext("Holidays applied in %(year)d, %(state)s")
            % {"year": year, "state": states[state]},
            "rows": rows,
            "year": year,
            "state": state,
            "states": sorted(states.items(), key=lambda item: item[1]),
        }
        return TemplateResponse(request, "admin/shipping/holiday/applied.html", context)

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


def store_holidays(year: int, state: str) -> list[AppliedHoliday]:
    """The store's own holidays that fall in `year` nationally or in `state` (its cities')."""
    found = []
    where = Q(scope=HolidayScope.NATIONAL) | Q(state_code=state)
    for holiday in Holiday.objects.filter(where).order_by("date"):
        if holiday.yearly:
            try:
                day = holiday.date.replace(year=year)
            except ValueError:  # 29 February of a year that has none
                continue
        elif holiday.date.year == year:
            day = holiday.date
        else:
            continue
        source = {"national": "store-national", "state": "store-state"}.get(
            holiday.scope, "store-city"
        )
        found.append(AppliedHoliday(day, holiday.name, source, holiday.city))
    return found
