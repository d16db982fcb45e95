"""Request body parsers of the API."""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class JSONBodyParser(JSONParser):
    """DRF's JSON parser, where a body nested too deeply for the decoder is a parse error
    (422 like any malformed JSON) instead of a RecursionError (500)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("The JSON body is nested too deeply.") from None
