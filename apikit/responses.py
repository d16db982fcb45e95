"""The success envelope of the contract (its other shape, the bare payload, is a plain Response)."""

from typing import Any

from django.http import HttpRequest
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from .compiled import render_many


def envelope(data: Any) -> dict[str, Any]:
    return {"status": True, "data": data}


def success(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(envelope(data), status=status, headers=headers)


def request_base_url(request: HttpRequest) -> str:
    """The origin the client called: absolute file URLs in answers point there."""
    return request.build_absolute_uri("/")


def rendered_rows(serializer_class: type[BaseSerializer], rows: Any, **context: Any) -> list:
    """`serializer_class(rows, many=True, context=context).data`, rendered by the class's
    compiled function (apikit.compiled)."""
    return render_many(serializer_class, rows, **context)
