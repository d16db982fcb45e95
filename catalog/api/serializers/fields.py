"""Fields and helpers shared by the catalog serializers."""

from typing import Any
from urllib.parse import urljoin

from django.conf import settings
from django.core.files.storage import default_storage
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
    url = default_storage.url(name)
    if url.startswith(("http://", "https://")):
        return url
    return urljoin(base_url or settings.PUBLIC_BASE_URL.rstrip("/") + "/", url)


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
