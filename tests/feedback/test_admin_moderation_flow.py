"""Moderation in one flow (issue 20, item 7): after a reply, back to the queue staff came from
with the next pending comment named; the reply form states the signature the reply gets; a
comment's form shows only the fieldsets its kind fills (through HTTP)."""

import html
from datetime import timedelta
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from feedback.models import Comment, StaffProfile
from tests.feedback.factories import CommentFactory, StaffReplyFactory

pytestmark = pytest.mark.django_db

QUEUE = reverse("admin:feedback_comment_changelist")
PENDING = "active__exact=0"


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x")
    client.force_login(user)
    client.user = user
    return client


def reply_url(comment, queue: str = "") -> str:
    url = reverse("admin:feedback_comment_reply", args=[comment.pk])
    return f"{url}?_changelist_filters={quote(queue)}" if queue else url


def pending(message: str, minutes_ago: int, **fields) -> Comment:
    comment = CommentFactory(active=False, message=message, **fields)
    created = timezone.now() - timedelta(minutes=minutes_ago)
    Comment.objects.filter(pk=comment.pk).update(created_at=created)
    return comment


def answer(client, comment, queue: str = "", **data):
    return client.post(
        reply_url(comment, queue), {"message": "Yes.", "approve_comment": "on", **data}, follow=True
    )


def page_messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


# --- Back to the queue, with the next pending comment ------------------------------------


def test_the_queues_reply_buttons_keep_its_filters(staff_client):
    comment = pending("Blue?", 1)

    page = staff_client.get(f"{QUEUE}?{PENDING}").content.decode()

    assert html.escape(reply_url(comment, PENDING)) in page


def test_after_a_reply_staff_are_back_in_their_queue_with_the_next_pending_named(staff_client):
    older = pending("Does it come in red?", 30, customer_name="Rita")
    newer = pending("Does it come in blue?", 5)
    CommentFactory(active=True, message="Approved already")

    response = answer(staff_client, newer, PENDING)

    assert response.redirect_chain == [(f"{QUEUE}?{PENDING}", 302)]
    messages = page_messages(response)
    assert "Your reply is published." in messages
    assert f"Next pending: #{older.pk} by Rita, “Does it come in red?”." in messages[-1]
    # the link is a link (not escaped text) and keeps the queue
    assert f'<a href="{html.escape(reply_url(older, PENDING))}">Reply</a>' in (
        response.content.decode()
    )
    assert list(response.context["cl"].result_list) == [older]


def test_the_next_pending_comment_is_taken_from_the_queues_own_search(staff_client):
    wanted = pending("Is the blue one in stock?", 30)
    pending("Is the red one in stock?", 10)  # newer, but not in this queue
    answered = pending("Blue for kids?", 5)
    queue = f"{PENDING}&q=blue"

    response = answer(staff_client, answered, queue)

    assert response.redirect_chain == [(f"{QUEUE}?{queue}", 302)]
    assert f"Next pending: #{wanted.pk} by" in page_messages(response)[-1]


def test_a_comment_answered_without_approval_is_not_named_next(staff_client):
    older = pending("Older?", 30)
    answered = pending("Newer?", 5)

    response = answer(staff_client, answered, PENDING, approve_comment="")

    answered.refresh_from_db()
    assert answered.active is False
    assert f"Next pending: #{older.pk} by" in page_messages(response)[-1]


def test_when_the_queue_is_empty_staff_are_told_so(staff_client):
    only = pending("Alone?", 5)

    response = answer(staff_client, only, PENDING)

    assert page_messages(response)[-1] == "No pending comment left in this list."
    assert list(response.context["cl"].result_list) == []


def test_the_page_number_of_the_queue_is_not_kept(staff_client):
    comment = pending("Paged?", 5)

    response = answer(staff_client, comment, f"{PENDING}&p=3")

    assert response.redirect_chain == [(f"{QUEUE}?{PENDING}", 302)]
    assert response.status_code == 200


def test_a_reply_not_started_from_a_queue_returns_to_the_whole_list(staff_client):
    comment = pending("Direct?", 5)

    response = answer(staff_client, comment)

    assert response.redirect_chain == [(QUEUE, 302)]


def test_the_comment_pages_reply_and_cancel_links_keep_the_queue(staff_client):
    comment = pending("Kept?", 5)
    change = reverse("admin:feedback_comment_change", args=[comment.pk])

    change_page = staff_client.get(f"{change}?_changelist_filters={quote(PENDING)}")
    reply_page = staff_client.get(reply_url(comment, PENDING))

    assert html.escape(reply_url(comment, PENDING)) in change_page.content.decode()
    cancel = f'<a href="{html.escape(f"{QUEUE}?{PENDING}")}" class="closelink">'
    assert cancel in reply_page.content.decode()


# --- The signature the form promises is the one the reply gets ---------------------------


def promised_and_signed(client, comment) -> tuple[str, str]:
    form = client.get(reply_url(comment)).context["form"]
    client.post(reply_url(comment), {"message": "Yes."})
    reply = Comment.objects.get(parent=comment, reply_by_user=True)
    return str(form.fields["message"].help_text), reply.user_name


def test_without_a_display_name_the_form_promises_the_default_it_signs_with(staff_client):
    comment = pending("Signed?", 5)

    page = staff_client.get(reply_url(comment)).content.decode()
    promised, signed = promised_and_signed(staff_client, comment)

    assert promised == "Published at once, signed “Store team”."
    assert signed == "Store team"
    user_page = reverse("admin:auth_user_change", args=[staff_client.user.pk])
    assert f'set one on <a href="{user_page}">your user page</a>' in page


def test_with_a_display_name_the_form_promises_it_and_no_hint_is_shown(staff_client):
    StaffProfile.objects.create(user=staff_client.user, display_name="Joana, atendimento")
    comment = pending("Signed?", 5)

    page = staff_client.get(reply_url(comment)).content.decode()
    promised, signed = promised_and_signed(staff_client, comment)

    assert promised == "Published at once, signed “Joana, atendimento”."
    assert signed == "Joana, atendimento"
    assert "no public display name" not in page


def test_in_portuguese_the_promise_and_the_signature_agree(staff_client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    comment = pending("Assinada?", 5)

    promised, signed = promised_and_signed(staff_client, comment)

    assert promised == "Publicada na hora, assinada “Equipe da loja”."
    assert signed == "Equipe da loja"


def test_staff_who_cannot_edit_users_are_told_who_can(client):
    clerk = get_user_model().objects.create_user("clerk", "c@store.example", "x", is_staff=True)
    clerk.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="feedback", codename__in=["view_comment", "change_comment"]
        )
    )
    client.force_login(clerk)
    comment = pending("Who?", 5)

    page = client.get(reply_url(comment)).content.decode()

    assert "an administrator can set one on your user page" in page
    assert "/auth/user/" not in page


# --- A comment's form shows what its kind fills -------------------------------------------


def fieldset_headings(client, comment) -> str:
    return client.get(reverse("admin:feedback_comment_change", args=[comment.pk])).content.decode()


def test_a_customers_comment_has_no_empty_staff_reply_fieldset(staff_client):
    page = fieldset_headings(staff_client, CommentFactory())

    assert ">Customer</h2>" in page
    assert ">Staff reply</h2>" not in page


def test_a_staff_reply_shows_its_staff_fields_and_no_empty_customer_fieldset(staff_client):
    reply = StaffReplyFactory(user=staff_client.user, user_name="Joana")

    page = fieldset_headings(staff_client, reply)

    assert ">Staff reply</h2>" in page
    assert ">Customer</h2>" not in page
    assert "Joana" in page
