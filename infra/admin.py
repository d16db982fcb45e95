"""Admin pieces for any app: the history fieldset, truncated texts, badges, short dates, safe
autocompletes, own pages, read-only logs. Change lists fit a 1366 px screen (docs/decisions.md,
issues 13 and 20): long texts and dates are cut, keeping the full text on hover.
"""

from collections.abc import Callable, Sequence
from datetime import date, datetime
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _

from infra.ids import is_db_id
from infra.numbers import money_text

if TYPE_CHECKING:  # the mixins go before admin.ModelAdmin
    from django_stubs_ext import StrOrPromise

    _ModelAdmin = admin.ModelAdmin[Any]
else:
    _ModelAdmin = object

HISTORY_FIELDSET: tuple[Any, Any] = (
    _("History"),
    {"fields": ("created_at", "updated_at"), "classes": ("collapse",)},
)

TEXT_COLUMN_CHARS, NAME_COLUMN_CHARS = 60, 32  # characters of a column (the rest on hover)

BADGE_COLORS = {
    "green": "#1e7e34",
    "blue": "#1d5fa8",
    "grey": "#6c6c6c",
    "red": "#a33",
    "orange": "#a85a00",
}


def truncated(text: object, length: int = TEXT_COLUMN_CHARS) -> str:
    """`text` cut to `length` characters, the whole text as the hover title."""
    text = "" if text is None else str(text)
    if len(text) <= length:
        return text
    return format_html('<span title="{}">{}</span>', text, Truncator(text).chars(length))


def badge(label: object, color: str) -> str:
    return format_html(
        '<span style="color:#fff;background:{};padding:2px 8px;border-radius:8px;'
        'white-space:nowrap">{}</span>',
        BADGE_COLORS.get(color, color),
        label,
    )


def thumbnail(file: Any, *, height: int = 48) -> str:
    """An image file as a small framed preview ("-" without a file)."""
    if not file:
        return "-"
    return format_html(
        '<img src="{}" alt="" style="max-height:{}px;max-width:160px;border:1px solid #ddd">',
        file.url,
        height,
    )


def moderation_badge(active: bool) -> str:
    return badge(_("Approved"), "green") if active else badge(_("Pending"), "orange")


def _column(
    field_name: str, description: Any, show: Callable[[Any], Any], name: str = ""
) -> Callable[[Any], Any]:
    """A change-list column showing `field_name` through `show`, sortable by it."""

    def column(obj: Any) -> Any:
        return show(getattr(obj, field_name))

    column.__name__ = name or f"{field_name}_column"
    return admin.display(description=description, ordering=field_name)(column)


def truncated_column(field_name: str, *, description: "StrOrPromise") -> Callable[[Any], str]:
    return _column(field_name, description, lambda value: truncated(value, NAME_COLUMN_CHARS))


def money_column(field_name: str, *, description: "StrOrPromise") -> Callable[[Any], str]:
    return _column(field_name, description, money_text)


class CountColumnsMixin(_ModelAdmin):
    """`count_columns` = {column: (relation, header)}: sortable change-list columns counting
    each row's related rows (get_queryset annotates them as `<relation>__count`)."""

    count_columns: dict[str, tuple[str, "StrOrPromise"]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, (relation, header) in cls.count_columns.items():
            setattr(cls, name, staticmethod(_column(f"{relation}__count", header, int, name)))

    def get_queryset(self, request: HttpRequest) -> Any:
        counts = [models.Count(relation) for relation, _header in self.count_columns.values()]
        return super().get_queryset(request).annotate(*counts)


def short_date(value: date | datetime | None) -> str | None:
    """`26/11/2026 10:37` (short format, local time), the long form as the hover title."""
    if value is None:
        return None
    if isinstance(value, datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
        short, full = "SHORT_DATETIME_FORMAT", "DATETIME_FORMAT"
    else:
        short, full = "SHORT_DATE_FORMAT", "DATE_FORMAT"
    return format_html(
        '<time datetime="{}" title="{}">{}</time>',
        value.isoformat(),
        date_format(value, full),
        date_format(value, short),
    )


@cache
def date_column(model: type[models.Model], field_name: str) -> Callable[[Any], str | None]:
    """A `short_date()` column headed and classed (`column-<field_name>`) as the field."""
    label = getattr(model._meta.get_field(field_name), "verbose_name", field_name)
    return _column(field_name, label, short_date, name=field_name)


def is_date_field(model: type[models.Model], name: object) -> bool:
    if not isinstance(name, str):
        return False
    try:
        return isinstance(model._meta.get_field(name), models.DateField)
    except FieldDoesNotExist:
        return False


class ShortDatesMixin(_ModelAdmin):
    """Every date column not edited in the list as `short_date()` (mixed into every
    ModelAdmin by storefront/admin_site.py)."""

    def _short_dates(self, names: Sequence[Any]) -> list[Any]:
        return [
            date_column(self.model, name)  # type: ignore[arg-type]  # a class is hashable
            if is_date_field(self.model, name) and name not in self.list_editable
            else name
            for name in names
        ]

    def get_list_display(self, request: HttpRequest) -> Any:
        return self._short_dates(super().get_list_display(request))

    def get_list_display_links(self, request: HttpRequest, list_display: Any) -> Any:
        links = super().get_list_display_links(request, list_display)
        return self._short_dates(links) if links else links


def _is_id(value: object) -> bool:
    return str(value).isdigit() and is_db_id(int(str(value)))


class IdAutocompleteSelect(AutocompleteSelect):
    def optgroups(self, name: str, value: Any, attr: Any = None) -> Any:
        """Only the values that can be ids: the widget looks them up to re-display a refused
        form."""
        return super().optgroups(name, [v for v in value if _is_id(v)], attr)


class IdAutocompleteSelectMultiple(IdAutocompleteSelect, AutocompleteSelectMultiple):
    pass


class IdModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    def _check_values(self, value: Any) -> Any:
        bad = next((v for v in value if not _is_id(v)), None)
        if bad is not None:
            raise forms.ValidationError(
                self.error_messages["invalid_pk_value"],
                code="invalid_pk_value",
                params={"pk": bad},
            )
        return super()._check_values(value)  # type: ignore[misc]  # private: not in the stubs


class SafeAutocompleteMixin(_ModelAdmin):
    """Autocomplete fields that refuse garbage ids as a form error (Django's: a 500)."""

    def formfield_for_foreignkey(self, db_field: Any, request: Any, **kwargs: Any) -> Any:
        if db_field.name in self.get_autocomplete_fields(request):
            kwargs["widget"] = IdAutocompleteSelect(db_field, self.admin_site)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field: Any, request: Any, **kwargs: Any) -> Any:
        if db_field.name in self.get_autocomplete_fields(request):
            kwargs["widget"] = IdAutocompleteSelectMultiple(db_field, self.admin_site)
            kwargs["form_class"] = IdModelMultipleChoiceField
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class OwnPagesMixin(_ModelAdmin):
    """`own_pages` = ((route, view, name), ...): `view` a method's name or a function
    `view(modeladmin, request, ...)`, behind the admin's login, named `<app>_<model>_<name>`."""

    own_pages: tuple[tuple[str, Any, str], ...] = ()

    def get_urls(self) -> list[URLPattern]:
        opts = self.model._meta
        return [
            path(
                route,
                self.admin_site.admin_view(
                    getattr(self, view) if isinstance(view, str) else partial(view, self)
                ),
                name=f"{opts.app_label}_{opts.model_name}_{name}",
            )
            for route, view, name in self.own_pages
        ] + super().get_urls()

    def page_context(self, request: HttpRequest, title: "StrOrPromise", **context: Any) -> dict:
        opts = self.model._meta
        return {**self.admin_site.each_context(request), "opts": opts, "title": title, **context}

    def own_page(
        self, request: HttpRequest, template: str, title: "StrOrPromise", **context: Any
    ) -> TemplateResponse:
        """An own page in the admin's frame, its template in ``admin/<app>/<model>/``."""
        opts = self.model._meta
        template = f"admin/{opts.app_label}/{opts.model_name}/{template}"
        return TemplateResponse(request, template, self.page_context(request, title, **context))


class ReadOnlyAdminMixin:
    """Before admin.ModelAdmin: a log staff read (and may delete from), never add or edit."""

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


STAFF_ERRORS = {
    400: _("The request could not be processed."),
    403: _("You do not have permission to see this page."),
    404: _("This page does not exist."),
    500: _("Something went wrong on our side; the error was recorded."),
}


def is_staff_path(request: HttpRequest) -> bool:
    return request.path.startswith(settings.ADMIN_PATH_PREFIX)


def staff_error_page(request: HttpRequest, status: int) -> HttpResponse:
    """An error under /admin/ as a page of the admin in the staff member's language, not the
    API's JSON envelope. A 500 renders without the admin's frame (which reads the database)."""
    if status == 500:
        page = loader.get_template("admin/server_error.html").render({"title": STAFF_ERRORS[500]})
        return HttpResponse(page, status=500)
    context = {"title": STAFF_ERRORS[status], "status": status}
    if getattr(request, "user", None) is not None:  # a refusal above authentication has none
        context |= admin.site.each_context(request)
    return TemplateResponse(request, "admin/error_page.html", context, status=status).render()
