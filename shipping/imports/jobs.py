"""Postal-code imports too large for a request, run in the background by
`run_postal_import(job_id)` (the management command and `shipping.tasks.postal_import`)."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from ..models import JobStatus, PostalImportJob, StagedImport
from .base import FileFormatError
from .postal_codes import postal_codes_import
from .staging import staged_import_discard, staged_report

logger = logging.getLogger(__name__)

PROGRESS_EVERY_SECONDS = 1.0


def postal_import_job_start(*, staged: StagedImport, user: User, dry_run: bool) -> PostalImportJob:
    """Record a background import of `staged` and start it as settings.POSTAL_IMPORT_RUNNER
    says: a queued task ("job"), a process after commit ("command"), or not ("none")."""
    job = PostalImportJob.objects.create(
        staged=staged,
        created_by=user,
        dry_run=dry_run,
        file_name=staged.file_name,
        file_format=staged.options.get("file_format", ""),
        country=staged.options.get("country") or "",
        lines_total=staged.line_count,
        language=translation.get_language() or "",
    )
    if settings.POSTAL_IMPORT_RUNNER == "job":
        from ..tasks import postal_import  # the task module imports this one

        postal_import.enqueue(job.pk)
    elif settings.POSTAL_IMPORT_RUNNER == "command":
        transaction.on_commit(lambda: _start_command(job.pk))
    return job


def _start_command(job_id: int) -> None:
    manage = Path(settings.BASE_DIR) / "manage.py"
    subprocess.Popen(  # noqa: S603  (fixed arguments: this interpreter, manage.py, an id)
        [sys.executable, str(manage), "run_postal_import", str(job_id)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # outlives the web worker that started it
    )


def run_postal_import(job_id: int) -> PostalImportJob:
    """Run the pending job `job_id` (one already started is left alone) in its starter's
    language, saving its progress; a real import then deletes its kept upload."""
    with transaction.atomic():
        job = (
            PostalImportJob.objects.select_for_update(of=("self",))
            .select_related("staged")
            .get(pk=job_id)
        )
        if job.status != JobStatus.PENDING:
            return job
        job.status = JobStatus.RUNNING
        job.started_at = timezone.now()
        job.save(update_fields=["status", "started_at"])

    with translation.override(job.language or settings.LANGUAGE_CODE):
        return _run(job)


def _run(job: PostalImportJob) -> PostalImportJob:
    staged = job.staged
    state = {"lines": 0, "saved_at": time.monotonic()}

    def progress(_consumed_bytes: int) -> None:  # called once per line of the file
        state["lines"] += 1
        now = time.monotonic()
        if now - state["saved_at"] >= PROGRESS_EVERY_SECONDS:
            state["saved_at"] = now
            PostalImportJob.objects.filter(pk=job.pk).update(lines_read=state["lines"])

    try:
        if staged is None:
            raise FileFormatError(gettext("The uploaded file is no longer kept: upload it again."))
        report = staged_report(postal_codes_import, staged, job.dry_run, progress=progress)
    except (FileFormatError, OSError) as exc:
        job.status = JobStatus.FAILED
        job.error = str(exc)
    except Exception as exc:  # recorded for the status page, then logged in full
        logger.exception("Postal import job %s failed", job.pk)
        job.status = JobStatus.FAILED
        job.error = f"{type(exc).__name__}: {exc}"
    else:
        job.status = JobStatus.DONE
        job.rows_read = report.read
        job.rows_created = report.created
        job.rows_updated = report.updated
        job.rows_rejected = report.rejected
        job.summary = report.summary_lines(max_rejections=50)
    job.lines_read = state["lines"]
    job.finished_at = timezone.now()
    job.save()
    if staged is not None and not job.dry_run:
        staged_import_discard(staged)
    return job
