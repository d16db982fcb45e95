"""The admin's sign-in limit (django-axes): failures counted per client IP and per
username in the database, a lockout page in the admin, and an admin screen to lift it."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/?next=/admin/"
PASSWORD = "correct horse battery staple"
ATTACKER = "198.51.100.7"


@pytest.fixture
def staff():
    return get_user_model().objects.create_superuser("boss", "boss@example.com", PASSWORD)


@pytest.fixture
def colleague():
    return get_user_model().objects.create_superuser("ana", "ana@example.com", PASSWORD)


def sign_in(username, password, ip, **extra):
    client = Client(REMOTE_ADDR=ip)
    response = client.post(LOGIN, {"username": username, "password": password}, **extra)
    return client, response


def signed_in(client) -> bool:
    return client.get("/admin/").status_code == 200


def lock_out(username="boss", ip=ATTACKER, failures=5):
    for _ in range(failures):
        _, response = sign_in(username, "wrong password", ip)
    return response


def test_the_right_password_is_refused_after_five_wrong_ones(staff):
    for _ in range(4):
        _, response = sign_in("boss", "wrong password", ATTACKER)
        assert response.status_code == 200  # the login page, with the usual error

    fifth = lock_out(failures=1)
    client, right = sign_in("boss", PASSWORD, ATTACKER)

    for response in (fifth, right):
        assert response.status_code == 429
        assert int(response["Retry-After"]) == 15 * 60
        page = response.content.decode()
        assert "Too many failed sign-in attempts" in page
        assert "Try again in 15 minutes" in page
        assert 'name="password"' in page  # the admin's own login page
    assert not signed_in(client)


def test_the_limit_works_without_any_cache(staff):
    dummy = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    with override_settings(CACHES=dummy):
        lock_out()
        client, response = sign_in("boss", PASSWORD, ATTACKER)
    assert response.status_code == 429
    assert not signed_in(client)


def test_the_lock_covers_the_address_and_the_username_but_nobody_else(staff, colleague):
    lock_out(username="boss", ip=ATTACKER)

    _, same_user_elsewhere = sign_in("boss", PASSWORD, "203.0.113.20")
    _, other_user_same_address = sign_in("ana", PASSWORD, ATTACKER)
    client, other_user_elsewhere = sign_in("ana", PASSWORD, "203.0.113.20")

    assert same_user_elsewhere.status_code == 429  # per username
    assert other_user_same_address.status_code == 429  # per IP
    assert other_user_elsewhere.status_code == 302
    assert signed_in(client)


def test_a_forged_forwarded_header_does_not_escape_the_ip_limit(staff, colleague):
    for n in range(5):
        sign_in(f"guess{n}", "wrong password", ATTACKER, HTTP_X_FORWARDED_FOR=f"10.9.9.{n}")

    _, response = sign_in("ana", PASSWORD, ATTACKER, HTTP_X_FORWARDED_FOR="10.9.9.99")

    assert response.status_code == 429


@override_settings(REST_FRAMEWORK={"NUM_PROXIES": 1})
def test_behind_a_trusted_proxy_the_forwarded_client_address_is_limited(staff, colleague):
    proxy = "127.0.0.1"
    for n in range(5):
        sign_in(f"guess{n}", "wrong password", proxy, HTTP_X_FORWARDED_FOR=ATTACKER)

    _, attacker = sign_in("ana", PASSWORD, proxy, HTTP_X_FORWARDED_FOR=ATTACKER)
    client, customer = sign_in("ana", PASSWORD, proxy, HTTP_X_FORWARDED_FOR="203.0.113.20")

    assert attacker.status_code == 429
    assert customer.status_code == 302
    assert signed_in(client)


def test_another_administrator_lifts_the_lock_in_the_admin(staff, colleague):
    lock_out()
    assert AccessAttempt.objects.filter(username="boss").exists()
    admin = Client(REMOTE_ADDR="203.0.113.20")
    admin.force_login(colleague)
    changelist = reverse("admin:axes_accessattempt_changelist")

    listing = admin.get(changelist + "?locked_out=yes")
    assert listing.status_code == 200
    assert "boss" in listing.content.decode()
    attempts = AccessAttempt.objects.filter(username="boss").values_list("pk", flat=True)
    lifted = admin.post(
        changelist,
        {"action": "delete_selected", "_selected_action": list(attempts), "post": "yes"},
    )

    assert lifted.status_code == 302
    client, response = sign_in("boss", PASSWORD, ATTACKER)
    assert response.status_code == 302
    assert signed_in(client)


def test_a_successful_sign_in_resets_the_count(staff):
    lock_out(failures=4)
    sign_in("boss", PASSWORD, ATTACKER)

    fifth = lock_out(failures=1)

    assert fifth.status_code == 200  # counting starts again: one failure, no lock
