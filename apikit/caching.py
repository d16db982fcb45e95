"""Rendered answers of public reads: their bytes, ETag and Cache-Control, kept in the shared
cache under the versions of the namespaces they depend on (infra.caching; docs/caching.md).
The views, `cached_answers` and `early_answers` hand each other the answer and its key
through apikit.context, never through attributes of the request or response."""

import functools
import hashlib
import math
import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve

from infra.caching.admission import Segments
from infra.caching.backend import cache_is_local
from infra.caching.records import depend_on, recording, still_current

from .compression import chosen_encoding, plain_body, plain_etag, variants_of
from .context import current, scope
from .renderers import json_bytes


def etag_for(body: bytes) -> str:
    """A strong ETag: the body's SHA-256, its first 128 bits in hex. SHA-256, not BLAKE2b,
    because CPUs hash it in hardware (SHA-NI, ARMv8): a 61 KB listing in 35 us, not 80."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _body_length(request: HttpRequest) -> int:
    """The Content-Length (-1 when unreadable)."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return -1


@functools.cache
def fresh_uuid_marker() -> str:
    """A stand-in for a UUID4 new in every response of a stored answer (a quote's `quoteId`);
    from SECRET_KEY, so every process agrees on it and no caller can plant it in data."""
    digest = hashlib.blake2b(settings.SECRET_KEY.encode(), digest_size=12, person=b"fresh-uuid")
    return f"fresh-uuid4-{digest.hexdigest()}"


@functools.cache
def _fresh_uuid_pattern() -> re.Pattern[bytes]:
    return re.compile(re.escape(fresh_uuid_marker().encode()))


@dataclass(frozen=True)
class RenderedAnswer:
    """A 200 JSON answer rendered once; nobody keeps it past `valid_until` (epoch seconds:
    the next schedule boundary)."""

    body: bytes
    etag: str
    scope: str
    max_age: int
    valid_until: float | None = None
    fresh_uuids: bool = False  # the body holds fresh_uuid_marker()s: no ETag, new ids each time
    # Versions of the namespaces the answer shows (its view's, and single records' such as a
    # product's), as rendered: checked before it is reused.
    dependencies: tuple[tuple[str, int], ...] = ()
    release: str = ""  # settings.RELEASE that rendered it, sent as X-Release
    allow: str = ""  # the rendering view's Allow header
    # (encoding, compressed body) of each encoding, made once when the answer is kept
    # (`with_variants`); apikit.compression serves them.
    variants: tuple[tuple[str, bytes], ...] = ()

    def seconds_left(self, now: float) -> int:
        if self.valid_until is None:
            return self.max_age
        return max(0, min(self.max_age, math.floor(self.valid_until - now)))

    def response(self, request: HttpRequest, now: float | None = None) -> HttpResponse:
        if request.method == "POST" or self.fresh_uuids:  # no HTTP caching of this answer
            body, headers = self.body, None
            if self.fresh_uuids:  # a new answer each time: not to be kept by any cache either
                body = _fresh_uuid_pattern().sub(lambda _: str(uuid.uuid4()).encode(), body)
                headers = {"Cache-Control": "no-store"}
            response = HttpResponse(body, content_type="application/json", headers=headers)
        else:
            seconds = self.seconds_left(time.time() if now is None else now)
            headers = {"ETag": self.etag, "Cache-Control": f"{self.scope}, max-age={seconds}"}
            if_none_match = request.META.get("HTTP_IF_NONE_MATCH")
            if if_none_match and self.matches(if_none_match):
                response = HttpResponseNotModified(headers=headers)
            else:
                response = HttpResponse(self.body, content_type="application/json", headers=headers)
        if self.release:
            response["X-Release"] = self.release
        if self.allow:
            response["Allow"] = self.allow
        context = current()
        if context is not None:  # for cached_answers, which stores it
            context.rendered = (response, self)
        return response

    def matches(self, if_none_match: str) -> bool:
        """Weak comparison, any encoding's variant (`"<hex>-gzip"`) standing for the answer:
        apikit.compression gives the 304 the ETag of the variant asked."""
        candidates = {plain_etag(tag.strip()) for tag in if_none_match.split(",")}
        return self.etag in candidates or f"W/{self.etag}" in candidates or "*" in candidates

    def compact(self) -> "RenderedAnswer":
        """The answer without its plain body when it has a gzip variant (6-8 times smaller),
        for a store that holds many: `whole()` makes the body again."""
        if any(encoding == "gzip" for encoding, _ in self.variants):
            return replace(self, body=b"")
        return self

    def whole(self) -> "RenderedAnswer":
        """A `compact()` answer with its plain body again (from the gzip bytes)."""
        if self.body or not self.variants:
            return self
        return replace(self, body=plain_body(self.variants))

    def with_variants(self) -> "RenderedAnswer":
        """The answer with its compressed bodies, to be kept (an answer with fresh ids
        changes in every response: compressed per response instead). Made when the first
        request asking for an encoding renders or finds the answer (`_encoded_for`)."""
        if self.fresh_uuids or self.variants:
            return self
        variants = variants_of(self.body)  # (none under MIN_BYTES: the same answer)
        return replace(self, variants=variants) if variants else self


def conditional_response(
    request: HttpRequest,
    payload: Any,
    *,
    max_age: int | None = None,
    valid_until: datetime | None = None,
    fresh_uuids: bool = False,
) -> HttpResponse:
    """200 with ETag and Cache-Control, or 304 on a matching If-None-Match."""
    body = json_bytes(payload)
    answer = RenderedAnswer(
        body=body,
        etag=etag_for(body),
        # An answer that may depend on a request body is private: shared caches key on URLs.
        scope="private" if _body_length(request) else "public",
        max_age=settings.PUBLIC_CACHE_SECONDS if max_age is None else max_age,
        valid_until=valid_until.timestamp() if valid_until is not None else None,
        fresh_uuids=fresh_uuids,
        release=settings.RELEASE,
    )
    return answer.response(request)


class RecentAnswers:
    """The process's last served answers in front of a shared cache, so a hot answer costs
    no trip to it; exact all the same (keys carry the versions), each kept `SECONDS` at
    most, MAX_ENTRIES and MAX_BYTES of bodies in all, in a segmented LRU
    (infra.caching.admission): an answer served again is not pushed out by answers asked
    once. An answer with a gzip variant is kept without its plain body, which `get` makes
    again from the gzip bytes (a few microseconds; a JSON answer is 6-8 times its gzip): the
    same bytes hold that many more answers (docs/caching.md, "Memory bounds")."""

    SECONDS = 5
    MAX_ENTRIES = 2048
    MAX_BYTES = 8 * 1024 * 1024

    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
        self._entries: dict[str, tuple[float, RenderedAnswer]] = {}
        self._order: Segments[str] = Segments(max_bytes, max_entries)
        self._max_bytes = max_bytes
        self._lock = threading.Lock()

    def get(self, key: str, now: float) -> RenderedAnswer | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] <= now:
                del self._entries[key]
                self._order.removed(key)
                return None
            self._order.used(key)
            return entry[1].whole()

    def put(self, key: str, answer: RenderedAnswer, now: float) -> None:
        if len(answer.body) > self._max_bytes // 8:
            return
        answer = answer.compact()  # made whole again by `get`
        size = len(answer.body) + sum(len(body) for _, body in answer.variants)
        with self._lock:
            self._entries[key] = (now + self.SECONDS, answer)
            for dropped in self._order.added(key, size):
                del self._entries[dropped]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._order.clear()


RECENT_ANSWERS = RecentAnswers()


def _recent_answers() -> RecentAnswers | None:
    """Only in front of a shared cache: a second local copy of every answer cost 20 MB."""
    return None if cache_is_local() else RECENT_ANSWERS


MAX_CACHED_BODY = 16 * 1024  # larger read-only POST bodies are never a cache key


# The answer rendered ahead for a key (None: none), from a store of answers that upkeep renders
# before they are asked (catalog.api.ahead: the product pages); a request only reads it.
AheadStore = Callable[[str], "RenderedAnswer | None"]


@dataclass(frozen=True)
class AnswerPolicy:
    """How `cached_answers` keys a view's answers (read by `early_answers` too)."""

    namespaces: tuple[str, ...]
    settings_names: tuple[str, ...] = ()
    read_only_post: bool = False
    ahead: AheadStore | None = None


@dataclass
class AnswerLookup:
    """A request's answer key and the moment it was looked up."""

    key: str
    now: float


def _lookup(request: HttpRequest, policy: AnswerPolicy) -> AnswerLookup | None:
    """The request's answer key (None: not an answer kept for it)."""
    body = b""
    if request.method == "POST" and policy.read_only_post:
        if not 0 < _body_length(request) <= MAX_CACHED_BODY:
            return None
        # the media type decides whether the view parses the body at all
        body = request.META.get("CONTENT_TYPE", "").encode() + b"\0" + request.body
    elif request.method not in ("GET", "HEAD") or _body_length(request):
        return None
    accept = request.META.get("HTTP_ACCEPT")
    if accept and "json" not in accept and "*/*" not in accept:
        return None
    # Not validated yet in early_answers: an unlisted Host finds no answer (only requests that
    # passed CommonMiddleware's ALLOWED_HOSTS check stored one) and is refused below.
    host = request.META.get("HTTP_HOST") or request.get_host()
    # the raw query string: two spellings of one query are two keys, each answered right
    url = f"{request.scheme}://{host}{request.path}?{request.META.get('QUERY_STRING', '')}"
    if policy.settings_names:
        url += repr([getattr(settings, name) for name in policy.settings_names])
    return AnswerLookup(answer_key(url, body), time.time())


def answer_key(url: str, body: bytes = b"") -> str:
    """The key of the answer to `url` (`scheme://host/path?query`, the query as sent: a URL
    without one ends in `?`) and, for a read-only POST, its content type and body."""
    digest = hashlib.blake2b(url.encode() + b"\0" + body, digest_size=16).hexdigest()
    return f"answer:{settings.RELEASE}:{digest}"


def _good(answer: RenderedAnswer, now: float) -> bool:
    """Before its schedule boundary, and every namespace it depends on (the view's and the
    records it showed) still at the version it was rendered with: one read of them all."""
    return (answer.valid_until is None or answer.valid_until > now) and still_current(
        dict(answer.dependencies)
    )


def _stored_answer(lookup: AnswerLookup, policy: AnswerPolicy) -> RenderedAnswer | None:
    """The good answer rendered ahead for the key, else the cache's (None: neither)."""
    # The answer rendered ahead first: it is there for nearly every key of its view (the cache
    # holds only those a request rendered since a change). Not copied into the cache: the
    # store serves it again, and one-off pages would push out others.
    answer = policy.ahead(lookup.key) if policy.ahead else None
    if answer is None or not _good(answer, lookup.now):
        answer = cache.get(lookup.key)
        if answer is None or not _good(answer, lookup.now):
            return None
    return answer


def _kept_answer(
    request: HttpRequest, lookup: AnswerLookup, policy: AnswerPolicy
) -> HttpResponse | None:
    """The kept answer to the request, if any is still good: this process's recent one, the
    cache's, or the one rendered ahead."""
    recent = _recent_answers()
    answer = recent.get(lookup.key, lookup.now) if recent else None
    if answer is None or not _good(answer, lookup.now):  # another process may have a newer
        answer, keep = _stored_answer(lookup, policy), True
        if answer is None:
            return None
    else:
        keep = False
    encoded = _encoded_for(request, answer)
    if encoded is not answer:  # its first request asking for an encoding: kept with it
        answer, keep = encoded, True
        if (timeout := _timeout(answer, lookup.now)) > 0:
            cache.set(lookup.key, answer, timeout=timeout)
    if keep and recent:
        recent.put(lookup.key, answer, lookup.now)
    response = answer.response(request, lookup.now)
    response["X-Cache"] = "hit"
    return response


def _encoded_for(request: HttpRequest, answer: RenderedAnswer) -> RenderedAnswer:
    """`answer` with its compressed bodies when `request` asks for an encoding and it has
    none yet: an answer is compressed once, by the first request that asks, never for
    clients that do not (a listing miss compressed for nobody cost a tenth of its CPU)."""
    if answer.variants or chosen_encoding(request) is None:
        return answer
    return answer.with_variants()  # (the same answer under MIN_BYTES or with fresh ids)


def _timeout(answer: RenderedAnswer, now: float) -> int:
    """How long the cache keeps `answer`: PUBLIC_CACHE_SECONDS, or to its schedule boundary."""
    timeout = settings.PUBLIC_CACHE_SECONDS
    if answer.valid_until is not None:
        timeout = min(timeout, math.floor(answer.valid_until - now))
    return timeout


def cached_answers(
    view: Callable[..., HttpResponseBase],
    *,
    namespaces: tuple[str, ...],
    settings_names: tuple[str, ...] = (),
    read_only_post: bool = False,
    ahead: AheadStore | None = None,
) -> Callable[..., HttpResponseBase]:
    """Serve a GET view's `conditional_response` answers from the shared cache, keyed by the
    absolute URL and the values of `settings_names`; the versions of `namespaces` and of the
    records the view read (`depend_on`) are kept with the answer and checked before reuse.
    With `read_only_post`, a POST that only computes is stored under its body too. With
    `ahead`, an answer missing from the cache is looked for there before the view renders it."""
    policy = AnswerPolicy(namespaces, settings_names, read_only_post, ahead)

    @functools.wraps(view)
    def serve(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        with scope() as context:
            lookup, context.lookup = context.lookup, None  # early_answers looked already
            if lookup is None:
                lookup = _lookup(request, policy)
                if lookup is None:
                    return view(request, *args, **kwargs)
                kept = _kept_answer(request, lookup, policy)
                if kept is not None:
                    return kept
            context.rendered = None
            with recording() as recorded:
                depend_on(policy.namespaces)  # read before the view reads their data
                response = view(request, *args, **kwargs)
            rendered, context.rendered = context.rendered, None
        response["X-Cache"] = "miss"
        answer = rendered[1] if rendered is not None and rendered[0] is response else None
        if answer is not None:
            dependencies = tuple(recorded.items())
            answer = replace(answer, dependencies=dependencies, allow=response.get("Allow", ""))
            timeout = _timeout(answer, lookup.now)
            if timeout > 0:
                answer = _encoded_for(request, answer)  # compressed once, for every later hit
                cache.set(lookup.key, answer, timeout=timeout)
                recent = _recent_answers()
                if recent:
                    recent.put(lookup.key, answer, lookup.now)
            context.rendered = (response, answer)  # apikit.compression takes its variant
        return response

    serve.answer_policy = policy  # type: ignore[attr-defined]  # read by early_answers
    return serve


# A path segment of digits only (an id, a postal code): every one resolves as `0` does, as
# no route has a segment of fixed digits and no converter tells numbers apart
# (tests/storefront/test_early_answers.py checks both), so one resolution serves every
# product page, not one per id (a resolution costs 60-250 µs; a store has 36,000 pages).
_DIGITS = re.compile(r"(?<=/)[0-9]+(?=/|$)")


def _policy_of(path_info: str) -> AnswerPolicy | None:
    """The answer policy of the view serving `path_info` (None: no kept answers)."""
    return _policy_of_shape(_DIGITS.sub("0", path_info))


@functools.lru_cache(maxsize=4096)
def _policy_of_shape(path_info: str) -> AnswerPolicy | None:
    try:
        return getattr(resolve(path_info).func, "answer_policy", None)
    except Resolver404:
        return None


def _urls_changed(*, setting: str, **kwargs: Any) -> None:
    if setting == "ROOT_URLCONF":
        _policy_of_shape.cache_clear()


setting_changed.connect(_urls_changed)


def early_answers(get_response: Callable[[HttpRequest], HttpResponseBase]) -> Callable:
    """Middleware: a kept answer to a GET, served before the middleware below this one
    (sessions, the admin's language, CSRF, authentication, messages): they add nothing to a
    public answer but its length and X-Frame-Options (tests/storefront/test_caching.py)."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        if request.method in ("GET", "HEAD"):
            policy = _policy_of(request.path_info)
            lookup = _lookup(request, policy) if policy is not None else None
            if lookup is not None and policy is not None:  # (a lookup implies a policy)
                kept = _kept_answer(request, lookup, policy)
                if kept is not None:
                    kept["Content-Length"] = str(len(kept.content))
                    kept.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS.upper())
                    return kept
                context = current()
                if context is not None:  # for cached_answers: no second lookup
                    context.lookup = lookup
        return get_response(request)

    return middleware
