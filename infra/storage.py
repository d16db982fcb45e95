"""Where uploaded and staged files live: the STORAGES of settings.MEDIA_STORAGE.

Two aliases, each reached only through Django's storage API (open, save, delete, url),
never through a local path, so that any instance or job worker reads what another wrote:

- "default": media (banner, seal, product and review images);
- "staging": uploads an admin import keeps between its dry run and its confirmation, and
  the files background jobs read.

"local" (the default) keeps them on this machine's disk, under MEDIA_ROOT and
IMPORT_STAGING_DIR; "s3" puts them in one S3-compatible bucket (django-storages), media
under `media/` (the part to make publicly readable) and staged files under `imports/`
(private). `storages_setting` builds the STORAGES setting from the S3_* settings.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.files.storage import FileSystemStorage, Storage, storages

MEDIA_PREFIX = "media"
STAGING_PREFIX = "imports"


class StagingFileStorage(FileSystemStorage):
    """The local staging area: settings.IMPORT_STAGING_DIR, read at each use."""

    @property
    def base_location(self) -> str:
        return str(settings.IMPORT_STAGING_DIR)

    @property
    def location(self) -> str:
        return os.path.abspath(self.base_location)


def staging_storage() -> Storage:
    return storages["staging"]


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
    """The "default" and "staging" entries of STORAGES for MEDIA_STORAGE `kind`.

    With "s3", empty credentials leave boto3 to its own chain (environment, instance
    role); an empty `public_url` makes media URLs the bucket's own (endpoint and bucket).
    """
    if kind == "local":
        return {
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staging": {"BACKEND": "infra.storage.StagingFileStorage"},
        }
    if kind != "s3":
        raise ValueError(f'MEDIA_STORAGE must be "local" or "s3", not {kind!r}.')
    if not bucket:
        raise ValueError("MEDIA_STORAGE=s3 needs S3_BUCKET.")
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
