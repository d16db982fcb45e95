"""Reading and re-encoding images with Pillow (pure: bytes in, bytes out).

`open_image` refuses unreadable files and decompression bombs before decoding a pixel;
`encode_image` writes without metadata (progressive JPEG, or PNG with transparency);
`fit_within` / `scale_down` scale down (never up) to fit a box.
"""

import io
from dataclasses import dataclass
from typing import BinaryIO, cast

from PIL import Image, ImageOps, UnidentifiedImageError

JPEG_QUALITY = 85
# Large reductions shrink by an integer factor first: the same look, several times faster.
REDUCING_GAP = 3.0


class ImageFitError(ValueError):
    """Not an image Pillow can read, or too large."""


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
    """The decoded first frame of `source`, upright; ImageFitError when unreadable or over
    `max_pixels` (from the header)."""
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
        lowest = cast(float, image.getchannel("A").getextrema()[0])
        return lowest < 255
    return image.mode == "P" and "transparency" in image.info


def encode_image(image: Image.Image, *, transparent: bool) -> FittedImage:
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
    return scale_down(open_image(source, max_pixels=max_pixels), max_side=max_side, png=png)


def scale_down(image: Image.Image, *, max_side: int, png: bool = False) -> FittedImage:
    transparent = png or has_alpha(image)
    image = image.convert("RGBA" if transparent else "RGB")
    scale = min(1.0, max_side / max(image.width, image.height))
    if scale < 1.0:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.LANCZOS, reducing_gap=REDUCING_GAP)
    return encode_image(image, transparent=transparent)
