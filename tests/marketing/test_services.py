"""Generating the fitted copies of banner images (services)."""

from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from PIL import Image

from marketing.images import ImageFitError
from marketing.models import Banner
from marketing.services import banner_group_images_refresh, banner_images_refresh

from .factories import BannerFactory, BannerGroupFactory, image_file

pytestmark = pytest.mark.django_db


def size_of(field) -> tuple[int, int]:
    with Image.open(field.path) as image:
        return image.size


def test_each_device_gets_a_copy_of_the_group_size(media_root):
    banner = BannerFactory(desktop_original_image=image_file(width=2000, height=1000))

    refreshed = banner_images_refresh(banner=banner)

    banner.refresh_from_db()
    assert refreshed == ["desktop", "tablet", "mobile"]
    assert size_of(banner.desktop_image) == (1200, 400)
    assert size_of(banner.tablet_image) == (800, 300)
    assert size_of(banner.mobile_image) == (400, 400)
    assert (banner.desktop_width, banner.desktop_height) == (1200, 400)
    assert (banner.mobile_width, banner.mobile_height) == (400, 400)
    assert banner.desktop_image.name.startswith(f"banners/fitted/{banner.pk}/desktop-1200x400-")
    assert Path(banner.desktop_image.path).is_relative_to(media_root)


def test_a_device_upload_is_used_for_its_own_copy():
    banner = BannerFactory(
        desktop_original_image=image_file(color=(255, 0, 0)),
        mobile_original_image=image_file("mobile.jpg", color=(0, 0, 255)),
    )

    banner_images_refresh(banner=banner)

    banner.refresh_from_db()
    with (
        Image.open(banner.mobile_image.path) as mobile,
        Image.open(banner.tablet_image.path) as tab,
    ):
        assert mobile.convert("RGB").getpixel((5, 5))[2] > 200  # blue: its own upload
        assert tab.convert("RGB").getpixel((5, 5))[0] > 200  # red: the desktop upload


def test_up_to_date_copies_are_left_alone():
    banner = BannerFactory()
    banner_images_refresh(banner=banner)
    banner.refresh_from_db()
    names = [banner.desktop_image.name, banner.tablet_image.name, banner.mobile_image.name]

    assert banner_images_refresh(banner=banner) == []
    banner.refresh_from_db()
    assert [banner.desktop_image.name, banner.tablet_image.name, banner.mobile_image.name] == names


def test_a_new_group_size_regenerates_that_device_and_drops_the_old_copy(
    django_capture_on_commit_callbacks,
):
    banner = BannerFactory()
    banner_images_refresh(banner=banner)
    banner.refresh_from_db()
    old_desktop = Path(banner.desktop_image.path)
    old_mobile = banner.mobile_image.name

    banner.group.desktop_width, banner.group.desktop_height = 600, 200
    banner.group.save()
    with django_capture_on_commit_callbacks(execute=True):
        count = banner_group_images_refresh(group=banner.group)

    banner.refresh_from_db()
    assert count == 1
    assert size_of(banner.desktop_image) == (600, 200)
    assert banner.mobile_image.name == old_mobile
    assert not old_desktop.exists()


def test_a_new_upload_regenerates_the_copies_made_from_it():
    banner = BannerFactory()
    banner_images_refresh(banner=banner)
    banner.refresh_from_db()

    banner.tablet_original_image.save("tablet.jpg", image_file("tablet.jpg"), save=True)

    assert banner_images_refresh(banner=banner) == ["tablet"]


def test_force_regenerates_every_copy():
    banner = BannerFactory()
    banner_images_refresh(banner=banner)
    banner.refresh_from_db()

    assert banner_images_refresh(banner=banner, force=True) == ["desktop", "tablet", "mobile"]


def test_a_missing_copy_file_is_regenerated():
    banner = BannerFactory()
    banner_images_refresh(banner=banner)
    banner.refresh_from_db()
    Path(banner.mobile_image.path).unlink()

    assert banner_images_refresh(banner=banner) == ["mobile"]


def test_an_unreadable_upload_is_an_image_fit_error():
    banner = BannerFactory(desktop_original_image=ContentFile(b"not an image", name="x.jpg"))

    with pytest.raises(ImageFitError):
        banner_images_refresh(banner=banner)


def test_an_unsaved_banner_is_refused():
    with pytest.raises(ValueError, match="Save the banner"):
        banner_images_refresh(banner=Banner(group=BannerGroupFactory()))
