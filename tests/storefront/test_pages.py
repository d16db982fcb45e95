"""The home page `/`, `/favicon.ico`, and the admin's "View site" link."""

import io

import pytest
from django.test import Client
from PIL import Image

from storefront.models import SalesChannel

pytestmark = pytest.mark.django_db


def test_home_page_names_the_store_and_links_docs_admin_and_health(client, settings):
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8123"
    SalesChannel.objects.create(domain="shop.example", name="Loja Exemplo")
    settings.ALLOWED_HOSTS = ["shop.example"]
    response = client.get("/", HTTP_HOST="shop.example")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "<title>Loja Exemplo</title>" in html
    for link in ('href="/api/docs/"', 'href="/admin/"', 'href="/health"', 'href="/favicon.ico"'):
        assert link in html
    assert "shop.example" in html and "http://127.0.0.1:8123" in html


def test_home_page_of_an_unknown_host_names_the_default_channel(client):
    # The migration's default channel serves every host without a channel of its own.
    default = SalesChannel.objects.get(is_default=True)
    response = client.get("/", HTTP_HOST="localhost")
    assert f"<title>{default.name}</title>" in response.content.decode()


def test_home_page_is_read_only(client):
    response = client.post("/")
    assert response.status_code == 405
    assert response.json()["data"]["errorCode"] == "METHOD_NOT_ALLOWED"


def test_favicon_is_a_real_icon_served_without_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    assert "max-age=" in response["Cache-Control"]
    icon = Image.open(io.BytesIO(response.content))
    assert icon.format == "ICO"
    assert (16, 16) in icon.info["sizes"] and (32, 32) in icon.info["sizes"]


def test_admin_view_site_opens_the_home_page(admin_client):
    html = admin_client.get("/admin/").content.decode()
    assert '<a href="/">' in html
    assert Client().get("/").status_code == 200


@pytest.mark.parametrize("path", ["/%01", "/favicon.ico?x=%00"])
def test_control_characters_on_the_pages_are_a_422(client, path):
    response = client.get(path)
    assert response.status_code == 422
    assert response.json()["data"]["errorCode"] == "VALIDATION_ERROR"
