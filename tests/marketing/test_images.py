"""Fitting banner images to a device size (pure)."""

import io

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image

from marketing.images import FittedImage, ImageFitError, fit_image


def encoded(width: int, height: int, *, mode: str = "RGB", fmt: str = "JPEG", **save) -> bytes:
    color = (10, 120, 200, 128) if mode == "RGBA" else (10, 120, 200)
    buffer = io.BytesIO()
    Image.new(mode, (width, height), color).save(buffer, format=fmt, **save)
    return buffer.getvalue()


def opened(fitted: FittedImage) -> Image.Image:
    return Image.open(io.BytesIO(fitted.content))


@settings(max_examples=25, deadline=None)
@given(
    source=st.tuples(st.integers(1, 400), st.integers(1, 400)),
    target=st.tuples(st.integers(1, 300), st.integers(1, 300)),
)
@example(source=(3, 9), target=(1, 3))  # same ratio: float division once gave a box of -1e-15
@example(source=(9, 3), target=(3, 1))
@example(source=(1, 1), target=(300, 300))
def test_the_copy_has_exactly_the_target_size(source, target):
    fitted = fit_image(encoded(*source), width=target[0], height=target[1])

    assert (fitted.width, fitted.height) == target
    assert opened(fitted).size == target


def test_an_opaque_image_becomes_a_progressive_jpeg():
    fitted = fit_image(encoded(300, 200, fmt="PNG"), width=120, height=40)

    assert fitted.format == "JPEG"
    assert fitted.extension == "jpg"
    assert opened(fitted).info.get("progressive") == 1


def test_transparency_is_kept_as_png():
    fitted = fit_image(encoded(300, 200, mode="RGBA", fmt="PNG"), width=100, height=100)

    assert fitted.format == "PNG"
    assert fitted.extension == "png"
    assert opened(fitted).mode == "RGBA"


def test_an_opaque_rgba_image_becomes_jpeg():
    buffer = io.BytesIO()
    Image.new("RGBA", (50, 50), (1, 2, 3, 255)).save(buffer, format="PNG")

    assert fit_image(buffer.getvalue(), width=20, height=20).format == "JPEG"


def test_exif_orientation_is_applied():
    # given a 200x100 photo whose EXIF says "rotate 90 degrees"
    exif = Image.Exif()
    exif[0x0112] = 6
    source = encoded(200, 100, exif=exif.tobytes())

    # when fitted to a portrait box
    fitted = fit_image(source, width=50, height=100)

    # then no metadata is kept
    assert "exif" not in opened(fitted).info
    assert opened(fitted).size == (50, 100)


def test_the_centre_is_kept_when_cropping():
    # given a wide image: red left third, green centre, blue right third
    image = Image.new("RGB", (300, 100), (255, 0, 0))
    image.paste((0, 255, 0), (100, 0, 200, 100))
    image.paste((0, 0, 255), (200, 0, 300, 100))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")

    # when fitted to a square
    fitted = opened(fit_image(buffer.getvalue(), width=50, height=50)).convert("RGB")

    # then the square shows the green centre
    red, green, blue = fitted.getpixel((25, 25))
    assert green > 200 and red < 60 and blue < 60


def test_a_file_object_is_accepted():
    fitted = fit_image(io.BytesIO(encoded(10, 10)), width=5, height=5)

    assert (fitted.width, fitted.height) == (5, 5)


@pytest.mark.parametrize("content", [b"", b"not an image", b"\x89PNG\r\n\x1a\n broken"])
def test_unreadable_content_is_an_image_fit_error(content):
    with pytest.raises(ImageFitError):
        fit_image(content, width=10, height=10)


@pytest.mark.parametrize(("width", "height"), [(0, 10), (10, 0), (-1, 5), (8001, 10)])
def test_target_sizes_out_of_range_are_refused(width, height):
    with pytest.raises(ImageFitError, match="Target size"):
        fit_image(encoded(10, 10), width=width, height=height)


def test_sources_with_too_many_pixels_are_refused(monkeypatch):
    monkeypatch.setattr("marketing.images.MAX_SOURCE_PIXELS", 99)

    with pytest.raises(ImageFitError, match="at most"):
        fit_image(encoded(10, 10), width=5, height=5)
