"""OpenAPI helpers: envelope components, standard error responses, path filtering."""

from typing import Any, ClassVar

from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpResponse
from django.utils import translation
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from drf_spectacular.views import SpectacularAPIView
from rest_framework import serializers
from rest_framework.request import Request


class ErrorDataSerializer(serializers.Serializer):
    code = serializers.IntegerField(help_text="Equals the HTTP status.")
    errorCode = serializers.CharField(help_text="Stable error code, e.g. VALIDATION_ERROR.")
    message = serializers.CharField()


class ErrorEnvelopeSerializer(serializers.Serializer):
    status = serializers.BooleanField(help_text="Always false.")
    # The contract's field is `data`, which shadows Serializer.data for the type checker only.
    data = ErrorDataSerializer()  # type: ignore[assignment]


class ValidationErrorDataSerializer(ErrorDataSerializer):
    errors = serializers.DictField(  # type: ignore[assignment]  # shadows Serializer.errors
        child=serializers.ListField(child=serializers.CharField()),
        help_text='Messages per field, e.g. {"codes": ["The codes field is required."]}.',
    )


class ValidationErrorEnvelopeSerializer(ErrorEnvelopeSerializer):
    data = ValidationErrorDataSerializer()


ERROR_DESCRIPTIONS = {
    401: "Not signed in, or the token is invalid or expired (UNAUTHENTICATED).",
    403: "Forbidden (FORBIDDEN).",
    404: "Not found.",
    405: "Method not allowed (METHOD_NOT_ALLOWED).",
    409: (
        "A request with the same Idempotency-Key is still being processed "
        "(IDEMPOTENCY_REQUEST_IN_PROGRESS); retry after Retry-After."
    ),
    413: "Request body too large (PAYLOAD_TOO_LARGE).",
    415: "Unsupported media type: send application/json (UNSUPPORTED_MEDIA_TYPE).",
    422: "Validation error (VALIDATION_ERROR); data.errors names each field.",
    429: "Too many requests (TOO_MANY_REQUESTS); see the Retry-After header.",
    500: "Internal error (INTERNAL_ERROR).",
    503: "The database cannot be reached (SERVICE_UNAVAILABLE); retry after Retry-After.",
}


def error_responses(*statuses: int, not_found_code: str | None = None) -> dict:
    """Error envelope responses for `extend_schema(responses=...)`, 500 and 503 included."""
    responses = {}
    for status_code in (*statuses, 500, 503):
        description = ERROR_DESCRIPTIONS[status_code]
        if status_code == 404 and not_found_code:
            description = f"Not found ({not_found_code})."
        serializer = (
            ValidationErrorEnvelopeSerializer if status_code == 422 else ErrorEnvelopeSerializer
        )
        responses[status_code] = OpenApiResponse(serializer, description=description)
    return responses


def success_envelope(name: str, data: Any, *, many: bool = False) -> serializers.Serializer:
    """A named component for {"status": true, "data": <data: a serializer class or instance>}."""
    data_field = data(many=many) if isinstance(data, type) else data
    return inline_serializer(
        name=name,
        fields={"status": serializers.BooleanField(help_text="Always true."), "data": data_field},
    )


def preprocess_public_paths(
    endpoints: list[tuple[str, str, str, Any]],
) -> list[tuple[str, str, str, Any]]:
    """Each endpoint once, at its canonical path (no trailing-slash or /api/v3 duplicates)."""
    return [
        endpoint
        for endpoint in endpoints
        if not (endpoint[0].endswith("/") and endpoint[0] != "/")
        and not endpoint[0].startswith(("/api/schema", "/api/docs", "/api/v3/"))
    ]


def postprocess_add_health(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Add GET/HEAD /health (a plain Django view that drf-spectacular does not see)."""
    body = {
        "type": "object",
        "required": ["status", "database", "cache", "cacheBreaker"],
        "properties": {
            "status": {"type": "string", "enum": ["ok", "degraded", "unavailable"]},
            "database": {"type": "string", "enum": ["ok", "unavailable"]},
            "cache": {"type": "string", "enum": ["ok", "unavailable"]},
            "cacheBreaker": {"type": "string", "enum": ["closed", "open", "half-open"]},
        },
    }

    def answer(description: str, schema: dict[str, Any]) -> dict[str, Any]:
        return {"description": description, "content": {"application/json": {"schema": schema}}}

    operation = {
        "operationId": "health_get",
        "summary": "Database and cache reachability",
        "description": (
            "For load balancers and operators. 200 when the database answers (`degraded` "
            "when only the cache is down: the service works without it); 503 when the "
            "database cannot be reached. Never cached (`Cache-Control: no-store`). Served "
            "at /health and /health/ only (not under /api/v3/)."
        ),
        "tags": ["health"],
        "security": [{}],
        "responses": {
            "200": answer("The database answers (status ok or degraded).", body),
            "405": answer(ERROR_DESCRIPTIONS[405], {"$ref": "#/components/schemas/ErrorEnvelope"}),
            "503": answer("The database cannot be reached (status unavailable).", body),
        },
    }
    result.setdefault("paths", {})["/health"] = {"get": operation}
    return result


class SchemaView(SpectacularAPIView):
    """The OpenAPI document, built and rendered once per process, language and format: a build
    costs about 0.4 s of CPU (0.2 s to generate, 0.2 s of YAML), which a client asking again and
    again would make the server pay each time. A `lang` the API does not speak is its default
    language; `version` is not read (the API has one, SPECTACULAR_SETTINGS' VERSION)."""

    kept: ClassVar[dict[tuple[str, str], tuple[str | bytes, str, str]]] = {}

    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            language = translation.get_supported_language_variant(request.GET.get("lang", ""))
        except LookupError:
            language = translation.get_supported_language_variant(settings.LANGUAGE_CODE)
        renderer = request.accepted_renderer
        key = (language, renderer.media_type)
        if key not in self.kept:
            with translation.override(language):
                generator = self.generator_class(urlconf=self.urlconf, patterns=self.patterns)
                schema = generator.get_schema(request=request, public=self.serve_public)
                content = renderer.render(schema, renderer.media_type, {})
            charset = f"; charset={renderer.charset}" if renderer.charset else ""
            self.kept[key] = (content, renderer.media_type + charset, renderer.format)
        content, content_type, suffix = self.kept[key]
        name = f"{spectacular_settings.TITLE}.{suffix}"
        headers = {"Content-Disposition": f'inline; filename="{name}"'}
        return HttpResponse(content, content_type=content_type, headers=headers)


setting_changed.connect(lambda **kwargs: SchemaView.kept.clear(), weak=False)
