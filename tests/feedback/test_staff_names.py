"""Staff replies are signed with a public display name (default "Store team"), set per user
on the User admin page; the username never reaches the API or the customer's e-mail."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from feedback.models import Comment, StaffProfile
from tests.feedback.factories import CommentFactory

pytestmark = pytest.mark.django_db

URL = "/publics/products/comments"
USERNAME = "jsilva_admin42"


@pytest.fixture
def staff_client(client, settings):
    settings.COMMENTS_EMAIL_REPLIES = True
    user = get_user_model().objects.create(
        username=USERNAME,
        email="jsilva@store.example",
        first_name="Joana",
        last_name="Silva",
        is_staff=True,
        is_superuser=True,
    )
    client.force_login(user)
    client.user = user
    return client


def reply_through_admin(staff_client, comment, message="It ships in 2 days."):
    response = staff_client.post(
        reverse("admin:feedback_comment_reply", args=[comment.pk]),
        {"message": message, "approve_comment": "on"},
    )
    assert response.status_code == 302
    return Comment.objects.get(parent=comment)


def public_reply(api_client, reply) -> dict:
    response = api_client.get(URL, {"condition[productId]": reply.product_id})
    assert response.status_code == 200
    [found] = [row for row in response.json()["registers"] if row["id"] == reply.pk]
    return found


def test_a_reply_is_signed_store_team_by_default_never_with_the_username(staff_client, api_client):
    comment = CommentFactory(active=False, customer_email="ana@example.com")

    reply = reply_through_admin(staff_client, comment)

    row = public_reply(api_client, reply)
    assert row["userName"] == "Store team"
    assert row["replyByUser"] is True
    response = api_client.get(URL, {"condition[productId]": reply.product_id})
    assert USERNAME not in response.content.decode()
    [email] = mail.outbox
    assert "Store team answered your comment on" in email.body
    html = email.alternatives[0][0]
    assert "Store team answered your comment on" in html
    for text in (email.body, html, email.subject):
        assert USERNAME not in text


def test_the_display_name_set_in_the_user_admin_signs_the_reply(staff_client, api_client):
    user = staff_client.user
    page = staff_client.get(reverse("admin:auth_user_change", args=[user.pk]))
    assert page.status_code == 200
    assert "Public display name" in page.content.decode()
    form = {
        "username": USERNAME,
        "first_name": "Joana",
        "last_name": "Silva",
        "email": "jsilva@store.example",
        "is_active": "on",
        "is_staff": "on",
        "is_superuser": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
        "staff_profile-TOTAL_FORMS": "1",
        "staff_profile-INITIAL_FORMS": "0",
        "staff_profile-MIN_NUM_FORMS": "0",
        "staff_profile-MAX_NUM_FORMS": "1",
        "staff_profile-0-display_name": "Joana, atendimento",
    }
    saved = staff_client.post(reverse("admin:auth_user_change", args=[user.pk]), form)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    assert StaffProfile.objects.get(user=user).display_name == "Joana, atendimento"

    comment = CommentFactory(customer_email="ana@example.com")
    reply = reply_through_admin(staff_client, comment)

    assert public_reply(api_client, reply)["userName"] == "Joana, atendimento"
    [email] = mail.outbox
    assert "Joana, atendimento answered your comment on" in email.body
    assert USERNAME not in email.body and USERNAME not in email.alternatives[0][0]


def test_a_blank_display_name_falls_back_to_store_team(staff_client, api_client):
    StaffProfile.objects.create(user=staff_client.user, display_name="   ")
    reply = reply_through_admin(staff_client, CommentFactory())
    assert public_reply(api_client, reply)["userName"] == "Store team"
