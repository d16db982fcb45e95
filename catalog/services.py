"""Writes of the catalog: product interests and their e-mails, images, review summaries."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.fields.files import FieldFile
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from PIL.Image import Image as PILImage

from infra.caching.journal import journal_note
from infra.caching.versions import cache_namespace_bump
from infra.events import emit
from infra.images import ImageFitError, open_image, scale_down
from jobs.services import email_enqueue

from .errors import ProductNotFound
from .models import (
    InterestOrigin,
    InterestStatus,
    Product,
    ProductInterest,
    ProductMedia,
    ProductReviewSummary,
    Seal,
    SearchCount,
)
from .models.merchandising import SEAL_MAX_SIDE, SEAL_MAX_SOURCE_PIXELS
from .models.reviews import SCORES
from .selectors import product_get_active, product_own_namespaces
from .selectors.caches import LISTING_CACHE


def _pending_duplicate(*, product: Product, origin: str, email: str) -> ProductInterest | None:
    return (
        ProductInterest.objects.pending()
        .filter(product=product, origin=origin, email__iexact=email)
        .order_by("id")
        .first()
    )


def interest_register(
    *, product_id: int, origin: str, name: str, email: str, phone: str = "", message: str = ""
) -> tuple[ProductInterest, bool]:
    """Register interest in an active product (else ProductNotFound): (interest, created).

    A pending one of the same e-mail (any case), product and origin is given back instead
    (created False), with the contact details just sent (a response never shows what
    another caller wrote); a database constraint backs this up against concurrent requests.
    """
    product = product_get_active(product_id=product_id)
    if product is None:
        raise ProductNotFound(product_id)
    email = email.strip()
    contact = {"name": name.strip(), "phone": phone.strip(), "message": message.strip()}
    existing = _pending_duplicate(product=product, origin=origin, email=email)
    if existing is None:
        interest = ProductInterest(product=product, origin=origin, email=email, **contact)
        try:
            with transaction.atomic():
                interest.save()
                emit("interest.created", interest)
        except IntegrityError:
            # A concurrent request registered the same interest first.
            existing = _pending_duplicate(product=product, origin=origin, email=email)
            if existing is None:
                raise
        else:
            return interest, True
    for field_name, value in contact.items():
        setattr(existing, field_name, value)
    existing.save(update_fields=[*contact, "updated_at"])
    existing.product = product  # already loaded with the summary's relations
    return existing, False


def interest_email_enqueue(
    *,
    key: str,
    interest: ProductInterest,
    template: str,
    subject: Promise,
    headers: dict[str, str] | None = None,
    **context: object,
) -> bool:
    """Queue a customer e-mail about the interest in CUSTOMER_LANGUAGE_CODE, whatever the
    writer's language (False: one with this key exists)."""
    context = {**context, "interest": interest, "product": interest.product}
    context["site_url"] = settings.PUBLIC_BASE_URL.rstrip("/")
    with translation.override(settings.CUSTOMER_LANGUAGE_CODE):
        text = render_to_string(f"catalog/emails/{template}.txt", context)
        html = render_to_string(f"catalog/emails/{template}.html", context)
        subject_text = str(subject)
    queued = email_enqueue(
        key=key, to=interest.email, subject=subject_text, text=text, html=html, headers=headers
    )
    return queued is not None


class InterestReplyError(Exception):
    """The interest cannot be answered."""


def interest_reply(
    *, interest: ProductInterest, reply: str, replied_by: User | None = None
) -> ProductInterest:
    """Record staff's answer to an on-request interest and queue its e-mail, atomically."""
    if interest.origin != InterestOrigin.ON_REQUEST:
        raise InterestReplyError(_("Only price-on-request interests are answered with a reply."))
    reply = reply.strip()
    if not reply:
        raise InterestReplyError(_("Write the reply."))
    now = timezone.now()
    with transaction.atomic():
        interest.reply = reply
        interest.replied_at = now
        interest.replied_by = replied_by
        interest.status = InterestStatus.REPLIED
        interest.save(update_fields=["reply", "replied_at", "replied_by", "status", "updated_at"])
        interest_email_enqueue(
            key=f"interest-reply.{interest.pk}.{now.timestamp():.6f}",
            interest=interest,
            template="interest_reply",
            subject=format_lazy(_("About {product}"), product=interest.product.name),
            reply=reply,
        )
    return interest


# Images larger than this on a side get a web-sized copy in `file` (`original_file` is kept).
WEB_IMAGE_MAX_SIDE = 1600
# Pillow's own decompression-bomb limit (2 x Image.MAX_IMAGE_PIXELS): nothing real is larger.
MEDIA_MAX_SOURCE_PIXELS = 178_956_970


class MediaImageError(Exception):
    """An uploaded product image or seal is unreadable or too large."""


def _upload_image(upload: FieldFile, *, max_pixels: int) -> PILImage:
    try:
        upload.open("rb")
        upload.seek(0)
        return open_image(upload.read(), max_pixels=max_pixels)
    except (ImageFitError, OSError) as exc:
        raise MediaImageError(_("The file is not a readable image.")) from exc


def media_prepare_image(*, media: ProductMedia) -> ProductMedia:
    """Set sizes and, above WEB_IMAGE_MAX_SIDE, a web-sized `file` from the uploaded
    original (does not save the row)."""
    source = media.original_file
    if not source:
        return media
    image = _upload_image(source, max_pixels=MEDIA_MAX_SOURCE_PIXELS)
    media.original_size = source.size
    if max(image.size) <= WEB_IMAGE_MAX_SIDE:
        media.file = None
        media.width, media.height, media.size = image.width, image.height, source.size
        return media
    web = scale_down(image, max_side=WEB_IMAGE_MAX_SIDE)
    stem = Path(source.name or "image").stem
    media.file.save(f"{stem}-web.{web.extension}", ContentFile(web.content), save=False)
    media.width, media.height, media.size = web.width, web.height, len(web.content)
    return media


def product_review_summaries_store(
    *, counts: dict[int, dict[int, int]], verified: dict[int, int] | None = None
) -> None:
    """Rewrite the summaries of {product id: {score: approved reviews}} (missing scores:
    0) and {product id: approved verified-purchase reviews} (missing: 0); a product left
    without reviews loses its row, a deleted one is skipped."""
    verified = verified or {}
    if not counts:
        return
    existing = set(Product.objects.filter(pk__in=list(counts)).values_list("pk", flat=True))
    rows = []
    empty = []
    for product_id, per_score in counts.items():
        if product_id not in existing:
            continue
        values = {f"score_{score}": max(int(per_score.get(score, 0)), 0) for score in SCORES}
        if any(values.values()):
            rows.append(
                ProductReviewSummary(
                    product_id=product_id, verified=max(verified.get(product_id, 0), 0), **values
                )
            )
        else:
            empty.append(product_id)
    with transaction.atomic():
        if empty:
            ProductReviewSummary.objects.filter(product_id__in=empty).delete()
        if rows:
            ProductReviewSummary.objects.bulk_create(
                rows,
                update_conflicts=True,
                unique_fields=["product"],
                update_fields=[f"score_{score}" for score in SCORES] + ["verified", "updated_at"],
            )
    # bulk writes send no signal
    cache_namespace_bump(*product_own_namespaces(existing))
    journal_note(LISTING_CACHE, existing)


def seal_prepare_image(*, seal: Seal) -> Seal:
    """Fit the uploaded original in SEAL_MAX_SIDE pixels as a PNG in `image` (no save)."""
    source = seal.original_image
    if not source:
        return seal
    image = _upload_image(source, max_pixels=SEAL_MAX_SOURCE_PIXELS)
    fitted = scale_down(image, max_side=SEAL_MAX_SIDE, png=True)
    stem = Path(source.name or "seal").stem
    seal.image.save(f"{stem}-{SEAL_MAX_SIDE}.png", ContentFile(fitted.content), save=False)
    seal.width, seal.height = fitted.width, fitted.height
    return seal


SEARCHES = "catalog-searches"  # infra.deferred kind: SearchRecord items


@dataclass(frozen=True)
class SearchRecord:
    """One storefront search, recorded by the listing (catalog.api.products)."""

    query: str  # catalog.search.normalized
    results: int  # products its words found in the whole catalogue
    day: date


def searches_count(records: Sequence[SearchRecord]) -> None:
    """Add the recorded searches to their week's counters (infra.deferred's handler: one
    update, or insert, per week and text; the last result count of each wins)."""
    totals: dict[tuple[date, str], list[int]] = {}
    for record in records:
        if not record.query:
            continue
        week = record.day - timedelta(days=record.day.weekday())
        entry = totals.setdefault((week, record.query[:100]), [0, 0])
        entry[0] += 1
        entry[1] = record.results
    for (week, query), (searches, results) in totals.items():
        changes = {"results": results, "found_nothing": results == 0}
        rows = SearchCount.objects.filter(week=week, query=query)
        if rows.update(searches=F("searches") + searches, **changes):
            continue
        try:
            with transaction.atomic():
                SearchCount.objects.create(week=week, query=query, searches=searches, **changes)
        except IntegrityError:  # another process inserted it meanwhile
            rows.update(searches=F("searches") + searches, **changes)
