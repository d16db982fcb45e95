"""Shared-cache helpers for hot public reads, and HTTP validators (ETag, Cache-Control).

Invalidation is by namespace version: `cache_namespace_bump("categories")` makes every
key of that namespace unreachable at once (signals call it when staff change data).
The version starts from the clock, so an evicted version key never brings old
entries back.
"""

import functools
import hashlib
import math
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpResponse, HttpResponseNotModified

from .renderers import json_bytes

_VERSION_KEY = "ns-version:{namespace}"


def _namespace_version(namespace: str) -> int:
    key = _VERSION_KEY.format(namespace=namespace)
    version = cache.get(key)
    if version is None:
        version = time.time_ns()
        cache.add(key, version, timeout=None)
        version = cache.get(key) or version
    return version


def cache_namespace_bump(namespace: str) -> None:
    """Forget every cached value of the namespace (call on any change to its data).

    The new version is larger than both the old one and the clock, so it differs from the
    old one even when the clock stands still (frozen time in tests) or steps back.
    """
    key = _VERSION_KEY.format(namespace=namespace)
    old = cache.get(key) or 0
    cache.set(key, max(old + 1, time.time_ns()), timeout=None)


def cached(namespace: str, key: str, build: Callable[[], Any], timeout: int | None = None) -> Any:
    """Return the cached value for (namespace, key), building and storing it on a miss.

    A cache outage (Redis down) is a miss: the value is built from the database.
    """
    full_key = f"{namespace}:{_namespace_version(namespace)}:{key}"
    value = cache.get(full_key)
    if value is None:
        value = build()
        cache.set(
            full_key,
            value,
            timeout=settings.PUBLIC_CACHE_SECONDS if timeout is None else timeout,
        )
    return value


def namespace_versions(namespaces: tuple[str, ...]) -> tuple[int, ...]:
    """The current version of each namespace, read in one cache call."""
    keys = [_VERSION_KEY.format(namespace=namespace) for namespace in namespaces]
    found = cache.get_many(keys)
    return tuple(
        found.get(key) or _namespace_version(namespace)
        for key, namespace in zip(keys, namespaces, strict=True)
    )


def etag_for(body: bytes) -> str:
    """Strong validator of a rendered body."""
    return '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'


def _body_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return -1


def _has_body(request) -> bool:
    return _body_length(request) != 0


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

    @classmethod
    def of(
        cls,
        request,
        payload: Any,
        *,
        max_age: int | None = None,
        valid_until=None,
        fresh_uuids: bool = False,
    ):
        body = json_bytes(payload)
        return cls(
            fresh_uuids=fresh_uuids,
            body=body,
            etag=etag_for(body),
            # A response that may depend on a request body (the banner listing reads
            # `codes` from the body of a GET) is `private`: shared caches key on the URL.
            scope="private" if _has_body(request) else "public",
            max_age=settings.PUBLIC_CACHE_SECONDS if max_age is None else max_age,
            valid_until=valid_until.timestamp() if valid_until is not None else None,
        )

    def seconds_left(self, now: float) -> int:
        if self.valid_until is None:
            return self.max_age
        return max(0, min(self.max_age, math.floor(self.valid_until - now)))

    def response(self, request, now: float | None = None) -> HttpResponse:
        """200 with the body, or 304 when the client's If-None-Match matches."""
        if request.method == "POST" or self.fresh_uuids:  # no HTTP caching of this answer
            body = self.body
            if self.fresh_uuids:
                body = _fresh_uuid_pattern().sub(lambda _: str(uuid.uuid4()).encode(), body)
            response = HttpResponse(body, content_type="application/json")
            response.rendered_answer = self
            return response
        seconds = self.seconds_left(time.time() if now is None else now)
        headers = {"ETag": self.etag, "Cache-Control": f"{self.scope}, max-age={seconds}"}
        if_none_match = request.META.get("HTTP_IF_NONE_MATCH")
        if if_none_match and self.matches(if_none_match):
            response = HttpResponseNotModified(headers=headers)
        else:
            response = HttpResponse(self.body, content_type="application/json", headers=headers)
        response.rendered_answer = self
        return response

    def matches(self, if_none_match: str) -> bool:
        candidates = {tag.strip() for tag in if_none_match.split(",")}
        return self.etag in candidates or f"W/{self.etag}" in candidates or "*" in candidates


def conditional_response(
    request,
    payload: Any,
    *,
    max_age: int | None = None,
    valid_until=None,
    fresh_uuids: bool = False,
) -> HttpResponse:
    """200 with ETag and Cache-Control, or 304 when the client's If-None-Match matches.

    The answer is rendered once; `cached_answers` (below) keeps its bytes in the shared
    cache so the next request is served without building or encoding it again.
    """
    answer = RenderedAnswer.of(
        request, payload, max_age=max_age, valid_until=valid_until, fresh_uuids=fresh_uuids
    )
    return answer.response(request)


_ANSWER_KEY = "answer:{versions}:{digest}"


def _accepts_json(request) -> bool:
    accept = request.META.get("HTTP_ACCEPT")
    return not accept or "json" in accept or "*/*" in accept


# Bodies of read-only POSTs larger than this are computed every time (never a cache key).
MAX_CACHED_BODY = 16 * 1024


def cached_answers(
    view,
    *,
    namespaces: tuple[str, ...],
    settings_names: tuple[str, ...] = (),
    read_only_post: bool = False,
):
    """Serve a GET view's 200 answers from the shared cache, as rendered bytes.

    The key is the request's absolute URL (scheme, host, path and query: media URLs and
    the sales channel follow the host) under the current versions of `namespaces`, so a
    staff change to any of them retires every stored answer at once; the values of
    `settings_names` (settings that shape the answer) are part of the key too, so a
    deploy that changes one never meets the answers of the old value. Only answers built
    by `conditional_response` are stored, each until its `valid_until` at the latest.
    Requests with a body, and other methods, always reach the view; with
    `read_only_post` (a POST that only computes, like the payment conditions), a POST's
    answer is stored under its body too.
    """

    @functools.wraps(view)
    def serve(request, *args, **kwargs):
        body = b""
        if request.method == "POST" and read_only_post:
            if not 0 < _body_length(request) <= MAX_CACHED_BODY:
                return view(request, *args, **kwargs)
            # the media type decides whether the view parses the body at all (415)
            body = request.META.get("CONTENT_TYPE", "").encode() + b"\0" + request.body
        elif request.method not in ("GET", "HEAD") or _has_body(request):
            return view(request, *args, **kwargs)
        if not _accepts_json(request):
            return view(request, *args, **kwargs)
        versions = ".".join(map(str, namespace_versions(namespaces)))
        # The Host header was validated against ALLOWED_HOSTS by CommonMiddleware.
        host = request.META.get("HTTP_HOST") or request.get_host()
        url = f"{request.scheme}://{host}{request.get_full_path()}"
        if settings_names:
            url += repr([getattr(settings, name) for name in settings_names])
        digest = hashlib.blake2b(url.encode() + b"\0" + body, digest_size=16).hexdigest()
        key = _ANSWER_KEY.format(versions=versions, digest=digest)
        now = time.time()
        answer = cache.get(key)
        if answer is not None and (answer.valid_until is None or answer.valid_until > now):
            return answer.response(request, now)
        response = view(request, *args, **kwargs)
        answer = getattr(response, "rendered_answer", None)
        if answer is not None:
            timeout = settings.PUBLIC_CACHE_SECONDS
            if answer.valid_until is not None:
                timeout = min(timeout, math.floor(answer.valid_until - now))
            if timeout > 0:
                cache.set(key, answer, timeout=timeout)
        return response

    return serve


def invalidate_on_change(namespace: str, *models) -> None:
    """Bump `namespace` whenever a row of `models` is saved or deleted, or one of their
    many-to-many links changes (the one side effect allowed in signals).

    Writes that skip signals (`QuerySet.update`, raw SQL imports) bump it themselves.
    """

    def bump(**kwargs) -> None:
        cache_namespace_bump(namespace)

    def bump_on_link(action: str, **kwargs) -> None:
        if action in ("post_add", "post_remove", "post_clear"):
            cache_namespace_bump(namespace)

    for model in models:
        uid = f"{namespace}:{model._meta.label}"
        post_save.connect(bump, sender=model, weak=False, dispatch_uid=f"{uid}:save")
        post_delete.connect(bump, sender=model, weak=False, dispatch_uid=f"{uid}:delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(
                bump_on_link,
                sender=field.remote_field.through,
                weak=False,
                dispatch_uid=f"{uid}:{field.name}",
            )
