"""Uploads kept server-side between a dry run and its confirmation (services), in the
"staging" storage, tied to their user and forgotten after settings.IMPORT_STAGING_MINUTES
(or once imported). Confirming checks the file's SHA-256 too: what is imported is what
was previewed."""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any, BinaryIO, cast

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.storage import storages
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..models import JobStatus, ShippingTable, StagedImport
from .base import FileFormatError, ImportReport

logger = logging.getLogger(__name__)

CHUNK = 1024 * 1024


def staged_open(staged: StagedImport) -> BinaryIO:
    """The kept upload, opened for reading (OSError when it is gone)."""
    return cast(BinaryIO, storages["staging"].open(staged.path, "rb"))


def staged_report(
    importer: Callable[..., ImportReport], staged: StagedImport, dry_run: bool, **arguments: Any
) -> ImportReport:
    """The report of `importer` on the kept upload, with the options it remembers (the
    import's own arguments)."""
    with staged_open(staged) as stream:
        return importer(stream=stream, dry_run=dry_run, **staged.options, **arguments)


def _digest_and_lines(chunks: Iterable[bytes]) -> tuple[str, int, int]:
    digest = hashlib.sha256()
    lines = size = 0
    last = b""
    for chunk in chunks:
        digest.update(chunk)
        lines += chunk.count(b"\n")
        size += len(chunk)
        last = chunk[-1:] or last
    if size and last != b"\n":
        lines += 1
    return digest.hexdigest(), lines, size


def staged_import_create(
    *,
    user: User,
    kind: str,
    uploaded: UploadedFile,
    options: dict[str, Any],
    table: ShippingTable | None = None,
) -> StagedImport:
    """Keep `uploaded` (a Django UploadedFile) server-side for the user's confirmation."""
    staged_imports_purge_expired()
    sha256, lines, size = _digest_and_lines(uploaded.chunks(CHUNK))
    uploaded.seek(0)
    name = storages["staging"].save(f"{uuid.uuid4().hex}.upload", uploaded)
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


def staged_import_get(
    *, token: str, user: User, kind: str, table: ShippingTable | None = None
) -> StagedImport:
    """The user's unexpired, unchanged upload of `kind` (and `table`) named by `token`;
    FileFormatError otherwise (one message for every case: it reveals nothing)."""
    gone = FileFormatError(
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
    try:
        with staged_open(staged) as stream:
            sha256, _lines, _size = _digest_and_lines(iter(lambda: stream.read(CHUNK), b""))
    except OSError:
        raise gone from None
    if sha256 != staged.sha256:
        logger.warning("Staged import %s changed in its storage; refused", staged.pk)
        raise gone
    return staged


def staged_import_discard(staged: StagedImport) -> None:
    """Forget the upload and delete its file (after its import, or when it expired)."""
    try:
        storages["staging"].delete(staged.path)  # a name already gone is no error
    except Exception:  # the disk's or the bucket's: a leftover never fails the import
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
