"""feedback/services.py: staff replies (with e-mail), moderation, comment rules."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from catalog.errors import ProductNotFound
from feedback.errors import BlankMessage, MissingCommenterContact
from feedback.models import Comment, ProductReview
from feedback.services import (
    comment_create,
    comment_reply_by_staff,
    comments_set_active,
    reviews_set_active,
)
from jobs.models import OutboundEmail
from tests.catalog.factories import ProductFactory
from tests.feedback.factories import CommentFactory, ProductReviewFactory, ReplyFactory
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    return get_user_model().objects.create_user(
        "maria", "maria@store.example", "x", first_name="Maria", last_name="Costa", is_staff=True
    )


def test_a_staff_reply_joins_the_thread_signed_by_the_staff_member(staff, settings):
    settings.COMMENTS_EMAIL_REPLIES = False
    comment = CommentFactory(active=False)

    result = comment_reply_by_staff(comment=comment, user=staff, message="  Yes, it is.  ")

    reply = result.reply
    assert reply.parent == comment
    assert reply.product_id == comment.product_id
    assert reply.reply_by_user is True
    assert reply.active is True
    assert (reply.user, reply.user_name, reply.user_email) == (
        staff,
        "Store team",  # no display name set: the default, not her name or username
        "maria@store.example",
    )
    assert reply.message == "Yes, it is."
    assert reply.customer_name == "" and reply.customer_id is None
    comment.refresh_from_db()
    assert comment.active is True  # approved by answering
    assert result.emailed is False
    assert mail.outbox == []


def test_a_staff_reply_can_leave_the_comment_pending(staff):
    comment = CommentFactory(active=False)

    comment_reply_by_staff(comment=comment, user=staff, message="Noted", approve_comment=False)

    comment.refresh_from_db()
    assert comment.active is False


def test_a_staff_reply_to_a_reply_goes_to_the_top_level_comment(staff):
    top = CommentFactory()
    reply = ReplyFactory(parent=top, customer_email="replier@example.com")

    result = comment_reply_by_staff(comment=reply, user=staff, message="Thanks")

    assert result.reply.parent == top
    assert mail.outbox[0].to == ["replier@example.com"]


def test_a_staff_reply_emails_the_customer_when_the_setting_is_on(staff, settings):
    settings.COMMENTS_EMAIL_REPLIES = True
    settings.PUBLIC_BASE_URL = "https://shop.example.com"
    product = ProductFactory(name="Trail Backpack")
    comment = CommentFactory(
        product=product,
        customer_name="Ana",
        customer_email="ana@example.com",
        message="Is it waterproof?",
    )

    result = comment_reply_by_staff(comment=comment, user=staff, message="Yes, fully.")

    assert result.emailed is True
    [email] = mail.outbox
    assert email.to == ["ana@example.com"]
    assert "Trail Backpack" in email.subject
    assert "Is it waterproof?" in email.body and "Yes, fully." in email.body
    assert f"https://shop.example.com{product.url}" in email.body
    html, mimetype = email.alternatives[0]
    assert mimetype == "text/html" and "Yes, fully." in html


def test_a_signed_in_customers_comment_without_a_stored_email_uses_the_account(staff):
    customer = CustomerFactory(email="acct@example.com")
    comment = CommentFactory(customer=customer, customer_email="")

    comment_reply_by_staff(comment=comment, user=staff, message="Hello")

    assert mail.outbox[0].to == ["acct@example.com"]


def test_a_failing_mail_server_does_not_lose_the_reply(staff, settings):
    settings.EMAIL_BACKEND = "tests.feedback.test_services.BrokenBackend"
    comment = CommentFactory()

    result = comment_reply_by_staff(comment=comment, user=staff, message="Hello")

    # the reply stands and its e-mail stays queued for the next attempt of its job
    assert result.emailed is True
    assert Comment.objects.filter(pk=result.reply.pk).exists()
    email = OutboundEmail.objects.get(key=f"comment-reply.{result.reply.pk}")
    assert (email.status, email.attempts) == ("queued", 1)
    assert "mail server down" in email.last_error


class BrokenBackend:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("mail server down")


def test_a_blank_staff_reply_is_refused(staff):
    with pytest.raises(BlankMessage):
        comment_reply_by_staff(comment=CommentFactory(), user=staff, message="   ")
    assert Comment.objects.count() == 1


def test_moderation_approves_and_hides_in_bulk():
    pending = CommentFactory.create_batch(3, active=False)
    ProductReviewFactory.create_batch(2, active=True)

    approved = comments_set_active(comments=Comment.objects.all(), active=True)
    hidden = reviews_set_active(reviews=ProductReview.objects.all(), active=False)

    assert approved == len(pending)
    assert hidden == 2
    assert not Comment.objects.filter(active=False).exists()
    assert not ProductReview.objects.filter(active=True).exists()


def test_comment_create_refuses_an_unknown_product():
    with pytest.raises(ProductNotFound):
        comment_create(
            product_id=123456, message="Hi", customer_name="Ana", customer_email="a@example.com"
        )


def test_comment_create_needs_a_name_and_email_from_anonymous_callers():
    product = ProductFactory()

    with pytest.raises(MissingCommenterContact):
        comment_create(product_id=product.pk, message="Hi")
    assert not Comment.objects.exists()
