"""Uploads kept server-side between a dry run and its confirmation (services).

The file is copied under settings.IMPORT_STAGING_DIR with a random name, tied to the
user who uploaded it, and forgotten after settings.IMPORT_STAGING_MINUTES (or once
imported). Confirming checks the token, the user, the kind, the table and the file's
SHA-256, so what is imported is exactly what was previewed.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..models import JobStatus, StagedImport
from .base import FileFormatError

logger = logging.getLogger(__name__)

CHUNK = 1024 * 1024


class StagedImportGone(FileFormatError):
    """The kept upload cannot be used: unknown, someone else's, expired or altered."""


def staging_dir() -> Path:
    path = Path(settings.IMPORT_STAGING_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def staged_path(staged: StagedImport) -> Path:
    return staging_dir() / staged.path


def _digest_and_lines(path: Path) -> tuple[str, int, int]:
    digest = hashlib.sha256()
    lines = size = 0
    last = b""
    with open(path, "rb") as stream:
        while chunk := stream.read(CHUNK):
            digest.update(chunk)
            lines += chunk.count(b"\n")
            size += len(chunk)
            last = chunk[-1:]
    if size and last != b"\n":
        lines += 1
    return digest.hexdigest(), lines, size


def staged_import_create(*, user, kind: str, uploaded, options: dict, table=None) -> StagedImport:
    """Keep `uploaded` (a Django UploadedFile) server-side for the user's confirmation."""
    staged_imports_purge_expired()
    name = f"{uuid.uuid4().hex}.upload"
    path = staging_dir() / name
    with open(path, "wb") as target:
        for chunk in uploaded.chunks(CHUNK):
            target.write(chunk)
    sha256, lines, size = _digest_and_lines(path)
    return StagedImport.objects.create(
        user=user,
        kind=kind,
        table=table,
        options=options,
        file_name=(getattr(uploaded, "name", "") or "upload")[:255],
        path=name,
        size=size,
        sha256=sha256,
        line_count=lines,
        expires_at=timezone.now() + timedelta(minutes=settings.IMPORT_STAGING_MINUTES),
    )


def staged_import_get(*, token: str, user, kind: str, table=None) -> StagedImport:
    """The user's unexpired upload of `kind` (and `table`) named by `token`, its file
    unchanged since the dry run; StagedImportGone otherwise (one message for every case,
    so a token of someone else's upload reveals nothing)."""
    gone = StagedImportGone(
        str(_("This preview has expired or is not yours: choose the file again."))
    )
    try:
        parsed = uuid.UUID(str(token))
    except (ValueError, TypeError, AttributeError):
        raise gone from None
    staged = StagedImport.objects.filter(
        token=parsed, user=user, kind=kind, table=table, expires_at__gt=timezone.now()
    ).first()
    if staged is None:
        raise gone
    path = staged_path(staged)
    try:
        sha256, _lines, _size = _digest_and_lines(path)
    except OSError:
        raise gone from None
    if sha256 != staged.sha256:
        logger.warning("Staged import %s changed on disk; refused", staged.pk)
        raise gone
    return staged


def staged_import_discard(staged: StagedImport) -> None:
    """Forget the upload and delete its file (after its import, or when it expired)."""
    try:
        staged_path(staged).unlink(missing_ok=True)
    except OSError:
        logger.warning("Could not delete the staged file of import %s", staged.pk)
    staged.delete()


def staged_imports_purge_expired() -> None:
    """Delete expired uploads (not those a background import is still reading)."""
    busy = (JobStatus.PENDING, JobStatus.RUNNING)
    expired = StagedImport.objects.filter(expires_at__lte=timezone.now()).exclude(
        jobs__status__in=busy
    )
    for staged in expired:
        with transaction.atomic():
            staged_import_discard(staged)
