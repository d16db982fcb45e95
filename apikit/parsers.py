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
