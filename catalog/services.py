"""Writes and business rules of the catalog: product interests and their e-mails, medias."""

import logging
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.db.models.fields.files import FieldFile
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from PIL.Image import Image as PILImage

from infra.cache import cache_namespace_bump
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
    Stock,
)
from .models.merchandising import SEAL_MAX_SIDE, SEAL_MAX_SOURCE_PIXELS
from .models.reviews import SCORES
from .selectors import product_get_active, product_namespaces

logger = logging.getLogger(__name__)


# --- Product interests -----------------------------------------------------------


@dataclass(frozen=True)
class InterestRegistration:
    interest: ProductInterest
    created: bool


def _pending_duplicate(*, product: Product, origin: str, email: str) -> ProductInterest | None:
    return (
        ProductInterest.objects.pending()
        .filter(product=product, origin=origin, email__iexact=email)
        .order_by("id")
        .first()
    )


def interest_register(
    *,
    product_id: int,
    origin: str,
    name: str,
    email: str,
    phone: str = "",
    message: str = "",
) -> InterestRegistration:
    """Register a customer's interest in an active product.

    The same e-mail (case-insensitive), product and origin while still pending gives the
    existing record back (`created` False) instead of a duplicate, with its name, phone
    and message replaced by the ones just sent (so a response never shows what another
    caller wrote); a database constraint backs this up against concurrent requests.
    Unknown or inactive product: 404.
    """
    product = product_get_active(product_id=product_id)
    if product is None:
        raise ProductNotFound(product_id)
    email = email.strip()
    # The contact details the caller just sent: an existing record gets them too, never
    # keeping the name, phone or message an earlier caller left for this e-mail.
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
            return InterestRegistration(interest=interest, created=True)
    for field_name, value in contact.items():
        setattr(existing, field_name, value)
    existing.save(update_fields=[*contact, "updated_at"])
    existing.product = product  # already loaded with the summary's relations
    return InterestRegistration(interest=existing, created=False)


def _email_enqueue(
    *, key: str, interest: ProductInterest, template: str, subject: Promise, **context: object
) -> bool:
    """Queue a customer e-mail about the interest (False: one with this key exists), rendered in
    the customers' language (CUSTOMER_LANGUAGE_CODE) whatever the language of the staff
    member or job writing it; `subject` is a lazy translation."""
    context = {**context, "interest": interest, "product": interest.product}
    context["site_url"] = settings.PUBLIC_BASE_URL.rstrip("/")
    with translation.override(settings.CUSTOMER_LANGUAGE_CODE):
        text = render_to_string(f"catalog/emails/{template}.txt", context)
        html = render_to_string(f"catalog/emails/{template}.html", context)
        subject_text = str(subject)
    queued = email_enqueue(key=key, to=interest.email, subject=subject_text, text=text, html=html)
    return queued is not None


def interests_back_in_stock() -> QuerySet:
    """Pending notify-me interests whose (active) product has units in an active storage."""
    in_stock = Stock.objects.in_active_storages().filter(
        product_id=OuterRef("product_id"), available__gt=0
    )
    return (
        ProductInterest.objects.awaiting_stock()
        .filter(product__active=True)
        .filter(Exists(in_stock))
        .order_by("id")
    )


@dataclass
class StockNotificationSummary:
    candidates: int = 0
    queued: int = 0
    products: set[int] = field(default_factory=set)


# Interests handled per transaction by stock_notifications_enqueue.
STOCK_NOTIFICATION_BATCH = 200


def back_in_stock_email_key(interest_id: int) -> str:
    """The outbound e-mail key (and Message-ID) of an interest's back-in-stock e-mail."""
    return f"back-in-stock.{interest_id}"


def stock_notifications_enqueue(*, dry_run: bool = False) -> StockNotificationSummary:
    """Queue the e-mail of every pending notify-me interest whose product is back in stock.

    In each transaction a batch of interests is locked (SELECT ... FOR UPDATE SKIP LOCKED
    where the database supports it, so copies running at once never pick the same row),
    each gets its e-mail recorded with its sending job (jobs.services.email_enqueue, keyed
    by the interest: never two e-mails for one interest) and is marked notified; the first
    batch of each product also emits `product.back_in_stock`. Workers send the e-mails.
    """
    summary = StockNotificationSummary()
    if dry_run:
        summary.candidates = interests_back_in_stock().count()
        return summary

    lock = connection.features.has_select_for_update_skip_locked
    while True:
        with transaction.atomic():
            pending = interests_back_in_stock()
            if lock:
                pending = pending.select_for_update(skip_locked=True, of=("self",))
            batch = list(pending.select_related("product")[:STOCK_NOTIFICATION_BATCH])
            if not batch:
                break
            now = timezone.now()
            for interest in batch:
                product = interest.product
                if _email_enqueue(
                    key=back_in_stock_email_key(interest.pk),
                    interest=interest,
                    template="back_in_stock",
                    subject=format_lazy(_("{product} is back in stock"), product=product.name),
                ):
                    summary.queued += 1
                if product.pk not in summary.products:
                    summary.products.add(product.pk)
                    emit("product.back_in_stock", product)
            ProductInterest.objects.filter(pk__in=[i.pk for i in batch]).update(
                status=InterestStatus.NOTIFIED, notified_at=now, updated_at=now
            )
            summary.candidates += len(batch)
    return summary


class InterestReplyError(Exception):
    """The interest cannot be answered (not a price-on-request interest)."""


def interest_reply(
    *, interest: ProductInterest, reply: str, replied_by: User | None = None
) -> ProductInterest:
    """Record staff's answer to an on-request interest (status replied) and queue its e-mail
    to the customer, in one transaction (a worker sends it, retrying if the server refuses).
    """
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
        _email_enqueue(
            key=f"interest-reply.{interest.pk}.{now.timestamp():.6f}",
            interest=interest,
            template="interest_reply",
            subject=format_lazy(_("About {product}"), product=interest.product.name),
            reply=reply,
        )
    return interest


# --- Product medias ----------------------------------------------------------------

# Images larger than this on a side get a web-sized copy in `file`; the upload is kept
# untouched in `original_file`.
WEB_IMAGE_MAX_SIDE = 1600
# Pillow's own decompression-bomb limit (2 x Image.MAX_IMAGE_PIXELS): nothing real is larger.
MEDIA_MAX_SOURCE_PIXELS = 178_956_970


class MediaImageError(Exception):
    """An uploaded product image or seal is not an image Pillow can read, or is too large."""


def _upload_image(upload: FieldFile, *, max_pixels: int) -> PILImage:
    """The upload decoded by infra.images.open_image (upright, first frame)."""
    try:
        upload.open("rb")
        upload.seek(0)
        return open_image(upload.read(), max_pixels=max_pixels)
    except (ImageFitError, OSError) as exc:
        raise MediaImageError(_("The file is not a readable image.")) from exc


def media_prepare_image(*, media: ProductMedia) -> ProductMedia:
    """Read the uploaded original with Pillow: width, height and sizes; web-sized `file`.

    Images larger than WEB_IMAGE_MAX_SIDE get a copy scaled to it in `file` (infra.images:
    JPEG, or PNG with transparency); smaller ones leave `file` empty and are shown from the
    original. Call before saving a media whose original was (re)uploaded; it does not save
    the row.
    """
    source = media.original_file
    if not source:
        return media
    image = _upload_image(source, max_pixels=MEDIA_MAX_SOURCE_PIXELS)
    media.original_size = source.size
    if max(image.size) <= WEB_IMAGE_MAX_SIDE:
        # Small enough to show as is: no copy (the API falls back to the original).
        media.file = None
        media.width, media.height, media.size = image.width, image.height, source.size
        return media
    web = scale_down(image, max_side=WEB_IMAGE_MAX_SIDE)
    stem = Path(source.name or "image").stem
    media.file.save(f"{stem}-web.{web.extension}", ContentFile(web.content), save=False)
    media.width, media.height, media.size = web.width, web.height, len(web.content)
    return media


# --- Review summaries ------------------------------------------------------------------


def product_review_summaries_store(*, counts: dict[int, dict[int, int]]) -> None:
    """Store the review summaries of products: `counts` is {product id: {score: approved
    reviews with that score}} (scores missing count 0; every product named is rewritten).

    Called by the feedback app inside the transaction that changed the reviews. A product
    left without approved reviews loses its row (its `review` renders null); a product
    that no longer exists (being deleted with its reviews) is skipped. Two queries and a
    bump of each product's version, whatever the number of products.
    """
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
            rows.append(ProductReviewSummary(product_id=product_id, **values))
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
                update_fields=[f"score_{score}" for score in SCORES] + ["updated_at"],
            )
    cache_namespace_bump(*product_namespaces(existing))  # bulk writes send no signal


# --- Seals --------------------------------------------------------------------------


def seal_prepare_image(*, seal: Seal) -> Seal:
    """Fit the uploaded original in SEAL_MAX_SIDE x SEAL_MAX_SIDE (aspect kept, EXIF
    orientation applied, metadata dropped) as a PNG in `image`. Call before saving a
    seal whose original was (re)uploaded; it does not save the row."""
    source = seal.original_image
    if not source:
        return seal
    image = _upload_image(source, max_pixels=SEAL_MAX_SOURCE_PIXELS)
    fitted = scale_down(image, max_side=SEAL_MAX_SIDE, png=True)
    stem = Path(source.name or "seal").stem
    seal.image.save(f"{stem}-{SEAL_MAX_SIDE}.png", ContentFile(fitted.content), save=False)
    seal.width, seal.height = fitted.width, fitted.height
    return seal
