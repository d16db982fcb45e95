"""The two response shapes of the contract: the success envelope and the bare payload."""

from typing import Any

from django.http import HttpRequest
from rest_framework.response import Response


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
