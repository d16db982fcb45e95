"""OpenAPI helpers: envelope components, standard error responses, path filtering, and the
final touches that make generated clients read the document right (issue 33)."""

import copy
import json
from collections.abc import Iterator
from typing import Any, ClassVar

from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpResponse
from django.utils import translation
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, inline_serializer
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


def no_store_header(why: str) -> OpenApiParameter:
    """The `Cache-Control: no-store` of a 200 that no cache may keep (a GET saying so gets no
    304 from `postprocess_for_generators`)."""
    return OpenApiParameter(
        "Cache-Control",
        OpenApiTypes.STR,
        location=OpenApiParameter.HEADER,
        response=[200],
        description=f"no-store: {why}",
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


# The contract's paths under its /api/v3 prefix (section 4): each also in the document, so a
# client generated from it calls them as the contract writes them.
CONTRACT_V3_PATHS = ("/publics/template/banners",)
SERVERS = [
    {
        "url": "/",
        "description": (
            "This store, where the document is served. Every path but /health is also served "
            "under /api/v3 (the contract's banner path is listed there too)."
        ),
    }
]
NOT_MODIFIED = {
    "description": "Not modified: If-None-Match matched the ETag (no body).",
    "headers": {
        "ETag": {"$ref": "#/components/headers/ETag"},
        "Cache-Control": {"$ref": "#/components/headers/Cache-Control"},
    },
}
CACHE_HEADERS = {
    "ETag": {
        "description": "Validator of this answer: send it as If-None-Match for a 304.",
        "schema": {"type": "string"},
    },
    "Cache-Control": {
        "description": "How long the answer may be reused (public or private, max-age).",
        "schema": {"type": "string"},
    },
}


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every object of a JSON document, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _component(result: dict[str, Any], ref: str) -> dict[str, Any]:
    return result["components"]["schemas"].get(ref.rpartition("/")[2], {})


def _typed_nullables(result: dict[str, Any]) -> None:
    """OpenAPI 3.0 reads `nullable` only beside a `type`: drf-spectacular writes a nullable
    nested serializer as `allOf: [$ref]` + `nullable`, so the type of the referenced object is
    written beside it."""
    for node in _walk(result):
        refs = [part.get("$ref", "") for part in node.get("allOf", ())]
        if node.get("nullable") and "type" not in node and refs and all(refs):
            types = {_component(result, ref).get("type") for ref in refs}
            if len(types) == 1 and None not in types:
                node["type"] = types.pop()


def _request_components(result: dict[str, Any]) -> set[str]:
    """Names of the components a request body refers to, directly or through others."""
    names: set[str] = set()
    pending = [
        operation.get("requestBody", {})
        for item in result.get("paths", {}).values()
        for operation in item.values()
        if isinstance(operation, dict)
    ]
    while pending:
        for node in _walk(pending.pop()):
            name = node.get("$ref", "").rpartition("/")[2]
            if name and name not in names:
                names.add(name)
                pending.append(result["components"]["schemas"].get(name, {}))
    return names


def _optional_request_fields(result: dict[str, Any]) -> None:
    """A request field that has a default is optional, but generators (openapi-typescript by
    default) make a property with a `default` required: the default is said in words."""
    for name in _request_components(result):
        component = result["components"]["schemas"].get(name, {})
        required = set(component.get("required", ()))
        for field, schema in component.get("properties", {}).items():
            if field not in required and "default" in schema:
                default = json.dumps(schema.pop("default"))
                described = schema.get("description", "")
                schema["description"] = f"{described} Default: {default}.".strip()


def _conditional_gets(result: dict[str, Any], generator: Any) -> None:
    """Every GET served through `cached_answers` answers If-None-Match with a 304 and carries
    ETag and Cache-Control: all of them say so, but one whose 200 declares its own
    Cache-Control (the quote: `no-store`, new quote ids in every answer)."""
    kept = {
        path
        for path, _regex, method, callback in getattr(generator, "endpoints", None) or ()
        if method == "GET" and getattr(callback, "answer_policy", None) is not None
    }
    headers = result.setdefault("components", {}).setdefault("headers", {})
    headers.update(copy.deepcopy(CACHE_HEADERS))
    for path, item in result.get("paths", {}).items():
        operation = item.get("get")
        if path not in kept or operation is None:
            continue
        responses = operation["responses"]
        ok = responses.get("200")
        if ok is not None:
            if "Cache-Control" in ok.get("headers", {}):
                continue
            for name in CACHE_HEADERS:
                ref = {"$ref": f"#/components/headers/{name}"}
                ok.setdefault("headers", {}).setdefault(name, ref)
        responses["304"] = copy.deepcopy(NOT_MODIFIED)
        operation["responses"] = dict(sorted(responses.items()))


def _contract_v3_paths(result: dict[str, Any]) -> None:
    paths = result.get("paths", {})
    for path in CONTRACT_V3_PATHS:
        if path not in paths:
            continue
        item = copy.deepcopy(paths[path])
        for operation in item.values():
            if isinstance(operation, dict) and "operationId" in operation:
                operation["operationId"] = f"api_v3_{operation['operationId']}"
        paths[f"/api/v3{path}"] = item


def postprocess_for_generators(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """What client generators need (issue 33): a server, `type` beside every `nullable`,
    optional request fields optional, 304 and the cache headers on every conditional GET,
    and the contract's /api/v3 paths."""
    result["servers"] = copy.deepcopy(SERVERS)
    _typed_nullables(result)
    _optional_request_fields(result)
    _conditional_gets(result, kwargs.get("generator"))
    _contract_v3_paths(result)
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
