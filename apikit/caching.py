"""Rendered answers of public reads: their bytes, ETag and Cache-Control, kept in the shared
cache under the versions of the namespaces they depend on (infra.cache)."""

import functools
import hashlib
import math
import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase

from infra.cache import cache_is_local, namespace_versions, recording, still_current

from .renderers import json_bytes


def etag_for(body: bytes) -> str:
    """Strong validator of a rendered body."""
    return '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'


def _body_length(request: HttpRequest) -> int:
    """The Content-Length (-1 when unreadable): anything but 0 means a body."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return -1


@functools.cache
def fresh_uuid_marker() -> str:
    """A stand-in for a UUID4 that must be new in every answer (a quote's `quoteId`): put it
    in the payload, and each response of the stored answer replaces every occurrence with a
    fresh `uuid4()`. Derived from SECRET_KEY, so every process of the store agrees on it and
    no caller can plant it in data."""
    digest = hashlib.blake2b(settings.SECRET_KEY.encode(), digest_size=12, person=b"fresh-uuid")
    return f"fresh-uuid4-{digest.hexdigest()}"


@functools.cache
def _fresh_uuid_pattern() -> re.Pattern[bytes]:
    return re.compile(re.escape(fresh_uuid_marker().encode()))


@dataclass(frozen=True)
class RenderedAnswer:
    """A 200 JSON answer rendered once: its bytes, ETag and how long it may be reused.

    `valid_until` (epoch seconds) is the next moment the answer changes by itself (a
    schedule boundary): neither the shared cache nor a client keeps it past that.
    """

    body: bytes
    etag: str
    scope: str
    max_age: int
    valid_until: float | None = None
    fresh_uuids: bool = False  # the body holds fresh_uuid_marker()s: no ETag, new ids each time
    # Versions of single records the answer shows (a product's): checked before it is reused.
    dependencies: tuple[tuple[str, int], ...] = ()
    # The code's version that rendered it (settings.RELEASE), sent as X-Release: a stored
    # answer served by another release would show it (keys carry the release: it never is).
    release: str = ""

    def seconds_left(self, now: float) -> int:
        if self.valid_until is None:
            return self.max_age
        return max(0, min(self.max_age, math.floor(self.valid_until - now)))

    def response(self, request: HttpRequest, now: float | None = None) -> HttpResponse:
        """200 with the body, or 304 when the client's If-None-Match matches."""
        if request.method == "POST" or self.fresh_uuids:  # no HTTP caching of this answer
            body = self.body
            if self.fresh_uuids:
                body = _fresh_uuid_pattern().sub(lambda _: str(uuid.uuid4()).encode(), body)
            response = HttpResponse(body, content_type="application/json")
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
        response.rendered_answer = self  # type: ignore[attr-defined]  # read by cached_answers
        return response

    def matches(self, if_none_match: str) -> bool:
        candidates = {tag.strip() for tag in if_none_match.split(",")}
        return self.etag in candidates or f"W/{self.etag}" in candidates or "*" in candidates


def conditional_response(
    request: HttpRequest,
    payload: Any,
    *,
    max_age: int | None = None,
    valid_until: datetime | None = None,
    fresh_uuids: bool = False,
) -> HttpResponse:
    """200 with ETag and Cache-Control, or 304 when the client's If-None-Match matches.

    The answer is rendered once; `cached_answers` (below) keeps its bytes in the shared
    cache so the next request is served without building or encoding it again.
    """
    body = json_bytes(payload)
    answer = RenderedAnswer(
        body=body,
        etag=etag_for(body),
        # A response that may depend on a request body (the banner listing reads `codes`
        # from the body of a GET) is `private`: shared caches key on the URL.
        scope="private" if _body_length(request) else "public",
        max_age=settings.PUBLIC_CACHE_SECONDS if max_age is None else max_age,
        valid_until=valid_until.timestamp() if valid_until is not None else None,
        fresh_uuids=fresh_uuids,
        release=settings.RELEASE,
    )
    return answer.response(request)


_ANSWER_KEY = "answer:{release}:{versions}:{digest}"


def _accepts_json(request: HttpRequest) -> bool:
    accept = request.META.get("HTTP_ACCEPT")
    return not accept or "json" in accept or "*/*" in accept


class RecentAnswers:
    """The process's most recently served answers, by key, so a hot answer costs no trip to
    the shared cache (no network, no unpickling). Exact all the same: the key carries the
    namespace versions, read from the shared cache on every request, and an entry lives
    `SECONDS` at most. Bounded by entries and bytes; safe across threads."""

    SECONDS = 5
    MAX_ENTRIES = 2048
    MAX_BYTES = 8 * 1024 * 1024

    def __init__(self) -> None:
        self._entries: OrderedDict[str, tuple[float, RenderedAnswer]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: str, now: float) -> RenderedAnswer | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] <= now:
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: str, answer: RenderedAnswer, now: float) -> None:
        if len(answer.body) > self.MAX_BYTES // 8:
            return
        with self._lock:
            if key in self._entries:
                self._drop(key)
            self._entries[key] = (now + self.SECONDS, answer)
            self._bytes += len(answer.body)
            while len(self._entries) > self.MAX_ENTRIES or self._bytes > self.MAX_BYTES:
                self._drop(next(iter(self._entries)))

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def _drop(self, key: str) -> None:
        _, answer = self._entries.pop(key)
        self._bytes -= len(answer.body)


RECENT_ANSWERS = RecentAnswers()


def _recent_answers() -> RecentAnswers | None:
    """The recent answers, in front of a shared cache only: a local-memory cache is the
    process's own already, and a second copy of every answer cost a worker 20 MB."""
    return None if cache_is_local() else RECENT_ANSWERS


# Bodies of read-only POSTs larger than this are computed every time (never a cache key).
MAX_CACHED_BODY = 16 * 1024
# URL digest -> the records (product versions) its last answer showed, this process.
_SHOWN: dict[str, tuple[str, ...]] = {}
MAX_CACHED_URLS = 50_000


def _remember_shown(digest: str, records: tuple[str, ...]) -> None:
    """Note the records a URL's answer showed: the next request of the URL reads their
    versions with the namespaces', in one cache call."""
    if len(_SHOWN) >= MAX_CACHED_URLS:
        _SHOWN.clear()
    _SHOWN[digest] = records


def cached_answers(
    view: Callable[..., HttpResponseBase],
    *,
    namespaces: tuple[str, ...],
    settings_names: tuple[str, ...] = (),
    read_only_post: bool = False,
) -> Callable[..., HttpResponseBase]:
    """Serve a GET view's 200 answers from the shared cache, as rendered bytes.

    The key is the request's absolute URL (scheme, host, path and query: media URLs and
    the sales channel follow the host) under the current versions of `namespaces`, so a
    staff change to any of them retires every stored answer at once; the versions of
    single records the view read (`infra.cache.depend_on`: the products it shows) are
    kept with the answer and checked before it is served again; the values of
    `settings_names` (settings that shape the answer) are part of the key too, so a
    deploy that changes one never meets the answers of the old value. Only answers built
    by `conditional_response` are stored, each until its `valid_until` at the latest.
    Requests with a body, and other methods, always reach the view; with
    `read_only_post` (a POST that only computes, like the payment conditions), a POST's
    answer is stored under its body too.
    """

    @functools.wraps(view)
    def serve(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        body = b""
        if request.method == "POST" and read_only_post:
            if not 0 < _body_length(request) <= MAX_CACHED_BODY:
                return view(request, *args, **kwargs)
            # the media type decides whether the view parses the body at all (415)
            body = request.META.get("CONTENT_TYPE", "").encode() + b"\0" + request.body
        elif request.method not in ("GET", "HEAD") or _body_length(request):
            return view(request, *args, **kwargs)
        if not _accepts_json(request):
            return view(request, *args, **kwargs)
        # The Host header was validated against ALLOWED_HOSTS by CommonMiddleware.
        host = request.META.get("HTTP_HOST") or request.get_host()
        # the raw query string: two spellings of one query are two keys, each answered right
        url = f"{request.scheme}://{host}{request.path}?{request.META.get('QUERY_STRING', '')}"
        if settings_names:
            url += repr([getattr(settings, name) for name in settings_names])
        digest = hashlib.blake2b(url.encode() + b"\0" + body, digest_size=16).hexdigest()
        # the records this URL's last answer showed are read with the namespaces, in the
        # same cache call (Redis: no second round trip to check them)
        shown = _SHOWN.get(digest, ())
        versions = ".".join(map(str, namespace_versions((*namespaces, *shown))[: len(namespaces)]))
        key = _ANSWER_KEY.format(release=settings.RELEASE, versions=versions, digest=digest)
        now = time.time()
        recent = _recent_answers()
        answer = recent.get(key, now) if recent else None
        if answer is None:
            answer = cache.get(key)
            if answer is not None and recent:
                recent.put(key, answer, now)
        if (
            answer is not None
            and (answer.valid_until is None or answer.valid_until > now)
            and still_current(dict(answer.dependencies))
        ):
            if len(shown) != len(answer.dependencies):  # rendered by another process
                _remember_shown(digest, tuple(name for name, _ in answer.dependencies))
            response = answer.response(request, now)
            response["X-Cache"] = "hit"
            return response
        with recording() as recorded:
            response = view(request, *args, **kwargs)
        response["X-Cache"] = "miss"
        answer = getattr(response, "rendered_answer", None)
        if answer is not None:
            answer = replace(answer, dependencies=tuple(recorded.items()))
            _remember_shown(digest, tuple(recorded))
            timeout = settings.PUBLIC_CACHE_SECONDS
            if answer.valid_until is not None:
                timeout = min(timeout, math.floor(answer.valid_until - now))
            if timeout > 0:
                cache.set(key, answer, timeout=timeout)
                if recent:
                    recent.put(key, answer, now)
        return response

    return serve
