"""Marketing tests write uploaded and generated images to a temporary MEDIA_ROOT."""

import pytest


@pytest.fixture(autouse=True)
def _temporary_media(media_root):
    return media_root
