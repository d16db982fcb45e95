"""The starter storefront's page /demo/storefront/ (STOREFRONT_DEMO_PAGE, issue 33): served by
the demo only, with its committed script and style as static files. What the page does in a
browser: tests/browser/test_starter_storefront.py; its bundle against its sources:
tests/clients/test_storefront_bundle.py."""

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from .test_settings import production_env, run_manage

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/demo/storefront/", "/demo/storefront"])
def test_the_demo_serves_the_page_with_its_script_and_style(client, settings, path):
    settings.STOREFRONT_DEMO_PAGE = True
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert response["Cache-Control"] == "no-cache"
    html = response.content.decode()
    assert '<html lang="pt-BR">' in html
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in html
    # the frame the script fills
    for landmark in ('id="busca"', 'id="menu"', 'id="conteudo"', 'id="carrinho-quantidade"'):
        assert landmark in html
    # its script and style: this service's static files, nothing from another host
    script = re.search(r'<script type="module" src="([^"]+)"', html)[1]
    style = re.search(r'<link rel="stylesheet" href="([^"]+)"', html)[1]
    assert script == "/static/storefront/starter/storefront.js"
    assert style == "/static/storefront/starter/storefront.css"
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    # served as static files (whitenoise), the committed build as it is
    for url, kind in ((script, "text/javascript"), (style, "text/css")):
        asset = client.get(url)
        assert asset.status_code == 200, url
        assert asset["Content-Type"].startswith(kind)
        committed = finders.find(url.removeprefix("/static/"))
        assert b"".join(asset.streaming_content) == Path(committed).read_bytes()


def test_the_bundle_calls_the_api_at_the_page_s_own_origin_and_nothing_else():
    bundle = Path(finders.find("storefront/starter/storefront.js")).read_text(encoding="utf-8")
    assert "createStorefrontClient({ baseUrl: window.location.origin })" in bundle
    assert not re.search(r"https?://(?!www\.w3\.org)", bundle), "an absolute URL in the bundle"


def test_off_the_demo_the_page_is_a_json_404(client, settings):
    settings.STOREFRONT_DEMO_PAGE = False
    response = client.get("/demo/storefront/")
    assert response.status_code == 404
    assert response.json()["data"]["errorCode"] == "NOT_FOUND"


def test_the_page_is_read_only(client, settings):
    settings.STOREFRONT_DEMO_PAGE = True
    response = client.post("/demo/storefront/")
    assert response.status_code == 405
    assert response.json()["data"]["errorCode"] == "METHOD_NOT_ALLOWED"


def test_the_home_page_links_the_storefront_on_the_demo_only(client, settings):
    settings.STOREFRONT_DEMO_PAGE = True
    assert 'href="/demo/storefront/"' in client.get("/").content.decode()
    settings.STOREFRONT_DEMO_PAGE = False
    assert 'href="/demo/storefront/"' not in client.get("/").content.decode()


@pytest.mark.parametrize(
    ("overrides", "served"),
    [({}, False), ({"HTTPS": "0"}, True), ({"HTTPS": "0", "STOREFRONT_DEMO_PAGE": "0"}, False)],
)
def test_the_page_is_on_under_make_run_and_off_in_production(tmp_path, overrides, served):
    code = "from django.conf import settings; print(settings.STOREFRONT_DEMO_PAGE)"
    env = {**production_env(), **overrides}
    result = run_manage("shell", "-c", code, env_overrides=env, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == str(served)
