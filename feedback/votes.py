"""Helpful votes on approved product reviews: one per voter, changeable, idempotent.

A voter is "c:<customer id>" when signed in, else "a:" and an HMAC (REVIEW_VOTE_SECRET,
SECRET_KEY when empty) of the client address and the client's token: the same browser on
the same network is one voter, and no address or token is stored. The review's counts and
its Wilson lower bound (`helpfulness`, feedback.ranking) are rewritten in the vote's
transaction with the review row locked, so the list orders by a column and two votes at
once cannot lose a count.
"""

from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.crypto import salted_hmac

from infra.caching.versions import cache_namespace_bump
from storefront.models import Customer

from .errors import ReviewNotFound
from .models import ProductReview, ReviewVote
from .ranking import wilson_lower_bound
from .selectors import FEEDBACK_CACHE

VOTER_TOKEN_MAX_LENGTH = 200


@dataclass(frozen=True)
class VoteCounted:
    review_id: int
    helpful: bool
    helpful_count: int
    unhelpful_count: int
    changed: bool  # False: the voter had already voted so


def customer_voter(customer: Customer) -> str:
    return f"c:{customer.pk}"


def anonymous_voter(*, address: str, token: str) -> str:
    """The keyed hash naming an anonymous voter (64 hex digits; not reversible)."""
    digest = salted_hmac(
        "feedback.review-vote",
        f"{address}\n{token}",
        secret=settings.REVIEW_VOTE_SECRET or None,
        algorithm="sha256",
    )
    return f"a:{digest.hexdigest()}"


def review_vote(*, review_id: int, voter: str, helpful: bool) -> VoteCounted:
    """Record `voter`'s vote on the approved review (ReviewNotFound otherwise): a first vote
    adds one, a changed vote moves one, a repeated vote changes nothing."""
    with transaction.atomic():
        review = (
            ProductReview.objects.public()
            .select_for_update()
            .filter(pk=review_id)
            .only("pk", "helpful_count", "unhelpful_count")
            .first()
        )
        if review is None:
            raise ReviewNotFound(review_id)
        up, down = review.helpful_count, review.unhelpful_count
        vote = ReviewVote.objects.select_for_update().filter(review=review, voter=voter).first()
        if vote is not None and vote.helpful == helpful:
            return VoteCounted(review.pk, helpful, up, down, changed=False)
        if vote is None:
            try:
                with transaction.atomic():
                    ReviewVote.objects.create(review=review, voter=voter, helpful=helpful)
            except IntegrityError:  # (the review row is locked: only a bypassing writer)
                raise ReviewNotFound(review_id) from None
        else:
            ReviewVote.objects.filter(pk=vote.pk).update(helpful=helpful)
            up, down = (up - 1, down) if vote.helpful else (up, down - 1)
        up, down = (up + 1, down) if helpful else (up, down + 1)
        ProductReview.objects.filter(pk=review.pk).update(
            helpful_count=up, unhelpful_count=down, helpfulness=wilson_lower_bound(up, down)
        )
        transaction.on_commit(lambda: cache_namespace_bump(FEEDBACK_CACHE))
    return VoteCounted(review.pk, helpful, up, down, changed=True)
