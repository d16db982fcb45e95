"""The shared-cache helpers: cached values, namespace invalidation, HTTP validators.

Marked `cache`: CI runs them again against Redis when REDIS_URL is set.
"""

from unittest import mock

import pytest
from django.core.cache import cache
from rest_framework.test import APIRequestFactory

from apikit.caching import conditional_response, etag_for
from apikit.renderers import json_bytes
from infra.caching.kept import cached
from infra.caching.versions import CacheVersions, cache_namespace_bump

pytestmark = pytest.mark.cache


def test_cached_builds_once_then_serves_from_cache():
    build = mock.Mock(return_value={"a": 1})
    assert cached("ns-test", "k", build) == {"a": 1}
    assert cached("ns-test", "k", build) == {"a": 1}
    assert build.call_count == 1


def test_namespace_bump_forgets_every_key_of_the_namespace_only():
    cached("ns-a", "k1", lambda: "old-1")
    cached("ns-a", "k2", lambda: "old-2")
    cached("ns-b", "k1", lambda: "other")
    cache_namespace_bump("ns-a")
    assert cached("ns-a", "k1", lambda: "new-1") == "new-1"
    assert cached("ns-a", "k2", lambda: "new-2") == "new-2"
    assert cached("ns-b", "k1", lambda: "changed") == "other"


def test_an_evicted_version_key_never_brings_old_entries_back(monkeypatch):
    # versions kept in the shared cache (Redis), where a key may be evicted
    monkeypatch.setattr("infra.caching.versions._store", lambda: CacheVersions())
    cached("ns-c", "k", lambda: "old")
    cache.delete("ns-version:ns-c")
    assert cached("ns-c", "k", lambda: "fresh") == "fresh"


def test_a_version_never_seen_is_started_with_one_call_and_every_reader_agrees(monkeypatch):
    # versions kept in the shared cache (Redis), none of them there yet (Redis restarted)
    monkeypatch.setattr("infra.caching.versions._store", lambda: CacheVersions())
    calls = []
    for name in ("get", "add"):
        real = getattr(cache, name)
        monkeypatch.setattr(
            cache, name, lambda *a, real=real, name=name, **k: calls.append(name) or real(*a, **k)
        )
    first, second = CacheVersions(), CacheVersions()  # two processes

    (started,) = first.read(("ns-new",))
    assert calls[-1] == "add"  # no read back of the version it just wrote
    # the other process read none either (before the first one's add), then adds its own
    monkeypatch.setattr(cache, "get_many", lambda *a, **k: {})
    assert second.read(("ns-new",)) == (started,)  # its add lost: the one there is read
    assert calls[-2:] == ["add", "get"]


def unreachable_redis_cache():
    from django_redis.cache import RedisCache

    return RedisCache(
        "redis://127.0.0.1:1/0",
        {
            "OPTIONS": {
                "CLIENT_CLASS": "django_redis.client.DefaultClient",
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.2,
                "SOCKET_TIMEOUT": 0.2,
            }
        },
    )


def test_a_redis_outage_is_a_cache_miss_not_an_error():
    with mock.patch("infra.caching.kept.cache", unreachable_redis_cache()):
        assert cached("ns-down", "k", lambda: "built") == "built"
        assert cached("ns-down", "k", lambda: "built again") == "built again"
        cache_namespace_bump("ns-down")  # does not raise either


def test_etag_is_stable_and_changes_with_the_payload():
    assert etag_for(b'{"a":1}') == etag_for(b'{"a":1}')
    assert etag_for(b'{"a":1}') != etag_for(b'{"a":2}')


def test_conditional_response_answers_304_for_a_matching_etag():
    factory = APIRequestFactory()
    payload = {"status": True, "data": [1, 2]}
    first = conditional_response(factory.get("/x"), payload, max_age=60)
    assert first.status_code == 200
    assert first["Cache-Control"] == "public, max-age=60"
    again = conditional_response(factory.get("/x", HTTP_IF_NONE_MATCH=first["ETag"]), payload)
    assert again.status_code == 304
    other = conditional_response(factory.get("/x", HTTP_IF_NONE_MATCH='"nope"'), payload)
    assert other.status_code == 200


def test_namespace_bump_works_while_the_clock_stands_still(monkeypatch):
    monkeypatch.setattr("infra.caching.versions.time.time_ns", lambda: 1_000)
    cached("ns-frozen", "k", lambda: "old")
    cache_namespace_bump("ns-frozen")
    assert cached("ns-frozen", "k", lambda: "new") == "new"
    cache_namespace_bump("ns-frozen")
    assert cached("ns-frozen", "k", lambda: "newer") == "newer"


def test_a_response_read_from_a_request_body_is_private():
    factory = APIRequestFactory()
    request = factory.generic("GET", "/x", b'{"codes": ["a"]}', content_type="application/json")
    response = conditional_response(request, {"status": True}, max_age=60)
    assert response["Cache-Control"] == "private, max-age=60"


def test_recent_answers_are_bounded_and_expire():
    from apikit.caching import RecentAnswers, RenderedAnswer

    recent = RecentAnswers(max_entries=2)

    def answer(body: bytes) -> RenderedAnswer:
        return RenderedAnswer(body=body, etag='"x"', scope="public", max_age=60)

    recent.put("a", answer(b"1"), now=100.0)
    recent.put("b", answer(b"2"), now=100.0)
    assert recent.get("a", now=101.0).body == b"1"  # "a" is now the most recent
    recent.put("c", answer(b"3"), now=101.0)  # evicts the least recent: "b"
    assert recent.get("b", now=101.0) is None
    assert recent.get("c", now=101.0).body == b"3"
    assert recent.get("a", now=100.0 + RecentAnswers.SECONDS) is None  # expired


def test_recent_answers_asked_once_never_push_out_one_asked_again():
    from apikit.caching import RecentAnswers, RenderedAnswer

    recent = RecentAnswers(max_entries=4)
    popular = RenderedAnswer(body=b"popular", etag='"p"', scope="public", max_age=60)
    recent.put("popular", popular, now=100.0)
    assert recent.get("popular", now=100.0) is popular  # its second use
    for number in range(50):  # quotes of random carts, each asked once
        one_off = RenderedAnswer(body=b"cart", etag='"c"', scope="public", max_age=60)
        recent.put(f"cart-{number}", one_off, now=100.0)
    assert recent.get("popular", now=101.0) is popular
    assert recent.get("cart-49", now=101.0) is not None  # the newest one-off is still kept
    assert recent.get("cart-0", now=101.0) is None


def test_recent_answers_keep_an_answer_by_its_gzip_bytes_and_give_back_the_same_answer():
    from apikit.caching import RecentAnswers, RenderedAnswer

    def answer(number: int) -> RenderedAnswer:
        body = json_bytes([{"id": number, "text": "Chegou antes do prazo, recomendo!"}] * 150)
        return RenderedAnswer(body=body, etag=f'"{number}"', scope="public", max_age=60)

    plain = [answer(number).with_variants() for number in range(40)]
    assert len(plain[0].body) > 6000 and dict(plain[0].variants)["gzip"]
    # 40 answers of 6 KB are 240 KB: held in 64 KB only as their gzip bytes
    recent = RecentAnswers(max_entries=100, max_bytes=64 * 1024)
    for number, kept in enumerate(plain):
        recent.put(str(number), kept, now=100.0)
    for number, kept in enumerate(plain):
        assert recent.get(str(number), now=101.0) == kept  # body, ETag, variants: the same
    small = RenderedAnswer(body=b'{"a":1}', etag='"s"', scope="public", max_age=60)
    recent.put("small", small.with_variants(), now=100.0)  # no variant: kept as it is
    assert recent.get("small", now=101.0) is not None
    assert recent.get("small", now=101.0).body == b'{"a":1}'


def test_recent_answers_stand_only_in_front_of_a_shared_cache(settings):
    from apikit.caching import RECENT_ANSWERS, _recent_answers

    settings.CACHES = {"default": {"BACKEND": "infra.caching.backend.BoundedLocMemCache"}}
    assert _recent_answers() is None  # the local cache is the process's own: no second copy
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    assert _recent_answers() is RECENT_ANSWERS
