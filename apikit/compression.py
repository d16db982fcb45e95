"""Compressed JSON answers (issue 33, docs/caching.md "Compression"): the one place that
decides whether, and how, an answer is compressed.

- A JSON answer of MIN_BYTES or more goes compressed when the client's Accept-Encoding
  accepts it: Brotli (`br`) first when the optional `brotli` package is importable, else
  gzip. Every JSON answer says `Vary: Accept-Encoding` (merged with any Vary already set).
- A compressed answer's ETag is the plain one with the encoding as a suffix (`"<hex>-gzip"`,
  as Apache does): each variant has its own strong validator. If-None-Match with either form
  matches (`RenderedAnswer.matches`), and the 304 carries the ETag of the variant asked.
- A kept answer (apikit.caching.RenderedAnswer) carries its compressed bytes, made once when
  it is kept (`variants`); the middleware takes them from the request context, so a hit
  costs no compression. Anything else (errors, POST answers, answers not kept, the quote's
  fresh ids) is compressed here per response.
- Streaming answers, answers already encoded, and non-JSON answers are left alone (whitenoise
  serves its own precompressed static files).
"""

import functools
import gzip
import importlib
import importlib.util
import zlib
from collections.abc import Callable
from types import ModuleType

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import patch_vary_headers

from .context import current

# optional (pip install brotli): br is offered only where it is importable
brotli: ModuleType | None = (
    importlib.import_module("brotli") if importlib.util.find_spec("brotli") else None
)

MIN_BYTES = 1024  # smaller answers gain less than a header's worth
# zlib's fast levels: a miss compresses the answer it keeps, and level 6 (zlib's default) cost
# 0.71 ms of a 65 KB listing answer's 4-6 ms miss; level 3 costs 0.23 ms for bytes 12-18 %
# larger (listing 8.0 -> 9.4 KB, product page 3.5 -> 3.9 KB). Hits serve the bytes made
# once, whatever the level (docs/decisions.md, "Session 16").
GZIP_LEVEL = 3
BROTLI_QUALITY = 5  # 11, the maximum, is for static files: many times slower
SUFFIXES = ("-gzip", "-br")


def available() -> tuple[str, ...]:
    """The encodings this process can produce, the preferred first."""
    return ("br", "gzip") if brotli is not None else ("gzip",)


@functools.lru_cache(maxsize=256)
def _chosen(accept_encoding: str, offered: tuple[str, ...]) -> str | None:
    qualities: dict[str, float] = {}
    for part in accept_encoding.split(","):
        name, _, params = part.partition(";")
        name = name.strip().lower()
        if not name:
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = 0.0
        qualities[name] = quality
    wildcard = qualities.get("*", 0.0)
    best: tuple[float, str] | None = None
    for encoding in offered:  # preferred first: a tie keeps the preferred
        quality = qualities.get(encoding, wildcard)
        if quality > 0 and (best is None or quality > best[0]):
            best = (quality, encoding)
    return best[1] if best else None


def chosen_encoding(request: HttpRequest) -> str | None:
    """The encoding to answer `request` with (None: identity), per RFC 9110 12.5.3:
    `gzip;q=0` refuses gzip, `*` stands for every encoding not named."""
    header = request.META.get("HTTP_ACCEPT_ENCODING")
    if not header:
        return None
    return _chosen(header[:512], available())


def compress(body: bytes, encoding: str) -> bytes:
    if encoding == "br" and brotli is not None:
        return bytes(brotli.compress(body, quality=BROTLI_QUALITY))
    # mtime=0: the same bytes for the same body (a stable answer for caches and tests)
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


def variants_of(body: bytes) -> tuple[tuple[str, bytes], ...]:
    """Every encoding's compressed bytes of `body` (none under MIN_BYTES)."""
    if len(body) < MIN_BYTES:
        return ()
    return tuple((encoding, compress(body, encoding)) for encoding in available())


def plain_body(variants: tuple[tuple[str, bytes], ...]) -> bytes:
    """The body whose variants these are, from its gzip bytes."""
    return zlib.decompress(dict(variants)["gzip"], wbits=31)  # 31: a gzip member


def variant_etag(etag: str, encoding: str) -> str:
    """`"abc"` -> `"abc-gzip"` (a weak `W/"abc"` stays weak)."""
    return f'{etag[:-1]}-{encoding}"' if etag.endswith('"') else etag


def plain_etag(tag: str) -> str:
    """An If-None-Match entry without its variant suffix: `"abc-gzip"` -> `"abc"`."""
    for suffix in SUFFIXES:
        if tag.endswith(suffix + '"'):
            return tag[: -len(suffix) - 1] + '"'
    return tag


def _is_json(response: HttpResponseBase) -> bool:
    return "json" in response.get("Content-Type", "")


def compressed_answers(
    get_response: Callable[[HttpRequest], HttpResponseBase],
) -> Callable[[HttpRequest], HttpResponseBase]:
    """Middleware, inside apikit.context.request_context (it reads the kept answer's
    variants from the context) and above everything that renders or serves an answer."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response = get_response(request)
        if response.streaming or response.has_header("Content-Encoding"):
            return response
        context = current()
        rendered = context.rendered if context is not None else None
        answer = rendered[1] if rendered is not None and rendered[0] is response else None
        if response.status_code == 304:  # no body, no Content-Type: the answer's size counts
            if answer is None:
                return response
            size = len(answer.body)
        elif response.status_code == 206 or not _is_json(response):
            return response
        else:
            size = len(response.content)  # type: ignore[attr-defined]
        patch_vary_headers(response, ("Accept-Encoding",))
        if size < MIN_BYTES:
            return response
        encoding = chosen_encoding(request)
        if encoding is None:
            return response
        if response.has_header("ETag"):
            response["ETag"] = variant_etag(response["ETag"], encoding)
        if response.status_code == 304:
            return response
        # the kept bytes, unless this response's body is not the answer's (fresh ids)
        body = None
        if answer is not None and not answer.fresh_uuids:
            body = dict(answer.variants).get(encoding)
        if body is None:
            body = compress(response.content, encoding)  # type: ignore[attr-defined]
        response.content = body  # type: ignore[attr-defined]
        response["Content-Encoding"] = encoding
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(body))
        return response

    return middleware
