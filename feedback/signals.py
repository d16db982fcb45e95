"""Cache invalidation: any change to a review, its photos or a comment retires every cached
review and comment list at once. And the `review.created` event: product reviews are created
outside any service (the admin, imports), so the row's creation is the one place that sees
every new review (emitted in the saving transaction); likewise `review.approved` when a
save turns an existing review active (the change form; the approve action goes through
`reviews_set_active`, whose update() sends no signal)."""

from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from infra.cache import cache_namespace_bump, invalidate_on_change
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


# The products' review summaries are derived data, recounted in the transaction that saves
# or deletes a review (the admin's change form, its delete action, cascades from a deleted
# customer or product reach reviews only through these signals): the one write besides
# cache invalidation that signals do (docs/decisions.md, issue 12).


@receiver(pre_save, sender=ProductReview)
def review_product_before_save(instance: ProductReview, **kwargs) -> None:
    """Remember the product the review had, so moving it recounts both products, and
    whether it was approved, so ticking "active" on the change form emits the approval."""
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
