"""Database constraints and model rules of the feedback app."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from feedback.models import Comment
from tests.catalog.factories import ProductFactory
from tests.feedback.factories import (
    CommentFactory,
    ProductReviewFactory,
    ReplyFactory,
    SalesChannelReviewFactory,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("factory", [ProductReviewFactory, SalesChannelReviewFactory])
@pytest.mark.parametrize("score", [0, 6])
def test_the_database_refuses_a_score_outside_1_to_5(factory, score):
    with pytest.raises(IntegrityError), transaction.atomic():
        factory(score=score)


def test_a_customer_reviews_a_product_once():
    review = ProductReviewFactory()

    with pytest.raises(IntegrityError), transaction.atomic():
        ProductReviewFactory(product=review.product, customer=review.customer)


def test_the_database_refuses_a_staff_comment_that_is_not_a_reply():
    with pytest.raises(IntegrityError), transaction.atomic():
        CommentFactory(reply_by_user=True)


def test_the_database_refuses_an_empty_message():
    with pytest.raises(IntegrityError), transaction.atomic():
        CommentFactory(message="")


def test_the_database_refuses_a_comment_answering_itself():
    comment = CommentFactory()
    comment.parent_id = comment.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        comment.save()


def test_a_reply_to_a_reply_is_invalid():
    reply = ReplyFactory()
    nested = Comment(
        product=reply.product,
        parent=reply,
        customer_name="Ana",
        customer_email="a@example.com",
        message="Hi",
    )

    with pytest.raises(ValidationError) as error:
        nested.full_clean()
    assert "parent" in error.value.message_dict


def test_a_reply_on_another_product_is_invalid():
    parent = CommentFactory()
    reply = Comment(
        product=ProductFactory(),
        parent=parent,
        customer_name="Ana",
        customer_email="a@example.com",
        message="Hi",
    )

    with pytest.raises(ValidationError) as error:
        reply.full_clean()
    assert "parent" in error.value.message_dict


def test_a_comment_with_replies_cannot_become_a_reply():
    thread = ReplyFactory().parent
    other = CommentFactory(product=thread.product)
    thread.parent = other

    with pytest.raises(ValidationError):
        thread.full_clean()


def test_clean_trims_the_message_and_refuses_it_blank():
    comment = CommentFactory.build(product=ProductFactory(), message="   ")

    with pytest.raises(ValidationError) as error:
        comment.full_clean()
    assert "message" in error.value.message_dict
