"""Reads of the webhooks app."""

from .models import Endpoint


def endpoint_with_url(*, url: str, exclude_pk: int | None = None) -> Endpoint | None:
    """The endpoint already registered at `url` (compared case-insensitively), if any."""
    endpoints = Endpoint.objects.filter(url__iexact=url)
    if exclude_pk is not None:
        endpoints = endpoints.exclude(pk=exclude_pk)
    return endpoints.first()
