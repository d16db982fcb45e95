"""Writes and rules of the feedback app: comments, replies, moderation."""

import logging
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils import timezone

from catalog.errors import ProductNotFound
from catalog.selectors import product_get_active
from infra.cache import cache_namespace_bump
from infra.events import emit
from jobs.services import email_enqueue
from storefront.models import Customer

from .errors import BlankMessage, InvalidParentComment, MissingCommenterContact
from .models import Comment, ProductReview
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
    """A customer's comment on a product, or reply to one of its comments.

    A signed-in customer's name and e-mail come from the account. The comment is active
    at once unless settings.COMMENTS_REQUIRE_MODERATION holds it for staff. Raises 404
    SERVICE_STORE_PRODUCT_NOT_FOUND for an unknown or inactive product and 422 when the
    parent is not an approved top-level comment of the same product.
    """
    product = product_get_active(product_id=product_id)
    if product is None:
        raise ProductNotFound(product_id)
    parent = None
    if parent_comment_id is not None:
        parent = (
            Comment.objects.public()
            .top_level()
            .filter(pk=parent_comment_id, product=product)
            .first()
        )
        if parent is None:
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


def comment_reply_by_staff(
    *, comment: Comment, user: User, message: str, approve_comment: bool = True
) -> StaffReply:
    """A staff member's reply to `comment` (written in the admin).

    The reply joins the thread of the top-level comment (replies are one level deep),
    is public at once and carries the staff member's id, name and e-mail. With
    `approve_comment`, the answered comment (and its top-level comment) are approved too.
    When settings.COMMENTS_EMAIL_REPLIES is on, the author of `comment` gets an e-mail,
    queued in the same transaction as the reply (a worker sends it); `emailed` says whether
    one was queued. Emits `comment.replied` with the reply.
    """
    message = (message or "").strip()
    if not message:
        raise BlankMessage
    thread = comment.parent or comment  # replies are one level deep
    with transaction.atomic():
        reply = Comment.objects.create(
            product_id=comment.product_id,
            parent=thread,
            user=user,
            user_name=(user.get_full_name() or user.get_username())[:150],
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
    """Queue the e-mail telling the author of `comment` that staff answered (a worker sends
    it, keyed by the reply: one e-mail per reply); False when there is no address."""
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
    subject = f"Your question about {product.name} was answered"
    queued = email_enqueue(
        key=f"comment-reply.{reply.pk}",
        to=recipient,
        subject=subject.replace("\n", " ")[:200],
        text=render_to_string("feedback/emails/comment_reply.txt", context),
        html=render_to_string("feedback/emails/comment_reply.html", context),
    )
    return queued is not None


def comments_set_active(*, comments: QuerySet, active: bool) -> int:
    """Approve (active=True) or hide (False) comments; returns how many changed."""
    changed = comments.exclude(active=active).update(active=active, updated_at=timezone.now())
    cache_namespace_bump(FEEDBACK_CACHE)  # update() sends no signal
    return changed


def reviews_set_active(*, reviews: QuerySet, active: bool) -> int:
    """Approve or hide product or store reviews; returns how many changed. Each product
    review approved here emits `review.approved`."""
    with transaction.atomic():
        to_change = list(reviews.exclude(active=active).values_list("pk", flat=True))
        changed = reviews.model.objects.filter(pk__in=to_change).update(
            active=active, updated_at=timezone.now()
        )
        if active and reviews.model is ProductReview:
            for review in ProductReview.objects.filter(pk__in=to_change):
                emit("review.approved", review)
    cache_namespace_bump(FEEDBACK_CACHE)  # update() sends no signal
    return changed
