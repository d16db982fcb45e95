"""Errors under /admin/ are pages of the admin in the staff member's language, not the API's
JSON envelope; the API keeps its envelope."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from feedback.admin import CommentAdmin
from tests.helpers import assert_error_envelope

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    user = get_user_model().objects.create_user("clerk", password="x" * 12, is_staff=True)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client, user


def assert_admin_page(response, status: int, text: str) -> None:
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert text in page and 'href="/admin/"' in page


@pytest.mark.parametrize("path", ["/admin/nonexistent/", "/admin/feedback/comment/abc/reply/"])
def test_an_unknown_admin_page_is_a_404_page_of_the_admin(staff, path):
    client, user = staff
    user.is_superuser = True
    user.save()
    assert_admin_page(client.get(path), 404, "Esta página não existe.")


def test_a_page_staff_may_not_see_is_a_403_page_of_the_admin(staff):
    client, _ = staff  # staff without any model permission
    response = client.get("/admin/feedback/comment/")
    assert_admin_page(response, 403, "Você não tem permissão para ver esta página.")


def test_a_crash_in_the_admin_is_a_500_page_and_is_logged(staff, monkeypatch, caplog):
    client, user = staff
    user.is_superuser = True
    user.save()

    def crash(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(CommentAdmin, "get_queryset", crash)  # read when the list is asked
    response = client.get("/admin/feedback/comment/")

    assert_admin_page(response, 500, "Algo deu errado do nosso lado; o erro foi registrado.")
    assert any(r.exc_info and "boom" in str(r.exc_info[1]) for r in caplog.records)


def test_the_api_keeps_its_envelope(api_client):
    assert_error_envelope(api_client.get("/publics/nothing-here"), 404, "NOT_FOUND")
