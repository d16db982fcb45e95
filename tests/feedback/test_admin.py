"""Back office: review moderation, the comment queue and the staff reply form."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from feedback.models import Comment, ProductReview, SalesChannelReview
from tests.feedback.factories import (
    CommentFactory,
    ProductReviewFactory,
    ReplyFactory,
    ReviewMediaFactory,
    SalesChannelReviewFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser(
        "boss", "boss@store.example", "x", first_name="Bia", last_name="Reis"
    )
    client.force_login(user)
    client.user = user
    return client


@pytest.mark.parametrize(
    ("model", "factory"),
    [
        ("productreview", ProductReviewFactory),
        ("saleschannelreview", SalesChannelReviewFactory),
        ("comment", CommentFactory),
    ],
)
def test_changelist_add_and_change_pages_open(staff_client, model, factory):
    obj = factory()

    for url in (
        reverse(f"admin:feedback_{model}_changelist"),
        reverse(f"admin:feedback_{model}_changelist") + "?active__exact=0&q=a",
        reverse(f"admin:feedback_{model}_add"),
        reverse(f"admin:feedback_{model}_change", args=[obj.pk]),
    ):
        assert staff_client.get(url).status_code == 200, url


def test_review_changelist_filters_by_score_and_product(staff_client, media_root):
    review = ProductReviewFactory(score=2)
    ReviewMediaFactory(review=review)
    ProductReviewFactory(score=5)
    url = reverse("admin:feedback_productreview_changelist")

    response = staff_client.get(url, {"score": 2, "product__id__exact": review.product_id})

    assert response.status_code == 200
    assert list(response.context["cl"].queryset) == [review]


def test_review_changelist_does_not_query_per_row(staff_client, django_assert_max_num_queries):
    ProductReviewFactory.create_batch(30)
    url = reverse("admin:feedback_productreview_changelist")
    staff_client.get(url)

    with django_assert_max_num_queries(15):
        assert staff_client.get(url).status_code == 200


@pytest.mark.parametrize(
    ("model", "factory", "manager"),
    [
        ("productreview", ProductReviewFactory, ProductReview.objects),
        ("saleschannelreview", SalesChannelReviewFactory, SalesChannelReview.objects),
        ("comment", CommentFactory, Comment.objects),
    ],
)
def test_bulk_approve_and_hide(staff_client, model, factory, manager):
    records = factory.create_batch(3, active=False)
    url = reverse(f"admin:feedback_{model}_changelist")
    selected = [r.pk for r in records[:2]]

    response = staff_client.post(
        url, {"action": "approve", "_selected_action": selected}, follow=True
    )
    assert set(manager.filter(active=True).values_list("pk", flat=True)) == set(selected)
    reports = [(m.level_tag, str(m)) for m in response.context["messages"]]
    assert len(reports) == 1 and reports[0][0] == "success" and reports[0][1].startswith("2 ")

    staff_client.post(url, {"action": "hide", "_selected_action": selected})
    assert not manager.filter(active=True).exists()


def test_the_comment_queue_lists_pending_comments_first(staff_client):
    approved = CommentFactory(active=True)
    pending = CommentFactory(active=False)

    response = staff_client.get(reverse("admin:feedback_comment_changelist"))

    assert list(response.context["cl"].result_list) == [pending, approved]


def test_the_comment_changelist_does_not_query_per_row(staff_client, django_assert_max_num_queries):
    for comment in CommentFactory.create_batch(20):
        ReplyFactory(parent=comment)
    url = reverse("admin:feedback_comment_changelist")
    staff_client.get(url)

    with django_assert_max_num_queries(15):
        assert staff_client.get(url).status_code == 200


def test_the_reply_form_publishes_a_staff_reply_and_emails_the_customer(staff_client, settings):
    settings.COMMENTS_EMAIL_REPLIES = True
    comment = CommentFactory(active=False, customer_email="ana@example.com")
    url = reverse("admin:feedback_comment_reply", args=[comment.pk])

    page = staff_client.get(url)
    response = staff_client.post(url, {"message": "It ships in 2 days.", "approve_comment": "on"})

    assert page.status_code == 200 and b"ana@example.com" in page.content
    change = reverse("admin:feedback_comment_change", args=[comment.pk])
    assert f'href="{change}">#{comment.pk}</a>' in page.content.decode()  # the breadcrumbs
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:feedback_comment_changelist")  # the queue
    reply = Comment.objects.get(parent=comment)
    assert reply.reply_by_user is True and reply.active is True
    assert reply.user == staff_client.user
    assert reply.user_name == "Store team"  # no display name set: the default, never "boss"
    assert reply.user_email == "boss@store.example"
    comment.refresh_from_db()
    assert comment.active is True
    assert [m.to for m in mail.outbox] == [["ana@example.com"]]


def test_the_reply_form_sends_no_email_when_the_setting_is_off(staff_client, settings):
    settings.COMMENTS_EMAIL_REPLIES = False
    comment = CommentFactory()

    staff_client.post(
        reverse("admin:feedback_comment_reply", args=[comment.pk]), {"message": "Thanks!"}
    )

    assert Comment.objects.filter(parent=comment, reply_by_user=True).count() == 1
    assert mail.outbox == []


def test_the_reply_form_refuses_an_empty_message(staff_client):
    comment = CommentFactory()

    response = staff_client.post(
        reverse("admin:feedback_comment_reply", args=[comment.pk]), {"message": "   "}
    )

    assert response.status_code == 200
    assert response.context["form"].errors["message"]
    assert Comment.objects.count() == 1


def test_the_reply_form_of_an_unknown_comment_is_404(staff_client):
    response = staff_client.get(reverse("admin:feedback_comment_reply", args=[424242]))

    assert response.status_code == 404


def test_the_reply_form_needs_change_permission(client):
    viewer = get_user_model().objects.create_user("viewer", "v@store.example", "x", is_staff=True)
    client.force_login(viewer)
    comment = CommentFactory()

    response = client.post(
        reverse("admin:feedback_comment_reply", args=[comment.pk]), {"message": "Hi"}
    )

    assert response.status_code == 403
    assert not Comment.objects.filter(parent=comment).exists()


def test_a_comment_change_page_shows_the_thread_and_a_reply_button(staff_client):
    comment = CommentFactory()
    ReplyFactory(parent=comment, message="A reply in the thread")

    response = staff_client.get(reverse("admin:feedback_comment_change", args=[comment.pk]))

    assert b"A reply in the thread" in response.content
    assert reverse("admin:feedback_comment_reply", args=[comment.pk]).encode() in response.content
