"""Where uploaded and staged files live (settings.MEDIA_STORAGE), only ever reached through
Django's storage API so any instance or job worker reads what another wrote: "default"
(media) and "staging" (admin imports between dry run and confirmation, job inputs); "local"
on this machine's disk, or "s3" in one bucket (`media/` public, `imports/` private).
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.files.storage import FileSystemStorage

MEDIA_PREFIX = "media"
STAGING_PREFIX = "imports"


class StagingFileStorage(FileSystemStorage):
    """settings.IMPORT_STAGING_DIR, read at each use."""

    @property
    def base_location(self) -> str:
        return str(settings.IMPORT_STAGING_DIR)

    @property
    def location(self) -> str:
        return os.path.abspath(self.base_location)


def storages_setting(
    kind: str,
    *,
    bucket: str = "",
    endpoint_url: str = "",
    region: str = "",
    access_key: str = "",
    secret_key: str = "",
    public_url: str = "",
) -> dict[str, dict[str, Any]]:
    """STORAGES for MEDIA_STORAGE `kind`; empty S3 credentials leave boto3 to its own chain."""
    if kind == "local":
        return {
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staging": {"BACKEND": "infra.storage.StagingFileStorage"},
        }
    if kind != "s3":
        raise ImproperlyConfigured(f'MEDIA_STORAGE must be "local" or "s3", not {kind!r}.')
    if not bucket:
        raise ImproperlyConfigured("MEDIA_STORAGE=s3 needs S3_BUCKET.")
    common = {
        "bucket_name": bucket,
        "endpoint_url": endpoint_url or None,
        "region_name": region or None,
        "access_key": access_key or None,
        "secret_key": secret_key or None,
        "file_overwrite": False,  # a name taken gets a suffix, as on the local disk
        "querystring_auth": False,  # media URLs are plain (cacheable, shared) URLs
        "max_memory_size": 2 * 1024 * 1024,  # a larger file read spools to a temporary file
    }
    media: dict[str, Any] = {**common, "location": MEDIA_PREFIX}
    if public_url:
        parts = urlsplit(public_url.rstrip("/"))
        media |= {"url_protocol": f"{parts.scheme}:", "custom_domain": parts.netloc + parts.path}
    backend = "storages.backends.s3.S3Storage"
    return {
        "default": {"BACKEND": backend, "OPTIONS": media},
        "staging": {"BACKEND": backend, "OPTIONS": {**common, "location": STAGING_PREFIX}},
    }
