"""Request bodies of the review writes (POST /review/product, POST /review/sales-channel)."""

import base64
import binascii
import re
from typing import Any

from django.conf import settings
from rest_framework import serializers

from apikit.fields import JsonIntegerField, PlainTextField, StrictBooleanField, StrictCharField
from infra.ids import MAX_ID

from ..models import REVIEW_COMMENT_MAX_LENGTH, SCORE_MAX, SCORE_MIN
from ..review_writes import REVIEW_MAX_IMAGES

DATA_URL = re.compile(r"data:image/[a-z0-9.+-]+;base64,", re.IGNORECASE)


class ReviewImagesField(serializers.ListField):
    """Up to three photos, each base64 (standard alphabet, padded) or a data URL, decoded
    to bytes (the service checks the images)."""

    child = StrictCharField(trim_whitespace=False, allow_blank=False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=REVIEW_MAX_IMAGES, **kwargs)

    def to_internal_value(self, data: Any) -> list[bytes]:
        texts = super().to_internal_value(data)
        # base64 grows the bytes by 4/3: refuse long strings before decoding them
        limit = (settings.REVIEW_IMAGE_MAX_BYTES + 2) // 3 * 4 + 100
        decoded = []
        for number, text in enumerate(texts, start=1):
            if len(text) > limit:
                raise serializers.ValidationError(
                    f"Image {number} is larger than {settings.REVIEW_IMAGE_MAX_BYTES} bytes."
                )
            match = DATA_URL.match(text)
            payload = text[match.end() :] if match else text
            try:
                decoded.append(base64.b64decode(payload, validate=True))
            except (binascii.Error, ValueError):
                raise serializers.ValidationError(f"Image {number} is not valid base64.") from None
        return decoded


class ReviewWriteSerializer(serializers.Serializer):
    """Fields shared by both review bodies."""

    score = JsonIntegerField(
        min_value=SCORE_MIN, max_value=SCORE_MAX, help_text="1 (worst) to 5 (best)."
    )
    comment = PlainTextField(
        max_length=REVIEW_COMMENT_MAX_LENGTH, required=False, allow_blank=True, default=""
    )
    recommended = StrictBooleanField(required=False, default=True)
    masked = StrictBooleanField(
        required=False,
        default=False,
        help_text="Hide the author's name in public too (J*** S***); the e-mail always is.",
    )


class ProductReviewWriteSerializer(ReviewWriteSerializer):
    """Body of POST /review/product."""

    productId = JsonIntegerField(source="product_id", min_value=1, max_value=MAX_ID)
    images = ReviewImagesField(
        required=False,
        default=list,
        help_text=(
            "Up to 3 photos, each a base64 string or data URL (JPEG, PNG, GIF or WebP; at "
            "most 3 MiB decoded and 40 megapixels). Stored scaled down to 1600 px. A second "
            "post replaces the photos of the earlier review."
        ),
    )
