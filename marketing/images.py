"""Fitting banner images to a device size with Pillow (pure: bytes in, bytes out).

`fit_image` crops the source to the target's aspect ratio around the centre and scales
that to the target box, so the copy is exactly `width` x `height` (what a front end reserves for the
slot). Orientation from EXIF is applied and metadata is dropped. Opaque images become
progressive JPEG; images with transparency stay PNG.
"""

import io
from dataclasses import dataclass
from typing import BinaryIO, cast

from PIL import Image, ImageOps, UnidentifiedImageError

# Largest source accepted (pixels): far above any real banner, far below a decompression bomb.
MAX_SOURCE_PIXELS = 60_000_000
# Largest copy produced per side (pixels); group sizes are validated against it too.
MAX_SIDE = 8000
JPEG_QUALITY = 85
# Large reductions first shrink by an integer factor (fast), then resample with LANCZOS
# from at least this many times the target size: visually the same, several times faster.
REDUCING_GAP = 3.0
# Bump when the fitting changes, so stored copies are regenerated (part of their file name).
FIT_VERSION = 1


class ImageFitError(ValueError):
    """The source is not an image Pillow can read, or it is too large."""


@dataclass(frozen=True)
class FittedImage:
    content: bytes
    width: int
    height: int
    format: str  # "JPEG" or "PNG"

    @property
    def extension(self) -> str:
        return "png" if self.format == "PNG" else "jpg"


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


def _has_alpha(image: Image.Image) -> bool:
    if image.mode in ("RGBA", "LA", "PA"):
        # One band: getextrema() is (min, max) of numbers, not a tuple per band.
        lowest = cast(float, image.getchannel("A").getextrema()[0])
        return lowest < 255
    return image.mode == "P" and "transparency" in image.info


def fit_image(source: bytes | BinaryIO, *, width: int, height: int) -> FittedImage:
    """Cover-and-crop `source` to exactly `width` x `height`."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ImageFitError(f"Target size must be between 1 and {MAX_SIDE} pixels per side.")
    stream = io.BytesIO(source) if isinstance(source, bytes | bytearray) else source
    try:
        with Image.open(stream) as opened:
            if opened.width * opened.height > MAX_SOURCE_PIXELS:
                raise ImageFitError(
                    f"The image has {opened.width}x{opened.height} pixels; "
                    f"at most {MAX_SOURCE_PIXELS:,} pixels are accepted."
                )
            opened.seek(0)  # first frame of an animation
            image = ImageOps.exif_transpose(opened)
            image.load()
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise ImageFitError("The file is not an image that can be read.") from exc

    transparent = _has_alpha(image)
    image = image.convert("RGBA" if transparent else "RGB")
    fitted = image.resize(
        (width, height),
        Image.Resampling.LANCZOS,
        box=_centred_crop(image.width, image.height, width, height),
        reducing_gap=REDUCING_GAP,
    )

    out = io.BytesIO()
    if transparent:
        fitted.save(out, format="PNG", optimize=True)
        image_format = "PNG"
    else:
        fitted.save(out, format="JPEG", quality=JPEG_QUALITY, optimize=True, progressive=True)
        image_format = "JPEG"
    return FittedImage(
        content=out.getvalue(), width=fitted.width, height=fitted.height, format=image_format
    )
