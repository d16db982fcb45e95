"""JSON on the wire: one encoder (orjson) for every API answer and cached fragment, rendering
exactly what DRF's JSONRenderer did, several times faster; `orjson.Fragment` values (already
rendered JSON) are spliced in as they are.
"""

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import orjson
from rest_framework.renderers import BaseRenderer
from rest_framework.utils.encoders import JSONEncoder

_drf_default = JSONEncoder().default
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME


def _default(value: Any) -> Any:
    # Money is a JSON number on the wire (COERCE_DECIMAL_TO_STRING off).
    if isinstance(value, Decimal):
        return float(value)
    return _drf_default(value)


def json_bytes(value: Any) -> bytes:
    rendered = orjson.dumps(value, default=_default, option=_OPTIONS)
    # As DRF: U+2028 and U+2029 escaped (valid JSON raw, not in JavaScript before ES2019).
    # Their lead byte first: one memchr (1 us for a 61 KB listing, against 90 for the two
    # three-byte searches, which run only when some character of U+2000-U+2FFF is there).
    if b"\xe2" in rendered and (b"\xe2\x80\xa8" in rendered or b"\xe2\x80\xa9" in rendered):
        rendered = rendered.replace(b"\xe2\x80\xa8", b"\\u2028")
        rendered = rendered.replace(b"\xe2\x80\xa9", b"\\u2029")
    return rendered


Fragment = orjson.Fragment


class FastJSONRenderer(BaseRenderer):
    media_type = "application/json"
    format = "json"
    charset = None

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        return json_bytes(data)
