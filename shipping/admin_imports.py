"""Admin import screens: shipping rows of a table and postal codes.

Both follow one flow: choose a file (dry run on by default) -> a summary of what would
change -> "Import these rows" (a button named `confirm`) imports the very file previewed,
kept server-side for a short time and tied to the user (imports/staging.py), so it is not
uploaded again. Postal-code files over settings.POSTAL_IMPORT_INLINE_MAX_LINES lines run in
the background (imports/jobs.py) with a status page that shows their progress.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .countries import country_get
from .imports import FileFormatError, postal_codes_import, shipping_rows_import
from .imports.jobs import postal_import_job_start
from .imports.postal_codes import CSV_COLUMNS as POSTAL_CSV_COLUMNS
from .imports.staging import (
    staged_import_create,
    staged_import_discard,
    staged_import_get,
    staged_path,
)
from .models import ImportKind, PostalImportJob, ShippingTable

SUMMARY_REJECTIONS = 20

# The CSV columns of a shipping-rows file, with their unit (shown on the form).
ROW_COLUMNS = [
    ("initial_zipcode", _("first postal code of the range"), "", "01000-000"),
    ("final_zipcode", _("last postal code of the range"), "", "19999-999"),
    ("initial_weight", _("lowest weight"), _("kg"), "0"),
    ("final_weight", _("highest weight; empty: no limit"), _("kg"), "1.5"),
    ("initial_price", _("lowest order value"), _("BRL"), "0"),
    ("final_price", _("highest order value; empty: no limit"), _("BRL"), ""),
    ("shipping_value", _("shipping price"), _("BRL"), "15.90"),
    ("begin_shipping_time", _("fewest days to deliver"), _("days"), "1"),
    ("end_shipping_time", _("most days to deliver"), _("days"), "3"),
]
OPTIONAL_ROW_COLUMNS = [
    ("extra_kg_value", _("charge per kg above the threshold (optional)"), _("BRL"), "2.50"),
    ("extra_kg_threshold", _("weight the extra charge starts from (optional)"), _("kg"), "1"),
    ("order_value_percentage", _("percentage of the order value (optional)"), "%", "0"),
    ("fixed_fee", _("fixed fee added (optional)"), _("BRL"), "0"),
]
SAMPLE_ROWS = [
    ["01000-000", "19999-999", "0", "1.5", "0", "", "15.90", "1", "3", "2.50", "1", "0", "0"],
    ["20000-000", "28999-999", "0", "", "0", "", "24.90", "2", "5", "0", "0", "0", "0"],
]


def sample_csv() -> str:
    header = [name for name, *_rest in ROW_COLUMNS + OPTIONAL_ROW_COLUMNS]
    return "\n".join(",".join(row) for row in [header, *SAMPLE_ROWS]) + "\n"


class RowsImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("UTF-8, comma-separated, with a header row (see the columns below)."),
    )
    replace = forms.BooleanField(
        required=False,
        label=_("Replace the table's rows"),
        help_text=_("Delete the rows the file does not contain (only when no line is rejected)."),
    )
    dry_run = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Dry run"),
        help_text=_(
            "Check the file without saving anything; the summary then offers to import it."
        ),
    )


class PostalImportForm(forms.Form):
    file = forms.FileField(
        label=_("File"),
        help_text=_("GeoNames postal-code dump (tab-separated) or a CSV file with a header row."),
    )
    file_format = forms.ChoiceField(
        label=_("Format"),
        choices=[("geonames", _("GeoNames (tab-separated)")), ("csv", _("CSV"))],
    )
    country = forms.CharField(
        label=_("Country"),
        required=False,
        max_length=3,
        help_text=_("ISO code of the country of a CSV file, e.g. BRA (GeoNames files name it)."),
    )
    dry_run = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Dry run"),
        help_text=_(
            "Check the file without saving anything; the summary then offers to import it."
        ),
    )

    def clean(self):
        data = super().clean()
        if data.get("file_format") == "csv":
            country = country_get(data.get("country") or "")
            if country is None:
                self.add_error("country", _("Enter the country of the CSV file, e.g. BRA."))
            else:
                data["country"] = country.alpha_3
        else:
            data["country"] = ""
        return data


def _refused(modeladmin, request, template: str, context: dict, form, message: str):
    """The form again, with why the confirmation was refused (400)."""
    return TemplateResponse(
        request, template, {**context, "form": form, "refusal": message}, status=400
    )


# --- Shipping rows ---------------------------------------------------------------------


ROWS_TEMPLATE = "admin/shipping/shippingtable/import_rows.html"


def import_rows_view(modeladmin, request, table_id: int):
    table = ShippingTable.objects.select_related("carrier").filter(pk=table_id).first()
    if table is None:
        raise Http404(gettext("No such shipping table."))
    if not modeladmin.has_change_permission(request, table):
        raise PermissionDenied
    context = {
        **modeladmin.admin_site.each_context(request),
        "opts": modeladmin.model._meta,
        "table": table,
        "title": gettext("Import rows of %(table)s") % {"table": table},
        "columns": ROW_COLUMNS,
        "optional_columns": OPTIONAL_ROW_COLUMNS,
        "sample_url": reverse("admin:shipping_shippingtable_import_rows_sample"),
        "staging_minutes": settings.IMPORT_STAGING_MINUTES,
    }
    if request.method == "POST" and "confirm" in request.POST:
        return _confirm_rows(modeladmin, request, table, context)
    form = RowsImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if not form.is_valid():
            return TemplateResponse(request, ROWS_TEMPLATE, {**context, "form": form}, status=400)
        uploaded = form.cleaned_data["file"]
        replace = form.cleaned_data["replace"]
        dry_run = form.cleaned_data["dry_run"]
        staged = None
        if dry_run:  # kept for "Import these rows": the very bytes checked now
            staged = staged_import_create(
                user=request.user,
                kind=ImportKind.SHIPPING_ROWS,
                uploaded=uploaded,
                options={"replace": replace},
                table=table,
            )
        try:
            with open(staged_path(staged), "rb") if staged else uploaded.open("rb") as stream:
                report = shipping_rows_import(
                    table=table, stream=stream, replace=replace, dry_run=dry_run
                )
        except FileFormatError as exc:
            if staged is not None:
                staged_import_discard(staged)
            form.add_error("file", str(exc))
            return TemplateResponse(request, ROWS_TEMPLATE, {**context, "form": form}, status=400)
        lines = report.summary_lines(max_rejections=SUMMARY_REJECTIONS)
        if staged is not None:
            return TemplateResponse(
                request,
                ROWS_TEMPLATE,
                {**context, "form": None, "summary": lines, "report": report, "staged": staged},
            )
        level = messages.WARNING if report.rejected else messages.SUCCESS
        for line in lines:
            modeladmin.message_user(request, line, level)
        return redirect("admin:shipping_shippingtable_change", table.pk)
    return TemplateResponse(request, ROWS_TEMPLATE, {**context, "form": form})


def _confirm_rows(modeladmin, request, table, context):
    form = RowsImportForm()
    try:
        staged = staged_import_get(
            token=request.POST.get("token", ""),
            user=request.user,
            kind=ImportKind.SHIPPING_ROWS,
            table=table,
        )
    except FileFormatError as exc:
        return _refused(modeladmin, request, ROWS_TEMPLATE, context, form, str(exc))
    with open(staged_path(staged), "rb") as stream:
        report = shipping_rows_import(
            table=table, stream=stream, replace=bool(staged.options.get("replace")), dry_run=False
        )
    staged_import_discard(staged)
    level = messages.WARNING if report.rejected else messages.SUCCESS
    for line in report.summary_lines(max_rejections=SUMMARY_REJECTIONS):
        modeladmin.message_user(request, line, level)
    return redirect("admin:shipping_shippingtable_change", table.pk)


def import_rows_sample_view(modeladmin, request):
    if not modeladmin.has_view_or_change_permission(request):
        raise PermissionDenied
    response = HttpResponse(sample_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="shipping-rows-sample.csv"'
    return response


def choose_table_view(modeladmin, request):
    """From the Shipping rows list: the table whose rows to import (or straight to it)."""
    if not modeladmin.has_change_permission(request):
        raise PermissionDenied
    table_id = request.GET.get("table", "")
    if table_id.isdigit() and ShippingTable.objects.filter(pk=int(table_id)).exists():
        return redirect("admin:shipping_shippingtable_import_rows", int(table_id))
    tables = ShippingTable.objects.select_related("carrier").order_by("carrier__name", "label")
    context = {
        **modeladmin.admin_site.each_context(request),
        "opts": modeladmin.model._meta,
        "title": gettext("Import shipping rows: choose a table"),
        "tables": tables,
    }
    return TemplateResponse(request, "admin/shipping/shippingrow/import_choose.html", context)


# --- Postal codes ----------------------------------------------------------------------


POSTAL_TEMPLATE = "admin/shipping/postalcode/import.html"


def postal_import_view(modeladmin, request):
    if not modeladmin.has_add_permission(request):
        raise PermissionDenied
    context = {
        **modeladmin.admin_site.each_context(request),
        "opts": modeladmin.model._meta,
        "title": gettext("Import postal codes"),
        "csv_columns": POSTAL_CSV_COLUMNS,
        "inline_max_lines": settings.POSTAL_IMPORT_INLINE_MAX_LINES,
        "max_body_mib": settings.ADMIN_MAX_BODY_BYTES // (1024 * 1024),
        "staging_minutes": settings.IMPORT_STAGING_MINUTES,
    }
    if request.method == "POST" and "confirm" in request.POST:
        return _confirm_postal(modeladmin, request, context)
    form = PostalImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if not form.is_valid():
            return TemplateResponse(request, POSTAL_TEMPLATE, {**context, "form": form}, status=400)
        data = form.cleaned_data
        staged = staged_import_create(
            user=request.user,
            kind=ImportKind.POSTAL_CODES,
            uploaded=data["file"],
            options={"file_format": data["file_format"], "country": data["country"]},
        )
        if staged.line_count > settings.POSTAL_IMPORT_INLINE_MAX_LINES:
            job = postal_import_job_start(staged=staged, user=request.user, dry_run=data["dry_run"])
            return redirect("admin:shipping_postalcode_import_job", job.pk)
        try:
            report = _postal_import_inline(staged, dry_run=data["dry_run"])
        except FileFormatError as exc:
            staged_import_discard(staged)
            form.add_error("file", str(exc))
            return TemplateResponse(request, POSTAL_TEMPLATE, {**context, "form": form}, status=400)
        lines = report.summary_lines(max_rejections=SUMMARY_REJECTIONS)
        if data["dry_run"]:
            return TemplateResponse(
                request,
                POSTAL_TEMPLATE,
                {**context, "form": None, "summary": lines, "staged": staged},
            )
        staged_import_discard(staged)
        _report_messages(modeladmin, request, report, lines)
        return redirect("admin:shipping_postalcode_changelist")
    return TemplateResponse(request, POSTAL_TEMPLATE, {**context, "form": form})


def _postal_import_inline(staged, *, dry_run: bool):
    with open(staged_path(staged), "rb") as stream:
        return postal_codes_import(
            stream=stream,
            file_format=staged.options["file_format"],
            country=staged.options.get("country") or None,
            dry_run=dry_run,
        )


def _report_messages(modeladmin, request, report, lines) -> None:
    level = messages.WARNING if report.rejected else messages.SUCCESS
    for line in lines:
        modeladmin.message_user(request, line, level)


def _confirm_postal(modeladmin, request, context):
    form = PostalImportForm()
    try:
        staged = staged_import_get(
            token=request.POST.get("token", ""), user=request.user, kind=ImportKind.POSTAL_CODES
        )
    except FileFormatError as exc:
        return _refused(modeladmin, request, POSTAL_TEMPLATE, context, form, str(exc))
    if staged.line_count > settings.POSTAL_IMPORT_INLINE_MAX_LINES:
        job = postal_import_job_start(staged=staged, user=request.user, dry_run=False)
        return redirect("admin:shipping_postalcode_import_job", job.pk)
    report = _postal_import_inline(staged, dry_run=False)
    staged_import_discard(staged)
    _report_messages(
        modeladmin, request, report, report.summary_lines(max_rejections=SUMMARY_REJECTIONS)
    )
    return redirect("admin:shipping_postalcode_changelist")


def postal_import_job_view(modeladmin, request, job_id: int):
    """The status page of a background import (refreshes itself while it runs)."""
    if not modeladmin.has_add_permission(request):
        raise PermissionDenied
    job = PostalImportJob.objects.select_related("staged").filter(pk=job_id).first()
    if job is None:
        raise Http404(gettext("No such import."))
    confirm_token = None
    if (
        job.finished
        and job.dry_run
        and job.status == "done"
        and job.staged is not None
        and job.staged.user_id == request.user.pk
    ):
        confirm_token = job.staged.token
    context = {
        **modeladmin.admin_site.each_context(request),
        "opts": modeladmin.model._meta,
        "title": gettext("Postal code import #%(id)s") % {"id": job.pk},
        "job": job,
        "confirm_token": confirm_token,
        "import_url": reverse("admin:shipping_postalcode_import"),
        "command": f"manage.py run_postal_import {job.pk}",
    }
    return TemplateResponse(request, "admin/shipping/postalcode/import_job.html", context)
