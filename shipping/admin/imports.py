"""Admin import screens: shipping rows of a table, postal codes (and, from admin/holidays,
holidays). One flow: choose a file (dry run by default) -> a summary of what would change ->
"Import these rows" (`confirm`) imports the very file previewed, kept server-side for the
user (imports/staging.py). Large postal-code files run in the background (imports/jobs.py).
"""

from __future__ import annotations

from functools import partial

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

from ..countries import country_choices, country_name
from ..imports.base import FileFormatError
from ..imports.jobs import postal_import_job_start
from ..imports.postal_codes import detect_format, postal_codes_import
from ..imports.shipping_rows import shipping_rows_import
from ..imports.staging import (
    staged_import_create,
    staged_import_discard,
    staged_import_get,
    staged_report,
)
from ..models import ImportKind, JobStatus, PostalFileFormat, PostalImportJob, ShippingTable

SUMMARY_REJECTIONS = 20

# The CSV columns of an import: (name, meaning, unit, example), shown on its form (the
# columns table) and written to its sample file (the examples, then SAMPLE_ROWS).
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
# A region without weight limit.
SAMPLE_ROWS = [["20000-000", "28999-999", "0", "", "0", "", "24.90", "2", "5", "0", "0", "0", "0"]]

POSTAL_COLUMNS = [  # imports.postal_codes.CSV_COLUMNS, in order
    ("zip_code", _("postal code, with or without hyphen"), "", "01310-100"),
    ("public_place", _("street; may be empty"), "", "Avenida Paulista"),
    ("complement", _("complement, e.g. the numbers of the street; may be empty"), "", ""),
    ("district", _("district; may be empty"), "", "Bela Vista"),
    ("city", _("city"), "", "São Paulo"),
    (
        "state",
        _("state: its two-letter code (UF), e.g. SP (BR-SP or the name also work)"),
        "",
        "SP",
    ),
    ("latitude", _("latitude; may be empty (then with the longitude)"), _("degrees"), "-23.5614"),
    ("longitude", _("longitude; may be empty (then with the latitude)"), _("degrees"), "-46.6559"),
]
POSTAL_SAMPLE_ROWS = [
    ["20040-020", "Avenida Rio Branco", "", "Centro", "Rio de Janeiro", "RJ", "", ""]
]


def sample_csv(columns, rows) -> str:
    lines = [[name for name, *_rest in columns], [column[3] for column in columns], *rows]
    return "\n".join(",".join(line) for line in lines) + "\n"


def sample_view(text: str, file_name: str):
    """The admin view (an `own_pages` entry) serving the sample file of an import."""

    def view(modeladmin, request):
        if not modeladmin.has_view_or_change_permission(request):
            raise PermissionDenied
        response = HttpResponse(text, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{file_name}"'
        return response

    return view


import_rows_sample_view = sample_view(
    sample_csv(ROW_COLUMNS + OPTIONAL_ROW_COLUMNS, SAMPLE_ROWS), "shipping-rows-sample.csv"
)
postal_import_sample_view = sample_view(
    sample_csv(POSTAL_COLUMNS, POSTAL_SAMPLE_ROWS), "postal-codes-sample.csv"
)


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("UTF-8, comma-separated, with a header row (see the columns below)."),
    )
    dry_run = forms.BooleanField(  # a dry run first, by default
        required=False,
        initial=True,
        label=_("Dry run"),
        help_text=_(
            "Check the file without saving anything; the summary then offers to import it."
        ),
    )


class RowsImportForm(CsvImportForm):
    field_order = ("file", "replace", "dry_run")
    replace = forms.BooleanField(
        required=False,
        label=_("Replace the table's rows"),
        help_text=_("Delete the rows the file does not contain (only when no line is rejected)."),
    )


class PostalImportForm(CsvImportForm):
    field_order = ("file", "country", "dry_run")
    file = forms.FileField(
        label=_("File"),
        help_text=_(
            "A GeoNames postal-code dump (e.g. BR.txt) or a CSV file with a header row (see "
            "the columns below; the state as its two-letter code, e.g. SP). The format is "
            "recognised from the file."
        ),
    )
    country = forms.ChoiceField(
        label=_("Country"),
        choices=country_choices,  # a callable: the names in the staff member's language
        initial=lambda: settings.STORE_COUNTRY,  # read per form, as settings may change
        help_text=_(
            "The country of every line of a CSV file (the store's, unless you change it). A "
            "GeoNames dump names the country on each line."
        ),
    )


def postal_import_options(data: dict) -> dict:
    """What the kept upload of a postal-code import remembers: the format its file tells,
    and the country of a CSV file."""
    file_format = detect_format(data["file"])
    csv = file_format == PostalFileFormat.CSV
    return {"file_format": str(file_format), "country": data["country"] if csv else ""}


def import_flow(
    modeladmin,
    request,
    *,
    form_class,
    title,
    kind,
    checked,
    run,
    own_page="import",
    done="",
    options=lambda data: {},
    table=None,
    **extra,
):
    """The flow of every import (see the module doc), the admin's own page `own_page` (its
    template admin/<app>/<model>/<own_page>.html, its sample file the page `<own_page>_sample`).
    `options(cleaned_data)` is what the kept upload remembers, the import's own arguments;
    `checked(staged)` heads the dry run's summary; `run(staged, dry_run)` returns the
    import's report, or a response of its own (a background import); `done` is where a real
    import ends (by default the model's list)."""
    opts = modeladmin.model._meta
    template = f"admin/{opts.app_label}/{opts.model_name}/{own_page}.html"
    context = modeladmin.page_context(
        request,
        title,
        sample_url=reverse(f"admin:{opts.app_label}_{opts.model_name}_{own_page}_sample"),
        staging_minutes=settings.IMPORT_STAGING_MINUTES,
        table=table,
        **extra,
    )

    def page(form, status=200, **extra):
        return TemplateResponse(
            request, template, {**context, "form": form, **extra}, status=status
        )

    if request.method == "POST" and "confirm" in request.POST:  # the kept upload, for real
        form, dry_run = None, False
        try:
            staged = staged_import_get(
                token=request.POST.get("token", ""), user=request.user, kind=kind, table=table
            )
        except FileFormatError as exc:
            return page(form_class(), status=400, refusal=str(exc))
    else:
        form = form_class(request.POST or None, request.FILES or None)
        if request.method != "POST":
            return page(form)
        if not form.is_valid():
            return page(form, status=400)
        data = form.cleaned_data
        dry_run = data["dry_run"]
        staged = staged_import_create(
            user=request.user, kind=kind, uploaded=data["file"], options=options(data), table=table
        )
    try:
        report = run(staged, dry_run)
    except FileFormatError as exc:
        staged_import_discard(staged)
        if form is None:  # at "Import these rows": refused as a page, there is no upload form
            return page(form_class(), status=400, refusal=str(exc))
        form.add_error("file", str(exc))
        return page(form, status=400)
    if isinstance(report, HttpResponse):
        return report
    lines = report.summary_lines(max_rejections=SUMMARY_REJECTIONS)
    if dry_run:  # kept for "Import these rows": the very bytes checked now
        return page(None, summary=lines, report=report, staged=staged, checked=checked(staged))
    staged_import_discard(staged)
    level = messages.WARNING if report.rejected else messages.SUCCESS
    for line in lines:
        modeladmin.message_user(request, line, level)
    return redirect(done or f"admin:{opts.app_label}_{opts.model_name}_changelist")


# --- Shipping rows ---------------------------------------------------------------------


def import_rows_view(modeladmin, request, table_id: int):
    table = ShippingTable.objects.select_related("carrier").filter(pk=table_id).first()
    if table is None:
        raise Http404(gettext("No such shipping table."))
    if not modeladmin.has_change_permission(request, table):
        raise PermissionDenied

    return import_flow(
        modeladmin,
        request,
        form_class=RowsImportForm,
        own_page="import_rows",
        title=gettext("Import rows of %(table)s") % {"table": table},
        columns=ROW_COLUMNS + OPTIONAL_ROW_COLUMNS,
        kind=ImportKind.SHIPPING_ROWS,
        options=lambda data: {"replace": data["replace"]},
        checked=lambda staged: (
            gettext("File %(name)s, checked against %(table)s:")
            % {"name": staged.file_name, "table": table}
        ),
        run=partial(staged_report, shipping_rows_import, table=table),
        done=reverse("admin:shipping_shippingtable_change", args=[table.pk]),
        table=table,
    )


def choose_table_view(modeladmin, request):
    """From the Shipping rows list: the table whose rows to import (or straight to it)."""
    if not modeladmin.has_change_permission(request):
        raise PermissionDenied
    table_id = request.GET.get("table", "")
    if table_id.isdigit() and ShippingTable.objects.filter(pk=int(table_id)).exists():
        return redirect("admin:shipping_shippingtable_import_rows", int(table_id))
    tables = ShippingTable.objects.select_related("carrier").order_by("carrier__name", "label")
    title = gettext("Import shipping rows: choose a table")
    return modeladmin.own_page(request, "import_choose.html", title, tables=tables)


# --- Postal codes ----------------------------------------------------------------------


def postal_import_view(modeladmin, request):
    if not modeladmin.has_add_permission(request):
        raise PermissionDenied

    def run(staged, dry_run: bool):
        if staged.line_count > settings.POSTAL_IMPORT_INLINE_MAX_LINES:
            job = postal_import_job_start(staged=staged, user=request.user, dry_run=dry_run)
            return redirect("admin:shipping_postalcode_import_job", job.pk)
        return staged_report(postal_codes_import, staged, dry_run)

    return import_flow(
        modeladmin,
        request,
        form_class=PostalImportForm,
        title=gettext("Import postal codes"),
        columns=POSTAL_COLUMNS,
        inline_max_lines=settings.POSTAL_IMPORT_INLINE_MAX_LINES,
        max_body_mib=settings.ADMIN_MAX_BODY_BYTES // (1024 * 1024),
        kind=ImportKind.POSTAL_CODES,
        options=postal_import_options,
        checked=lambda staged: (
            gettext("File %(name)s, read as %(format)s:")
            % {
                "name": staged.file_name,
                "format": PostalFileFormat(staged.options["file_format"]).label,
            }
        ),
        run=run,
    )


def postal_import_job_view(modeladmin, request, job_id: int):
    """The status page of a background import (refreshes itself while it runs)."""
    if not modeladmin.has_add_permission(request):
        raise PermissionDenied
    job = PostalImportJob.objects.select_related("staged").filter(pk=job_id).first()
    if job is None:
        raise Http404(gettext("No such import."))
    # A finished dry run of this user's upload offers "Import these rows".
    staged = job.staged if job.dry_run and job.status == JobStatus.DONE else None
    confirm_token = staged.token if staged and staged.user_id == request.user.pk else None
    return modeladmin.own_page(
        request,
        "import_job.html",
        gettext("Postal code import #%(id)s") % {"id": job.pk},
        job=job,
        confirm_token=confirm_token,
        import_url=reverse("admin:shipping_postalcode_import"),
        country=country_name(job.country) if job.country else "",
    )
