"""Fields and helpers shared by the catalog serializers."""

from functools import lru_cache
from typing import Any
from urllib.parse import urljoin

from django.conf import settings
from django.core.files.storage import FileSystemStorage, default_storage, storages
from django.db.models.fields.files import FieldFile
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


def file_url(file: FieldFile | None, base_url: str | None = None) -> str | None:
    """Absolute URL of a stored file against `base_url` (else PUBLIC_BASE_URL), or None."""
    return stored_file_url(file.name, base_url) if file else None


def stored_file_url(name: str | None, base_url: str | None = None) -> str | None:
    """file_url of the file stored as `name` in the default storage."""
    if not name:
        return None
    base = base_url or settings.PUBLIC_BASE_URL.rstrip("/") + "/"
    storage = storages["default"]  # (what default_storage wraps)
    if isinstance(storage, FileSystemStorage) and type(storage).url is FileSystemStorage.url:
        return _local_file_url(storage, storage.base_url, name, base)
    return _joined(default_storage.url(name), base)


def _joined(url: str, base: str) -> str:
    return url if url.startswith(("http://", "https://")) else urljoin(base, url)


@lru_cache(maxsize=16_384)
def _local_file_url(storage: FileSystemStorage, media_url: str, name: str, base: str) -> str:
    """A file's URL in a disk storage: a function of its MEDIA_URL (`media_url`, in the key),
    the name and the base alone, remembered (15 us each, three a media of a summary)."""
    return _joined(storage.url(name), base)


class MoneyField(serializers.DecimalField):
    """A Decimal sent as a JSON number with at most 2 decimals."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("coerce_to_string", False)
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)


class OptionalTextField(serializers.CharField):
    """Optional text stored as "" and sent as null (the contract types it string|null)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    # Wider than CharField's `str` on purpose: the contract's null for "".
    def to_representation(self, value: str | None) -> str | None:  # type: ignore[override]
        return value or None


@extend_schema_field(serializers.CharField(allow_null=True))
class NullableTextField(OptionalTextField):
    """OptionalTextField documented as a nullable string (type, nullable, then readOnly)."""
