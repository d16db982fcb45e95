"""factory_boy factories of the feedback app."""

import factory

from feedback.models import Comment, ProductReview, ReviewMedia, SalesChannelReview
from storefront.models import SalesChannel
from tests.catalog.factories import ProductFactory
from tests.storefront.factories import CustomerFactory


def default_sales_channel() -> SalesChannel:
    """The default channel created by storefront migration 0002."""
    return SalesChannel.objects.get(is_default=True)


class ProductReviewFactory(factory.django.DjangoModelFactory):
    """An approved review by a customer, under the customer's name and e-mail."""

    class Meta:
        model = ProductReview

    product = factory.SubFactory(ProductFactory)
    customer = factory.SubFactory(CustomerFactory)
    name = factory.LazyAttribute(lambda review: review.customer.name)
    email = factory.LazyAttribute(lambda review: review.customer.email)
    score = 5
    comment = "Great product."
    recommended = True
    active = True
    masked = False


class ReviewMediaFactory(factory.django.DjangoModelFactory):
    """A photo of a review (a small generated PNG: use the `media_root` fixture)."""

    class Meta:
        model = ReviewMedia

    review = factory.SubFactory(ProductReviewFactory)
    image = factory.django.ImageField(width=20, height=20, color="red")


class SalesChannelReviewFactory(factory.django.DjangoModelFactory):
    """An approved review of the default sales channel."""

    class Meta:
        model = SalesChannelReview

    sales_channel = factory.LazyFunction(default_sales_channel)
    customer = factory.SubFactory(CustomerFactory)
    name = factory.LazyAttribute(lambda review: review.customer.name)
    email = factory.LazyAttribute(lambda review: review.customer.email)
    score = 4
    comment = "Fast delivery."
    recommended = True
    active = True
    masked = False


class CommentFactory(factory.django.DjangoModelFactory):
    """An approved, anonymous top-level comment."""

    class Meta:
        model = Comment

    product = factory.SubFactory(ProductFactory)
    parent = None
    customer = None
    customer_name = "Ana Souza"
    customer_email = factory.Sequence(lambda n: f"commenter{n}@example.com")
    message = factory.Sequence(lambda n: f"Question number {n}?")
    active = True


class ReplyFactory(CommentFactory):
    """An approved customer reply to `parent` (pass it), on the parent's product."""

    parent = factory.SubFactory(CommentFactory)
    product = factory.SelfAttribute("parent.product")


class StaffReplyFactory(ReplyFactory):
    """An approved staff reply (pass `user`)."""

    customer_name = ""
    customer_email = ""
    user = None
    user_name = "Store team"
    user_email = "team@store.example"
    reply_by_user = True
