"""The back office's unanswered questions (issue 34, item 3): oldest first with their age,
the count on the admin index (one query, on the index only), the median time to the first
staff answer over the last 30 days (equal to a computation made here)."""

import re
import statistics
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from feedback.models import Comment
from tests.feedback.factories import CommentFactory, ReplyFactory, StaffReplyFactory

pytestmark = pytest.mark.django_db

PAGE = reverse("admin:feedback_comment_unanswered")


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x")
    client.force_login(user)
    return client


def at(comment: Comment, moment) -> Comment:
    Comment.objects.filter(pk=comment.pk).update(created_at=moment, updated_at=moment)
    comment.refresh_from_db()
    return comment


def ago(**delta):
    return timezone.now() - timedelta(**delta)


def listed(response) -> list[int]:
    html = response.content.decode()
    table = html.split('id="unanswered-questions"')[1].split("</table>")[0]
    return [int(pk) for pk in re.findall(r"/admin/feedback/comment/(\d+)/change/", table)]


def test_the_unanswered_questions_oldest_first_with_their_age(staff_client):
    recent = at(CommentFactory(message="Recent"), ago(hours=2))
    oldest = at(CommentFactory(message="Oldest"), ago(days=3, hours=1))
    pending = at(CommentFactory(message="Pending", active=False), ago(days=1, hours=1))
    hidden_answer = at(CommentFactory(), ago(days=2, hours=1))
    StaffReplyFactory(parent=hidden_answer, active=False)
    ReplyFactory(parent=recent)  # a customer's reply answers nothing
    StaffReplyFactory(parent=CommentFactory(message="Answered"))

    response = staff_client.get(PAGE)

    assert response.status_code == 200
    assert listed(response) == [oldest.pk, hidden_answer.pk, pending.pk, recent.pk]
    html = response.content.decode().replace("\xa0", " ")
    for age in ("3 days ago", "2 days ago", "1 day ago", "2 hours ago"):
        assert age in html
    assert reverse("admin:feedback_comment_reply", args=[oldest.pk]) in html
    assert "4 questions waiting." in html


def test_the_page_speaks_portuguese(staff_client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    at(CommentFactory(), ago(days=3, hours=1))
    question = at(CommentFactory(), ago(days=10))
    at(StaffReplyFactory(parent=question), ago(days=9))

    html = staff_client.get(PAGE).content.decode().replace("\xa0", " ")

    assert "Perguntas sem resposta" in html
    assert "há 3 dias" in html
    assert "Tempo mediano até a primeira resposta da equipe nos últimos 30 dias" in html
    assert "há 1 dia" not in html  # (the answered question is not listed)


def test_the_median_time_to_the_first_staff_answer_equals_an_independent_computation(
    staff_client,
):
    """A fixture of questions, each answered (or not) by staff and customers, some answers
    hidden, some first answers older than 30 days: the page's median is the median computed
    here from the rows' times."""
    fixture = [
        # (asked days ago, staff answers: (days ago, public), customer replies days ago)
        (40, [(35, True), (2, True)], []),  # first answer 35 days ago: out
        (20, [(19.5, True), (1, True)], [19.9]),  # 12 h
        (10, [(9.9, False), (7, True)], []),  # hidden first: 3 days
        (6, [(5.75, True)], [5.9]),  # 6 h
        (3, [], [2]),  # a customer's reply only: not answered
        (2, [(1.999, True)], []),  # 86.4 s
        (29.5, [(29.4, True)], []),  # 2.4 h
    ]
    now = timezone.now()
    waits = []
    for asked, answers, replies in fixture:
        question = at(CommentFactory(), now - timedelta(days=asked))
        for days, public in answers:
            at(StaffReplyFactory(parent=question, active=public), now - timedelta(days=days))
        for days in replies:
            at(ReplyFactory(parent=question), now - timedelta(days=days))
        first = max((days for days, public in answers if public), default=None)  # earliest
        if first is not None and first < 30:
            waits.append((asked - first) * 86_400)

    response = staff_client.get(PAGE)
    shown = re.search(r'data-seconds="(\d+)"', response.content.decode())

    assert len(waits) == 5
    assert int(shown.group(1)) == round(statistics.median(waits))  # 6 h
    assert "(5 questions answered)" in response.content.decode()


def test_without_an_answer_in_30_days_the_page_says_so(staff_client):
    question = at(CommentFactory(), ago(days=50))
    at(StaffReplyFactory(parent=question), ago(days=40))

    html = staff_client.get(PAGE).content.decode()

    assert "No question got its first staff answer in the last 30 days." in html
    assert "Every question has a staff answer." in html


def test_the_page_costs_the_same_queries_for_1_and_50_questions(staff_client):
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert staff_client.get(PAGE).status_code == 200
        return len(queries)

    CommentFactory()
    one = count()
    CommentFactory.create_batch(70)
    response = staff_client.get(PAGE + "?p=2")
    assert len(listed(response)) == 21
    assert count() == one


def test_the_index_shows_the_count_with_one_query_and_other_pages_none(staff_client):
    def queries(url: str) -> list[str]:
        with CaptureQueriesContext(connection) as captured:
            assert staff_client.get(url).status_code == 200
        return [query["sql"] for query in captured]

    index = reverse("admin:index")
    empty = len(queries(index))
    for _ in range(30):
        StaffReplyFactory(parent=CommentFactory())
    CommentFactory.create_batch(7)

    html = staff_client.get(index).content.decode()
    assert "7 questions waiting for an answer" in html and PAGE in html
    assert len(queries(index)) == empty
    counting = [sql for sql in queries(index) if "feedback_comment" in sql]
    assert len(counting) == 1
    for url in (
        reverse("admin:catalog_product_changelist"),
        reverse("admin:app_list", args=["feedback"]),
    ):
        assert not [sql for sql in queries(url) if "feedback_comment" in sql], url


def test_the_comment_list_links_to_the_page(staff_client):
    html = staff_client.get(reverse("admin:feedback_comment_changelist")).content.decode()
    assert f'href="{PAGE}"' in html


def test_the_page_and_the_index_line_need_view_permission_on_comments(client):
    user = get_user_model().objects.create_user("clerk", "clerk@store.example", "x", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_product"))
    client.force_login(user)
    CommentFactory()

    assert client.get(PAGE).status_code == 403
    assert "waiting for an answer" not in client.get(reverse("admin:index")).content.decode()
    user.user_permissions.add(Permission.objects.get(codename="view_comment"))
    assert client.get(PAGE).status_code == 200
    assert "1 question waiting for an answer" in client.get(reverse("admin:index")).content.decode()
