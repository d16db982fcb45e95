"""Uploaded media are served from MEDIA_ROOT when SERVE_MEDIA is on."""

import pytest

pytestmark = pytest.mark.django_db


def test_uploaded_file_is_served_from_the_current_media_root(api_client, media_root):
    (media_root / "banners").mkdir(parents=True)
    (media_root / "banners" / "a.txt").write_bytes(b"hello")
    response = api_client.get("/media/banners/a.txt")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"hello"


def test_missing_media_file_is_a_404_envelope(api_client, media_root):
    media_root.mkdir(parents=True)
    response = api_client.get("/media/nothing.png")
    assert response.status_code == 404
    assert response.json()["data"]["errorCode"] == "NOT_FOUND"
