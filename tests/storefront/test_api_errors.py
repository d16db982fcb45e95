"""The error envelope for errors raised below DRF: unknown URLs, body cap, crashes."""

import pytest
from django.urls import path

from apikit.routing import api_path
from tests.helpers import assert_error_envelope


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/no/such/endpoint", "/api/v3/nothing/here/", "/publics/x"])
def test_unknown_url_answers_404_envelope(api_client, url):
    response = api_client.get(url)
    assert_error_envelope(response, 404, "NOT_FOUND")


@pytest.mark.django_db
def test_unknown_url_with_post_answers_404_envelope(api_client):
    response = api_client.post("/nope", data=b"{}", content_type="application/json")
    assert_error_envelope(response, 404, "NOT_FOUND")


@pytest.mark.django_db
def test_body_over_the_cap_is_413(api_client, settings):
    settings.API_MAX_BODY_BYTES = 100
    response = api_client.post("/nope", data=b"x" * 101, content_type="application/json")
    assert_error_envelope(response, 413, "PAYLOAD_TOO_LARGE")


def test_api_path_serves_both_slash_forms():
    patterns = api_path("/a/b/", lambda r: None, "ab")
    assert [str(p.pattern) for p in patterns] == ["a/b", "a/b/"]
    assert patterns[0].name == "ab" and isinstance(patterns[1], type(path("x", lambda r: None)))
