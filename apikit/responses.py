"""The two response shapes of the contract: the success envelope and the bare payload."""

from typing import Any

from django.http import HttpRequest
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer


def envelope(data: Any) -> dict[str, Any]:
    """The success envelope's body: {"status": true, "data": ...}."""
    return {"status": True, "data": data}


def success(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """Success envelope: {"status": true, "data": ...}."""
    return Response(envelope(data), status=status, headers=headers)


def bare(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """Bare response: the payload is the top-level JSON value."""
    return Response(data, status=status, headers=headers)


def request_base_url(request: HttpRequest) -> str:
    """The origin the client called, e.g. "https://shop.example.com/": absolute file URLs
    in answers point there."""
    return request.build_absolute_uri("/")


_RENDERERS: dict[tuple[type[BaseSerializer], tuple[tuple[str, Any], ...]], BaseSerializer] = {}


def rendered_rows(serializer_class: type[BaseSerializer], rows: Any, **context: Any) -> list:
    """`serializer_class(rows, many=True, context=context).data` as plain dicts, from one
    instance per class and context kept for the process: a ModelSerializer builds its fields
    anew for every instance (about 1 ms for a review). Context values must be hashable and
    few (a base URL), and the serializer must not keep state between rows."""
    key = (serializer_class, tuple(sorted(context.items())))
    serializer = _RENDERERS.get(key)
    if serializer is None:
        if len(_RENDERERS) > 256:  # base URLs of many hosts: start over
            _RENDERERS.clear()
        serializer = _RENDERERS[key] = serializer_class(context=context)
    return [serializer.to_representation(row) for row in rows]
