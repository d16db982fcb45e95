"""Fields and helpers shared by the catalog serializers."""

from django.conf import settings
from rest_framework import serializers


def file_url(file, request=None) -> str | None:
    """Absolute URL of a stored file, or None when there is no file."""
    if not file:
        return None
    url = file.url
    if url.startswith(("http://", "https://")):
        return url
    if request is not None:
        return request.build_absolute_uri(url)
    return settings.PUBLIC_BASE_URL.rstrip("/") + url


def nullable_text(text: str) -> str | None:
    return text or None


class MoneyField(serializers.DecimalField):
    """A Decimal sent as a JSON number with at most 2 decimals."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("coerce_to_string", False)
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)


class OptionalTextField(serializers.CharField):
    """Optional text stored as "" and sent as null (the contract types it string|null)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value):
        return value or None
