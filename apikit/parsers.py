"""Request bodies of the API: the JSON parser, and a body checked by a serializer."""

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.serializers import BaseSerializer

from .text import check_json_strings


class JSONBodyParser(JSONParser):
    """DRF's JSON parser, where a body nested too deeply for the decoder is a parse error
    (422 like any malformed JSON) instead of a RecursionError (500), and a string holding
    control characters or lone surrogates is a 422 naming its field (apikit.text)."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("The JSON body is nested too deeply.") from None
        errors = check_json_strings(data)
        if errors:
            raise ValidationError(errors)
        return data


def valid_data(serializer_class: type[BaseSerializer], request: Request, **context: Any) -> Any:
    """The request body as validated by `serializer_class` (a 422 envelope when invalid)."""
    serializer = serializer_class(data=request.data, context=context)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


_PARSERS: dict[type[BaseSerializer], BaseSerializer] = {}


def valid_params(serializer_class: type[BaseSerializer], data: Mapping[str, Any]) -> Any:
    """`data` (path or query parameters) as validated by `serializer_class`, raising the
    same ValidationError as `is_valid(raise_exception=True)`, through one instance of the
    class kept for the process: a new serializer deep-copies every declared field (0.1 ms
    for the quote's query). For context-free serializers only."""
    parser = _PARSERS.get(serializer_class)
    if parser is None:
        parser = _PARSERS[serializer_class] = serializer_class()
    return parser.run_validation(data)
