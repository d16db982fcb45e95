"""Cache invalidation: any change to a review, its photos or a comment retires every cached
review and comment list at once. And the `review.created` event: product reviews are created
outside any service (the admin, imports), so the row's creation is the one place that sees
every new review (emitted in the saving transaction)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from infra.cache import cache_namespace_bump, invalidate_on_change
from infra.events import emit
from storefront.models import Customer

from .models import Comment, ProductReview, ReviewMedia, SalesChannelReview
from .selectors import FEEDBACK_CACHE

invalidate_on_change(FEEDBACK_CACHE, ProductReview, ReviewMedia, SalesChannelReview, Comment)


@receiver(post_delete, sender=Customer)
def customer_deleted(**kwargs) -> None:
    """A deleted customer's reviews and comments lose their customer id without a signal."""
    cache_namespace_bump(FEEDBACK_CACHE)


@receiver(post_save, sender=ProductReview)
def product_review_created(*, instance: ProductReview, created: bool, raw: bool = False, **kwargs):
    if created and not raw:
        emit("review.created", instance)
