"""The storefront's searches per week: the most searched texts and those that found nothing
(counted after the answers: catalog.services.searches_count)."""

from datetime import date, timedelta
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from infra.admin import ReadOnlyAdminMixin

from ..models import SearchCount

WEEKS_OFFERED = 12


def this_week() -> date:
    today = timezone.localdate()
    return today - timedelta(days=today.weekday())


class WeekFilter(admin.SimpleListFilter):
    """This week by default; earlier weeks by their Monday."""

    title = _("week")
    parameter_name = "week"

    def lookups(self, request: Any, model_admin: Any) -> list[tuple[str, Any]]:
        current = this_week()
        weeks = [current - timedelta(weeks=n) for n in range(WEEKS_OFFERED)]
        return [
            (
                week.isoformat(),
                _("This week") if week == current else date_format(week, "SHORT_DATE_FORMAT"),
            )
            for week in weeks
        ] + [("all", _("All weeks"))]

    def value(self) -> str:
        return super().value() or this_week().isoformat()

    def choices(self, changelist: Any) -> Any:
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request: Any, queryset: QuerySet) -> QuerySet:
        chosen = self.value()
        if chosen == "all":
            return queryset
        try:
            return queryset.filter(week=date.fromisoformat(chosen))
        except ValueError:
            return queryset.none()


@admin.register(SearchCount)
class SearchCountAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("query", "searches", "results", "found_nothing", "week")
    list_filter = (WeekFilter, "found_nothing")
    search_fields = ("query",)
    ordering = ("-week", "-searches", "query")
    list_per_page = 50
