"""Request body parsers of the API."""

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

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
