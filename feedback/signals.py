"""Cache invalidation (the one side effect allowed in signals): any change to a review,
its photos or a comment retires every cached review and comment list at once."""

from django.db.models.signals import post_delete
from django.dispatch import receiver

from infra.cache import cache_namespace_bump, invalidate_on_change
from storefront.models import Customer

from .models import Comment, ProductReview, ReviewMedia, SalesChannelReview
from .selectors import FEEDBACK_CACHE

invalidate_on_change(FEEDBACK_CACHE, ProductReview, ReviewMedia, SalesChannelReview, Comment)


@receiver(post_delete, sender=Customer)
def customer_deleted(**kwargs) -> None:
    """A deleted customer's reviews and comments lose their customer id without a signal."""
    cache_namespace_bump(FEEDBACK_CACHE)
