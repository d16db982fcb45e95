"""Envelope answers for URLs no endpoint matches and for Django's error handlers."""

from django.http import JsonResponse

from .errors import error_body


def _json(status_code: int, message: str) -> JsonResponse:
    return JsonResponse(error_body(status_code=status_code, message=message), status=status_code)


def unknown_url(request, *args, **kwargs):
    return _json(404, "No endpoint matches this URL.")


def bad_request(request, exception=None):
    return _json(400, "The request could not be processed.")


def permission_denied(request, exception=None):
    return _json(403, "You do not have permission to perform this action.")


def page_not_found(request, exception=None):
    return _json(404, "Not found.")


def server_error(request):
    return _json(500, "Internal server error.")
