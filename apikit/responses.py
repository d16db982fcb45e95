"""The success envelope of the contract (its other shape, the bare payload, is a plain Response)."""

from typing import Any

from django.http import HttpRequest
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer


def envelope(data: Any) -> dict[str, Any]:
    return {"status": True, "data": data}


def success(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(envelope(data), status=status, headers=headers)


def request_base_url(request: HttpRequest) -> str:
    """The origin the client called: absolute file URLs in answers point there."""
    return request.build_absolute_uri("/")


_RENDERERS: dict[tuple[type[BaseSerializer], tuple[tuple[str, Any], ...]], BaseSerializer] = {}


def rendered_rows(serializer_class: type[BaseSerializer], rows: Any, **context: Any) -> list:
    """`serializer_class(rows, many=True, context=context).data` from one instance kept per
    class and (hashable, few) context: each instance builds its fields anew (1 ms a review)."""
    key = (serializer_class, tuple(sorted(context.items())))
    serializer = _RENDERERS.get(key)
    if serializer is None:
        if len(_RENDERERS) > 256:  # base URLs of many hosts: start over
            _RENDERERS.clear()
        serializer = _RENDERERS[key] = serializer_class(context=context)
    return [serializer.to_representation(row) for row in rows]
