"""Cache invalidation, review summaries, and the `review.created` and `review.approved`
events: reviews are also saved outside any service (the admin), so their save is the one
place that sees every new or newly approved review."""

from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from infra.caching.versions import cache_namespace_bump, invalidate_on_change
from infra.events import emit
from storefront.models import Customer

from .models import Comment, ProductReview, ReviewMedia, SalesChannelReview
from .selectors import FEEDBACK_CACHE
from .services import product_review_summaries_refresh

invalidate_on_change(FEEDBACK_CACHE, ProductReview, ReviewMedia, SalesChannelReview, Comment)


@receiver(post_delete, sender=Customer)
def customer_deleted(**kwargs) -> None:
    """A deleted customer's reviews and comments lose their customer id without a signal."""
    cache_namespace_bump(FEEDBACK_CACHE)


# Review summaries are recounted in the transaction that saves or deletes a review: the one
# write besides cache invalidation that signals do (docs/decisions.md, issue 12).


@receiver(pre_save, sender=ProductReview)
def review_product_before_save(instance: ProductReview, **kwargs) -> None:
    """Remember the review's product (moving it recounts both) and whether it was active."""
    previous = None
    if instance.pk is not None and not kwargs.get("raw"):
        previous = (
            ProductReview.objects.filter(pk=instance.pk).values_list("product_id", "active").first()
        )
    instance._summary_previous = previous  # type: ignore[attr-defined]


@receiver(post_save, sender=ProductReview)
def review_saved(instance: ProductReview, created: bool, raw: bool = False, **kwargs) -> None:
    if raw:
        return
    previous_product_id, was_active = getattr(instance, "_summary_previous", None) or (None, None)
    product_review_summaries_refresh(product_ids={instance.product_id, previous_product_id})
    if created:
        emit("review.created", instance)
    elif instance.active and was_active is False:
        emit("review.approved", instance)


@receiver(post_delete, sender=ProductReview)
def review_deleted(instance: ProductReview, **kwargs) -> None:
    product_review_summaries_refresh(product_ids={instance.product_id})
