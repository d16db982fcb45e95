"""Fitting banner images to a device size with Pillow (pure: bytes in, bytes out): crop to
the target's aspect ratio around the centre, then scale to exactly `width` x `height` (the
slot a front end reserves); encoding and EXIF handling are infra.images'."""

from typing import BinaryIO

from PIL import Image

from infra.images import (
    REDUCING_GAP,
    FittedImage,
    ImageFitError,
    encode_image,
    has_alpha,
    open_image,
)

# Largest source accepted (pixels): far above any real banner, far below a decompression bomb.
MAX_SOURCE_PIXELS = 60_000_000
# Largest copy produced per side (pixels); group sizes are validated against it too.
MAX_SIDE = 8000
# Bump when the fitting changes, so stored copies are regenerated (part of their file name).
FIT_VERSION = 1


def _centred_crop(
    width: int, height: int, target_width: int, target_height: int
) -> tuple[float, float, float, float]:
    """The largest box of the target's aspect ratio centred in a `width` x `height` image."""
    if width * target_height > target_width * height:  # wider than the target: trim the sides
        crop_width: float = min(width, height * target_width / target_height)
        crop_height: float = height
    else:  # taller: trim top and bottom
        crop_width, crop_height = width, min(height, width * target_height / target_width)
    left, top = (width - crop_width) / 2, (height - crop_height) / 2
    return (left, top, left + crop_width, top + crop_height)


def fit_image(source: bytes | BinaryIO, *, width: int, height: int) -> FittedImage:
    """Cover-and-crop `source` to exactly `width` x `height`."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ImageFitError(f"Target size must be between 1 and {MAX_SIDE} pixels per side.")
    image = open_image(source, max_pixels=MAX_SOURCE_PIXELS)
    transparent = has_alpha(image)
    image = image.convert("RGBA" if transparent else "RGB")
    fitted = image.resize(
        (width, height),
        Image.Resampling.LANCZOS,
        box=_centred_crop(image.width, image.height, width, height),
        reducing_gap=REDUCING_GAP,
    )
    return encode_image(fitted, transparent=transparent)
