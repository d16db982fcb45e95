"""Writes and rules of the feedback app: comments, replies, moderation."""

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from catalog.errors import ProductNotFound
from catalog.models import Product
from catalog.selectors import product_get_active
from catalog.services import product_review_summaries_store
from infra.caching.versions import cache_namespace_bump
from infra.events import emit
from jobs.services import email_enqueue
from storefront.models import Customer

from .errors import BlankMessage, CommentNotFound, InvalidParentComment, MissingCommenterContact
from .models import DEFAULT_STAFF_DISPLAY_NAME, Comment, ProductReview, StaffProfile
from .selectors import FEEDBACK_CACHE

logger = logging.getLogger(__name__)


def comment_create(
    *,
    product_id: int,
    message: str,
    parent_comment_id: int | None = None,
    customer: Customer | None = None,
    customer_name: str = "",
    customer_email: str = "",
) -> Comment:
    """A customer's comment on a product, or reply to one of its approved top-level
    comments; held for staff while settings.COMMENTS_REQUIRE_MODERATION is on."""
    product = product_get_active(product_id=product_id)
    if product is None:
        raise ProductNotFound(product_id)
    parent = None
    if parent_comment_id is not None:
        parent = Comment.objects.public().filter(pk=parent_comment_id, product=product).first()
        if parent is None:
            raise CommentNotFound(parent_comment_id)
        if parent.parent_id is not None:
            raise InvalidParentComment
    if customer is not None:
        customer_name, customer_email = customer.name, customer.email
    elif not customer_name.strip() or not customer_email.strip():
        raise MissingCommenterContact
    comment = Comment(
        product=product,
        parent=parent,
        customer=customer,
        customer_name=customer_name.strip()[:100],
        customer_email=customer_email.strip(),
        message=message.strip(),
        active=not settings.COMMENTS_REQUIRE_MODERATION,
    )
    comment.total_replies = 0  # type: ignore[attr-defined]  # as comments_with_reply_count annotates
    with transaction.atomic():  # the comment and its event commit together
        comment.save()
        emit("comment.created", comment)
    return comment


@dataclass(frozen=True)
class StaffReply:
    reply: Comment
    emailed: bool


def staff_display_name(user: User) -> str:
    """The profile's display name, else "Store team" (in the active language)."""
    profile = StaffProfile.objects.filter(user=user).only("display_name").first()
    if profile is not None and profile.display_name.strip():
        return profile.display_name.strip()
    return str(DEFAULT_STAFF_DISPLAY_NAME)


def comment_reply_by_staff(
    *, comment: Comment, user: User, message: str, approve_comment: bool = True
) -> StaffReply:
    """A staff reply in the thread of `comment` (public at once), approving `comment` and
    its top-level comment with `approve_comment`; its author is e-mailed (queued in the same
    transaction) while settings.COMMENTS_EMAIL_REPLIES is on."""
    message = (message or "").strip()
    if not message:
        raise BlankMessage
    thread = comment.parent or comment  # replies are one level deep
    with transaction.atomic():
        reply = Comment.objects.create(
            product_id=comment.product_id,
            parent=thread,
            user=user,
            user_name=staff_display_name(user)[:150],
            user_email=user.email or "",
            message=message,
            reply_by_user=True,
            active=True,
        )
        if approve_comment:
            comments_set_active(
                comments=Comment.objects.filter(pk__in={comment.pk, thread.pk}), active=True
            )
        emailed = False
        if settings.COMMENTS_EMAIL_REPLIES:
            emailed = comment_reply_notify(comment=comment, reply=reply)
        emit("comment.replied", reply)
    return StaffReply(reply=reply, emailed=emailed)


def comment_author_email(comment: Comment) -> str:
    if comment.reply_by_user:
        return ""
    if comment.customer_email:
        return comment.customer_email
    customer = comment.customer  # no query when customer_id is empty
    return customer.email if customer is not None else ""


def comment_reply_notify(*, comment: Comment, reply: Comment) -> bool:
    """Queue the e-mail telling the author of `comment` that staff answered (one per reply);
    False when there is no address."""
    recipient = comment_author_email(comment)
    if not recipient:
        return False
    product = comment.product
    context = {
        "customer_name": comment.customer_name,
        "product_name": product.name,
        "product_url": settings.PUBLIC_BASE_URL.rstrip("/") + product.url,
        "comment": comment,
        "reply": reply,
    }
    # Written in the customers' language, whatever the staff member's admin language.
    with translation.override(settings.CUSTOMER_LANGUAGE_CODE):
        subject = _("Your question about %(product)s was answered") % {"product": product.name}
        text = render_to_string("feedback/emails/comment_reply.txt", context)
        html = render_to_string("feedback/emails/comment_reply.html", context)
    queued = email_enqueue(
        key=f"comment-reply.{reply.pk}",
        to=recipient,
        subject=subject.replace("\n", " ")[:200],
        text=text,
        html=html,
    )
    return queued is not None


def comments_set_active(*, comments: QuerySet, active: bool) -> int:
    changed = comments.exclude(active=active).update(active=active, updated_at=timezone.now())
    cache_namespace_bump(FEEDBACK_CACHE)  # update() sends no signal
    return changed


def reviews_set_active(*, reviews: QuerySet, active: bool) -> int:
    """Approve or hide product or store reviews (recounting the products' summaries in the
    same transaction); returns how many changed."""
    with transaction.atomic():
        to_change = list(reviews.exclude(active=active).values_list("pk", flat=True))
        changing = reviews.model.objects.filter(pk__in=to_change)
        changed = changing.update(active=active, updated_at=timezone.now())
        if reviews.model is ProductReview:
            product_review_summaries_refresh(
                product_ids=changing.values_list("product_id", flat=True)
            )
            for review in changing if active else ():
                emit("review.approved", review)
    cache_namespace_bump(FEEDBACK_CACHE)  # update() sends no signal
    return changed


def product_review_summaries_refresh(*, product_ids: Iterable[int | None]) -> None:
    """Recount the approved reviews of the products per score, for the catalog side. The
    products' rows are locked first so two concurrent refreshes cannot store an outdated
    count."""
    ids = sorted({pid for pid in product_ids if pid is not None})
    if not ids:
        return
    with transaction.atomic():
        list(Product.objects.select_for_update().filter(pk__in=ids).values_list("pk"))
        counts: dict[int, dict[int, int]] = {pid: {} for pid in ids}
        verified = dict.fromkeys(ids, 0)
        rows = (
            ProductReview.objects.public()
            .filter(product_id__in=ids)
            .order_by()
            .values("product_id", "score")
            .annotate(n=Count("id"), verified=Count("id", filter=Q(verified_purchase=True)))
        )
        for row in rows:
            counts[row["product_id"]][row["score"]] = row["n"]
            verified[row["product_id"]] += row["verified"]
        product_review_summaries_store(counts=counts, verified=verified)


def product_review_summaries_refresh_all(*, batch_size: int = 500) -> int:
    """Recount every product's review summary (backfill); returns how many products."""
    ids = list(Product.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), batch_size):
        product_review_summaries_refresh(product_ids=ids[start : start + batch_size])
    return len(ids)
