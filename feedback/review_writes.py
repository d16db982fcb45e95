"""Reviews written by signed-in customers: of a product (up to three photos) or the store.

One review per customer and product (or sales channel): a second post updates it (photos
too) and sends it back to moderation. Race-safe: the row is locked before it is updated, and
of two first posts the loser's insert fails on the unique constraint, then it updates the
winner's row. Rows are written without signals: the cache is bumped only when the review was
or becomes public.
"""

import contextlib
import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog.errors import ProductNotFound
from catalog.selectors import product_get_active
from infra.caching.versions import cache_namespace_bump
from infra.images import FittedImage, ImageFitError, fit_within
from storefront.models import Customer, SalesChannel

from .errors import ReviewImageRejected, SalesChannelNotFound, ScoreOutOfRange
from .models import (
    REVIEW_COMMENT_MAX_LENGTH,
    SCORE_MAX,
    SCORE_MIN,
    ProductReview,
    Review,
    ReviewMedia,
    SalesChannelReview,
)
from .purchases import purchased
from .selectors import FEEDBACK_CACHE
from .services import product_review_summaries_refresh

REVIEW_MAX_IMAGES = 3
REVIEW_MEDIA_FOLDER = "reviews"


@dataclass(frozen=True)
class ReviewWrite:
    review: Any  # ProductReview or SalesChannelReview
    created: bool


def review_images_prepare(sources: list[bytes]) -> list[FittedImage]:
    """Each source checked and scaled down; ReviewImageRejected names the first refused."""
    if len(sources) > REVIEW_MAX_IMAGES:
        raise ReviewImageRejected(
            _("The {images} field takes at most %(count)d images.") % {"count": REVIEW_MAX_IMAGES}
        )
    fitted = []
    for number, source in enumerate(sources, start=1):
        if len(source) > settings.REVIEW_IMAGE_MAX_BYTES:
            raise ReviewImageRejected(
                _("Image %(number)d of the {images} field is larger than %(limit)d bytes.")
                % {"number": number, "limit": settings.REVIEW_IMAGE_MAX_BYTES}
            )
        try:
            fitted.append(
                fit_within(
                    source,
                    max_side=settings.REVIEW_IMAGE_MAX_SIDE,
                    max_pixels=settings.REVIEW_IMAGE_MAX_PIXELS,
                )
            )
        except ImageFitError as exc:
            raise ReviewImageRejected(
                _("Image %(number)d of the {images} field: %(reason)s")
                % {"number": number, "reason": exc}
            ) from exc
    return fitted


def _review_upsert(
    model: type[Review], keys: dict[str, Any], values: dict[str, Any]
) -> tuple[Any, bool, bool]:
    """(review, created, was_active) for the one review of `keys`, in a transaction."""
    manager = model._default_manager
    existing = manager.select_for_update().filter(**keys).first()
    if existing is None:
        try:
            with transaction.atomic():
                [review] = manager.bulk_create([model(**keys, **values)])
            return review, True, False
        except IntegrityError:
            # Another first post won the race: update its review instead.
            existing = manager.select_for_update().filter(**keys).first()
            if existing is None:
                raise
    was_active = existing.active
    now = timezone.now()
    manager.filter(pk=existing.pk).update(**values, updated_at=now)
    for name, value in {**values, "updated_at": now}.items():
        setattr(existing, name, value)
    return existing, False, was_active


def _bump_when_visible(*, was_active: bool, active: bool) -> None:
    if was_active or active:
        transaction.on_commit(lambda: cache_namespace_bump(FEEDBACK_CACHE))


def _review_values(
    customer: Customer, *, score: int, comment: str, recommended: bool, masked: bool
) -> dict[str, Any]:
    if type(score) is not int or not SCORE_MIN <= score <= SCORE_MAX:
        raise ScoreOutOfRange
    return {
        "name": customer.name[:100],
        "email": customer.email,
        "score": score,
        "comment": (comment or "").strip()[:REVIEW_COMMENT_MAX_LENGTH],
        "recommended": bool(recommended),
        "masked": bool(masked),
        "active": not settings.REVIEWS_REQUIRE_MODERATION,
    }


def product_review_write(
    *,
    customer: Customer,
    product_id: int,
    score: int,
    comment: str = "",
    recommended: bool = True,
    masked: bool = False,
    images: list[bytes] | None = None,
) -> ReviewWrite:
    """Create or update `customer`'s review of the product (see the module docstring)."""
    values = _review_values(
        customer, score=score, comment=comment, recommended=recommended, masked=masked
    )
    product = product_get_active(product_id=product_id)
    if product is None:
        raise ProductNotFound(product_id)
    values["verified_purchase"] = purchased(customer=customer, product_id=product.pk)
    fitted = review_images_prepare(images or [])  # CPU work, outside the transaction
    stored: list[str] = []
    try:
        for image in fitted:
            name = f"{REVIEW_MEDIA_FOLDER}/{uuid.uuid4().hex}.{image.extension}"
            stored.append(default_storage.save(name, ContentFile(image.content)))
        with transaction.atomic():
            review, created, was_active = _review_upsert(
                ProductReview, {"product": product, "customer": customer}, values
            )
            if not created:
                old = list(ReviewMedia.objects.filter(review=review))
                if old:
                    ReviewMedia.objects.filter(pk__in=[media.pk for media in old]).delete()
                    names = [media.image.name for media in old if media.image.name]
                    transaction.on_commit(lambda: _delete_files(names))
            ReviewMedia.objects.bulk_create(
                ReviewMedia(review=review, image=name) for name in stored
            )
            if was_active or review.active:
                # The writes above send no signal: the product's review summary (its
                # approved reviews) is recounted here, in the same transaction.
                product_review_summaries_refresh(product_ids=[product.pk])
            _bump_when_visible(was_active=was_active, active=review.active)
    except BaseException:
        _delete_files(stored)
        raise
    return ReviewWrite(review=review, created=created)


def sales_channel_review_write(
    *,
    customer: Customer,
    channel: SalesChannel | None,
    score: int,
    comment: str = "",
    recommended: bool = True,
    masked: bool = False,
) -> ReviewWrite:
    """Create or update `customer`'s review of the store on `channel`."""
    values = _review_values(
        customer, score=score, comment=comment, recommended=recommended, masked=masked
    )
    if channel is None:
        raise SalesChannelNotFound
    with transaction.atomic():
        review, created, was_active = _review_upsert(
            SalesChannelReview, {"sales_channel": channel, "customer": customer}, values
        )
        _bump_when_visible(was_active=was_active, active=review.active)
    return ReviewWrite(review=review, created=created)


def _delete_files(names: list[str]) -> None:
    for name in names:
        with contextlib.suppress(OSError):
            default_storage.delete(name)
