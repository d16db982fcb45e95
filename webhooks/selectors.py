"""Reads of the webhooks app."""

from .models import Endpoint


def endpoint_with_url(*, url: str, exclude_pk: int | None = None) -> Endpoint | None:
    """The endpoint already registered at `url` (compared case-insensitively), if any."""
    return Endpoint.objects.filter(url__iexact=url).exclude(pk=exclude_pk).first()
