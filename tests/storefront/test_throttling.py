"""Rate limits: atomic counters (exact under concurrency), RateLimit-* headers on every
answer of a throttled endpoint, and what happens while the shared cache is down (sign-in
limits hold through the database, public writes fail open and say so once).

The `cache` tests run on the local-memory cache in every suite and on Redis in CI's
cache run (REDIS_URL).
"""

import logging
import threading
from collections import Counter

import pytest
import time_machine
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from feedback.api.views import CommentCreateView
from feedback.models import Comment
from storefront.api import throttling
from storefront.models import ThrottleCounter
from tests.catalog.factories import ProductFactory
from tests.helpers import assert_error_envelope
from tests.storefront.factories import CustomerFactory

LOGIN = "/publics/customers/login"
COMMENT = {"message": "Does it come in blue?", "customerName": "Ana", "customerEmail": "a@x.io"}


@pytest.fixture
def rates(monkeypatch):
    def set_rates(**overrides):
        merged = {"public_write": "30/min", "login": "10/min", "login_email": "5/min"}
        merged.update(overrides)
        monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", merged)

    return set_rates


@pytest.fixture
def cache_down(monkeypatch):
    """The shared cache is unavailable: every counter hit answers None, like the breaker
    backend while it is open (the hung-Redis path itself is tested in test_cache_outage)."""
    monkeypatch.setattr(cache, "add", lambda *args, **kwargs: None, raising=False)
    monkeypatch.setattr(cache, "incr", lambda *args, **kwargs: None, raising=False)
    monkeypatch.setattr(throttling, "cache_is_local", lambda: False)  # a shared cache, down
    throttling.shared_cache_outage.down = False
    yield
    throttling.shared_cache_outage.down = False


def one_at_a_time(method, turn):
    def wrapper(*args, **kwargs):
        with turn:
            return method(*args, **kwargs)

    return wrapper


def comment_url(product_id: int) -> str:
    return f"/publics/products/{product_id}/comments"


def wrong_login(client, email="joana@example.com", ip="10.0.0.1"):
    body = {"email": email, "password": "wrong password"}
    return client.post(LOGIN, body, format="json", REMOTE_ADDR=ip)


# --- atomic counters --------------------------------------------------------------------


@pytest.mark.cache
@pytest.mark.django_db(transaction=True)
def test_80_parallel_comment_posts_from_one_ip_let_exactly_the_limit_through(rates, monkeypatch):
    rates(public_write="30/min")
    product = ProductFactory()
    if connection.vendor == "sqlite":
        # The in-memory test database (shared cache) refuses concurrent writers with
        # "table is locked" (a file database waits its turn): let the views' bodies take
        # turns, and the database counters (no shared cache) too. The throttle runs before
        # the view's body (DRF's initial()), so a shared cache's counting stays concurrent.
        turn = threading.Lock()
        post = one_at_a_time(CommentCreateView.post, turn)
        monkeypatch.setattr(CommentCreateView, "post", post)
        counter = one_at_a_time(throttling.throttle_counter_hit, turn)
        monkeypatch.setattr(throttling, "throttle_counter_hit", counter)
    start = threading.Barrier(8)
    statuses: list[int] = []
    lock = threading.Lock()

    def one_connection():
        client = APIClient()
        start.wait()
        for _ in range(10):
            response = client.post(
                comment_url(product.pk), COMMENT, format="json", REMOTE_ADDR="203.0.113.7"
            )
            with lock:
                statuses.append(response.status_code)

    threads = [threading.Thread(target=one_connection) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert Counter(statuses) == {201: 30, 429: 50}
    assert Comment.objects.count() == 30


@pytest.mark.cache
@pytest.mark.django_db
def test_every_answer_of_a_throttled_endpoint_carries_the_ratelimit_headers(api_client, rates):
    rates(public_write="3/min")
    product = ProductFactory()
    answers = [api_client.post(comment_url(product.pk), COMMENT, format="json") for _ in range(3)]
    invalid = api_client.post(comment_url(product.pk), {}, format="json")

    assert [a.status_code for a in answers] == [201, 201, 201]
    assert [a["RateLimit-Limit"] for a in answers] == ["3", "3", "3"]
    assert [a["RateLimit-Remaining"] for a in answers] == ["2", "1", "0"]
    assert all(1 <= int(a["RateLimit-Reset"]) <= 60 for a in answers)
    assert_error_envelope(invalid, 429, "TOO_MANY_REQUESTS")
    assert invalid["RateLimit-Remaining"] == "0"
    assert 1 <= int(invalid["Retry-After"]) <= 60
    assert invalid["Retry-After"] == invalid["RateLimit-Reset"]


@pytest.mark.cache
@pytest.mark.django_db
def test_the_headers_report_the_policy_closest_to_exhaustion(api_client, rates):
    rates(login="10/min", login_email="2/min")
    CustomerFactory(email="joana@example.com")

    first = wrong_login(api_client)

    assert first.status_code == 401
    assert (first["RateLimit-Limit"], first["RateLimit-Remaining"]) == ("2", "1")


@pytest.mark.django_db
def test_unthrottled_endpoints_carry_no_ratelimit_headers(api_client):
    response = api_client.get("/publics/payments/card-flags")
    assert response.status_code == 200
    assert "RateLimit-Limit" not in response


@pytest.mark.cache
@pytest.mark.django_db
def test_the_window_starts_with_the_first_hit_and_ends_a_period_later(api_client, rates):
    rates(public_write="2/min")
    product = ProductFactory()
    with time_machine.travel("2026-03-01 12:00:30 +0000", tick=False) as traveller:
        for _ in range(2):
            created = api_client.post(comment_url(product.pk), COMMENT, format="json")
            assert created.status_code == 201
        traveller.shift(59)
        refused = api_client.post(comment_url(product.pk), COMMENT, format="json")
        assert refused.status_code == 429
        assert refused["Retry-After"] == "1"
        if isinstance(caches["default"], LocMemCache):  # Redis expires keys in real time
            traveller.shift(1)
            again = api_client.post(comment_url(product.pk), COMMENT, format="json")
            assert again.status_code == 201
            assert again["RateLimit-Remaining"] == "1"


# --- while the shared cache is down -----------------------------------------------------


@pytest.mark.django_db
def test_customer_login_limits_hold_without_the_cache_through_the_database(
    api_client, rates, cache_down
):
    rates(login="10/min", login_email="5/min")
    CustomerFactory(email="joana@example.com")

    statuses = [wrong_login(api_client, ip=f"10.0.0.{i}").status_code for i in range(25)]

    assert Counter(statuses) == {401: 5, 429: 20}  # per e-mail, across IPs
    assert ThrottleCounter.objects.exists()


@pytest.mark.django_db
def test_customer_login_per_ip_limit_holds_without_the_cache(api_client, rates, cache_down):
    rates(login="3/min", login_email="100/min")

    statuses = [wrong_login(api_client, email=f"u{i}@example.com").status_code for i in range(6)]

    assert statuses == [401, 401, 401, 429, 429, 429]


@pytest.mark.django_db
def test_public_writes_fail_open_without_the_cache_and_say_so_once(
    api_client, rates, cache_down, caplog
):
    caplog.set_level(logging.WARNING, logger="storefront.throttling")
    rates(public_write="2/min")
    product = ProductFactory()

    statuses = [
        api_client.post(comment_url(product.pk), COMMENT, format="json").status_code
        for _ in range(5)
    ]

    assert statuses == [201] * 5
    outage_lines = [r for r in caplog.records if "fail open" in r.getMessage()]
    assert len(outage_lines) == 1


@pytest.mark.django_db
def test_the_database_counter_starts_a_new_window_after_the_old_one_ends():
    from storefront.services import throttle_counter_hit

    assert throttle_counter_hit(key="k", now=1000.0, duration=60) == (1, 1060.0)
    assert throttle_counter_hit(key="k", now=1059.0, duration=60) == (2, 1060.0)
    assert throttle_counter_hit(key="k", now=1060.0, duration=60) == (1, 1120.0)
    assert throttle_counter_hit(key="other", now=1060.0, duration=60) == (1, 1120.0)
