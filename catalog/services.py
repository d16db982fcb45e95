"""Writes and business rules of the catalog: product interests and their e-mails, medias."""

import logging
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.template.loader import render_to_string
from django.utils import timezone
from PIL import Image, UnidentifiedImageError

from infra.events import emit
from jobs.services import email_enqueue

from .errors import ProductNotFound
from .models import (
    InterestOrigin,
    InterestStatus,
    Product,
    ProductInterest,
    ProductMedia,
    Stock,
)
from .selectors import product_get_active

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
    existing = _pending_duplicate(product=product, origin=origin, email=email)
    if existing is None:
        interest = ProductInterest(
            product=product,
            origin=origin,
            name=name.strip(),
            email=email,
            phone=phone.strip(),
            message=message.strip(),
        )
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
    # The caller gets the existing record back refreshed with the contact details it just
    # sent: never the name, phone or message an earlier caller left for this e-mail.
    existing.name = name.strip()
    existing.phone = phone.strip()
    existing.message = message.strip()
    existing.save(update_fields=["name", "phone", "message", "updated_at"])
    existing.product = product  # already loaded with the summary's relations
    return InterestRegistration(interest=existing, created=False)


def _render(*, template: str, context: dict) -> tuple[str, str]:
    context = {**context, "site_url": settings.PUBLIC_BASE_URL.rstrip("/")}
    text = render_to_string(f"catalog/emails/{template}.txt", context)
    html = render_to_string(f"catalog/emails/{template}.html", context)
    return text, html


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
                text, html = _render(
                    template="back_in_stock",
                    context={"interest": interest, "product": product},
                )
                if email_enqueue(
                    key=back_in_stock_email_key(interest.pk),
                    to=interest.email,
                    subject=f"{product.name} is back in stock",
                    text=text,
                    html=html,
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
        raise InterestReplyError("Only price-on-request interests are answered with a reply.")
    reply = reply.strip()
    if not reply:
        raise InterestReplyError("Write the reply.")
    now = timezone.now()
    text, html = _render(
        template="interest_reply",
        context={"interest": interest, "product": interest.product, "reply": reply},
    )
    with transaction.atomic():
        interest.reply = reply
        interest.replied_at = now
        interest.replied_by = replied_by
        interest.status = InterestStatus.REPLIED
        interest.save(update_fields=["reply", "replied_at", "replied_by", "status", "updated_at"])
        email_enqueue(
            key=f"interest-reply.{interest.pk}.{now.timestamp():.6f}",
            to=interest.email,
            subject=f"About {interest.product.name}",
            text=text,
            html=html,
        )
    return interest


# --- Product medias ----------------------------------------------------------------

# Images larger than this on a side get a web-sized copy in `file`; the upload is kept
# untouched in `original_file`.
WEB_IMAGE_MAX_SIDE = 1600
_WEB_FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif"}


class MediaImageError(Exception):
    """The uploaded file is not an image Pillow can read."""


def media_prepare_image(*, media: ProductMedia) -> ProductMedia:
    """Read the uploaded original with Pillow: width, height and sizes; web-sized `file`.

    Images larger than WEB_IMAGE_MAX_SIDE get a resized copy in `file`; smaller ones
    leave `file` empty and are shown from the original. Call before saving a media whose
    original was (re)uploaded; it does not save the row.
    """
    source = media.original_file
    if not source:
        return media
    try:
        source.open("rb")
        source.seek(0)
        with Image.open(source) as image:
            image.load()
            fmt = image.format or "PNG"
            width, height = image.size
            media.original_size = source.size
            if max(width, height) <= WEB_IMAGE_MAX_SIDE:
                # Small enough to show as is: no copy (the API falls back to the original).
                media.file = None
                media.width, media.height, media.size = width, height, source.size
                return media
            web = image.copy()
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise MediaImageError("The file is not a readable image.") from exc

    web.thumbnail((WEB_IMAGE_MAX_SIDE, WEB_IMAGE_MAX_SIDE))
    fmt = fmt if fmt in _WEB_FORMATS else "PNG"
    if fmt == "JPEG" and web.mode not in ("RGB", "L"):
        web = web.convert("RGB")
    buffer = BytesIO()
    web.save(buffer, format=fmt, optimize=True)
    stem = Path(source.name or "image").stem
    media.file.save(f"{stem}-web.{_WEB_FORMATS[fmt]}", ContentFile(buffer.getvalue()), save=False)
    media.width, media.height = web.size
    media.size = buffer.tell()
    return media
