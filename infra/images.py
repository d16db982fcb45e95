"""Reading and re-encoding images with Pillow, shared by every app (pure: bytes in, bytes out).

`open_image` reads an untrusted upload safely: a file Pillow cannot read, or one whose
header claims more than `max_pixels` (a decompression bomb), is refused with
`ImageFitError` before any pixel is decoded; EXIF orientation is applied. `encode_image`
writes the result without metadata: opaque images as progressive JPEG, images with
transparency as PNG. `fit_within` scales an image down (never up) to fit a box, keeping its
aspect ratio (`scale_down` from an opened image). Banner copies (marketing.images.fit_image),
review photos (feedback.review_writes), product medias and seals (catalog.services) are built
from these.
"""

import io
from dataclasses import dataclass
from typing import BinaryIO, cast

from PIL import Image, ImageOps, UnidentifiedImageError

JPEG_QUALITY = 85
# Large reductions first shrink by an integer factor (fast), then resample with LANCZOS
# from at least this many times the target size: visually the same, several times faster.
REDUCING_GAP = 3.0


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


def open_image(source: bytes | BinaryIO, *, max_pixels: int) -> Image.Image:
    """The decoded first frame of `source`, upright; ImageFitError when it cannot be read
    or has more than `max_pixels` pixels (checked from the header, before decoding)."""
    stream = io.BytesIO(source) if isinstance(source, bytes | bytearray) else source
    try:
        with Image.open(stream) as opened:
            if opened.width * opened.height > max_pixels:
                raise ImageFitError(
                    f"The image has {opened.width}x{opened.height} pixels; "
                    f"at most {max_pixels:,} pixels are accepted."
                )
            opened.seek(0)  # first frame of an animation
            image = ImageOps.exif_transpose(opened)
            image.load()
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise ImageFitError("The file is not an image that can be read.") from exc
    return image


def has_alpha(image: Image.Image) -> bool:
    if image.mode in ("RGBA", "LA", "PA"):
        # One band: getextrema() is (min, max) of numbers, not a tuple per band.
        lowest = cast(float, image.getchannel("A").getextrema()[0])
        return lowest < 255
    return image.mode == "P" and "transparency" in image.info


def encode_image(image: Image.Image, *, transparent: bool) -> FittedImage:
    """PNG when `transparent`, else progressive JPEG; no metadata is copied."""
    out = io.BytesIO()
    image_format = "PNG" if transparent else "JPEG"
    jpeg_options = {} if transparent else {"quality": JPEG_QUALITY, "progressive": True}
    image.save(out, format=image_format, optimize=True, **jpeg_options)
    return FittedImage(
        content=out.getvalue(), width=image.width, height=image.height, format=image_format
    )


def fit_within(
    source: bytes | BinaryIO, *, max_side: int, max_pixels: int, png: bool = False
) -> FittedImage:
    """`source` scaled down (never up) so neither side exceeds `max_side`, re-encoded."""
    return scale_down(open_image(source, max_pixels=max_pixels), max_side=max_side, png=png)


def scale_down(image: Image.Image, *, max_side: int, png: bool = False) -> FittedImage:
    """`image` scaled down (never up) to fit `max_side`, encoded (as PNG when `png`)."""
    transparent = png or has_alpha(image)
    image = image.convert("RGBA" if transparent else "RGB")
    scale = min(1.0, max_side / max(image.width, image.height))
    if scale < 1.0:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.LANCZOS, reducing_gap=REDUCING_GAP)
    return encode_image(image, transparent=transparent)
