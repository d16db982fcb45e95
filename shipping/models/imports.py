"""Imports started in the admin: uploads kept between a dry run and its confirmation, and
postal-code imports run in the background."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ImportKind(models.TextChoices):
    SHIPPING_ROWS = "shipping_rows", _("Shipping rows")
    POSTAL_CODES = "postal_codes", _("Postal codes")
    HOLIDAYS = "holidays", _("Holidays")


class StagedImport(models.Model):
    """An uploaded file kept after its dry run, so "Import these rows" imports exactly what
    was previewed; only its uploader can confirm it (with the unguessable `token`)."""

    token = models.UUIDField(_("token"), default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="staged_imports",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=ImportKind.choices)
    table = models.ForeignKey(
        "shipping.ShippingTable",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="staged_imports",
        verbose_name=_("shipping table"),
    )
    options = models.JSONField(_("options"), default=dict, blank=True)
    file_name = models.CharField(_("file name"), max_length=255)
    path = models.CharField(_("path"), max_length=255)  # its name in the "staging" storage
    size = models.BigIntegerField(_("size"), default=0)
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    line_count = models.BigIntegerField(_("line count"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"), db_index=True)

    class Meta:
        verbose_name = _("staged import")
        verbose_name_plural = _("staged imports")

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.file_name}"


class PostalFileFormat(models.TextChoices):
    """The formats of a postal-code file (told by the file: imports.postal_codes)."""

    GEONAMES = "geonames", _("GeoNames postal-code dump (tab-separated)")
    CSV = "csv", _("CSV with a header row")


class JobStatus(models.TextChoices):
    PENDING = "pending", _("Waiting to start")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class PostalImportJob(models.Model):
    """A postal-code import too large for a request: run by `run_postal_import(job_id)`
    (the `run_postal_import` command, started after the request), progress kept here."""

    status = models.CharField(
        _("status"), max_length=10, choices=JobStatus.choices, default=JobStatus.PENDING
    )
    dry_run = models.BooleanField(_("dry run"), default=False)
    staged = models.ForeignKey(
        StagedImport,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="jobs",
        verbose_name=_("staged import"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="postal_import_jobs",
        verbose_name=_("created by"),
    )
    file_name = models.CharField(_("file name"), max_length=255)
    file_format = models.CharField(_("format"), max_length=10, choices=PostalFileFormat.choices)
    country = models.CharField(_("country"), max_length=3, blank=True)
    # Progress in the file's lines (blank ones and a CSV header included).
    lines_total = models.BigIntegerField(_("lines in the file"), default=0)
    lines_read = models.BigIntegerField(_("lines done"), default=0)
    # The language of the staff member who started it: its summary and errors speak it.
    language = models.CharField(_("language"), max_length=15, blank=True)
    rows_read = models.BigIntegerField(_("lines read"), default=0)
    rows_created = models.BigIntegerField(_("created"), default=0)
    rows_updated = models.BigIntegerField(_("updated"), default=0)
    rows_rejected = models.BigIntegerField(_("rejected"), default=0)
    summary = models.JSONField(_("summary"), default=list, blank=True)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("postal code import")
        verbose_name_plural = _("postal code imports")

    def __str__(self) -> str:
        return f"#{self.pk} {self.file_name} ({self.get_status_display()})"

    @property
    def percent(self) -> int:
        if self.status == JobStatus.DONE:
            return 100
        return min(100, self.lines_read * 100 // self.lines_total) if self.lines_total else 0

    @property
    def finished(self) -> bool:
        return self.status in (JobStatus.DONE, JobStatus.FAILED)
