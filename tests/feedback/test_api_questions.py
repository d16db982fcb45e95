"""Questions that get answered (issue 34, item 3), through HTTP: `condition[answered]` on the
comment list, the staff's answers first in a list of replies, and
GET /publics/products/{productId}/comments/similar?q= (bare, cached, 404 and 422 in the
error envelope)."""

import json
import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalog.models import Product
from feedback.models import Comment
from feedback.services import comments_set_active
from tests.catalog.factories import ProductFactory, ProductMediaFactory, StockFactory
from tests.feedback.factories import CommentFactory, ReplyFactory, StaffReplyFactory
from tests.feedback.test_api_comments import COMMENT_KEYS
from tests.helpers import assert_error, assert_error_envelope, cold_caches

pytestmark = pytest.mark.django_db

URL = "/publics/products/comments"
NOT_FOUND = "SERVICE_STORE_PRODUCT_NOT_FOUND"


def ids(api_client, **params) -> list[int]:
    response = api_client.get(URL, {"limit": 100, **params})
    assert response.status_code == 200, response.content
    return [register["id"] for register in response.json()["registers"]]


def similar(api_client, product, q, **extra):
    return api_client.get(f"/publics/products/{product.pk}/comments/similar", {"q": q}, **extra)


def similar_ids(api_client, product, q) -> list[int]:
    response = similar(api_client, product, q)
    assert response.status_code == 200, response.content
    return [register["id"] for register in response.json()["registers"]]


def aged(comment: Comment, **ago) -> Comment:
    moment = timezone.now() - timedelta(**ago)
    Comment.objects.filter(pk=comment.pk).update(created_at=moment, updated_at=moment)
    comment.refresh_from_db()
    return comment


# --- condition[answered] ---------------------------------------------------------------------


@pytest.fixture
def threads():
    """Questions in every state an answer can be in."""
    answered = CommentFactory(message="Answered by staff")
    StaffReplyFactory(parent=answered)
    by_customer = CommentFactory(message="Only a customer replied")
    ReplyFactory(parent=by_customer)
    hidden_answer = CommentFactory(message="The staff reply was hidden")
    StaffReplyFactory(parent=hidden_answer, active=False)
    waiting = CommentFactory(message="Nobody replied")
    both = CommentFactory(message="Customer and staff replied")
    ReplyFactory(parent=both)
    StaffReplyFactory(parent=both)
    CommentFactory(active=False, message="Pending: not public")
    public_replies = Comment.objects.public().exclude(parent=None)
    return {
        "answered": {answered.pk, both.pk},
        "unanswered": {by_customer.pk, hidden_answer.pk, waiting.pk},
        "replies": set(public_replies.values_list("pk", flat=True)),
    }


def test_answered_false_lists_exactly_the_questions_without_a_public_staff_reply(
    api_client, threads
):
    assert set(ids(api_client, **{"condition[answered]": "false"})) == threads["unanswered"]
    assert set(ids(api_client, **{"condition[answered]": "true"})) == threads["answered"]
    assert set(ids(api_client, condition='{"answered": false}')) == threads["unanswered"]


@pytest.mark.parametrize(
    ("condition", "kind"),
    [
        ({"answered": {"eq": True}}, "answered"),
        ({"answered": {"ne": True}}, "unanswered"),
        ({"answered": {"ne": False}}, "answered"),
        ({"answered": {"in": [True, False]}}, "questions"),
        ({"answered": {"nin": [True]}}, "unanswered"),
        ({"answered": {"gt": False}}, "answered"),
        ({"answered": {"lt": True}}, "unanswered"),
        ({"answered": {"lt": False}}, "none"),
        ({"answered": {"isNull": True}}, "replies"),
        ({"answered": {"isNull": False}}, "questions"),
    ],
)
def test_every_operator_on_answered_keeps_replies_out_but_is_null(
    api_client, threads, condition, kind
):
    kinds = {**threads, "questions": threads["answered"] | threads["unanswered"], "none": set()}
    expected = kinds[kind]
    assert set(ids(api_client, condition=json.dumps(condition))) == expected


def test_answered_combines_with_the_other_conditions(api_client):
    product = ProductFactory()
    mine = CommentFactory(product=product)
    CommentFactory()  # another product's, unanswered too
    StaffReplyFactory(parent=CommentFactory(product=product))

    params = {"condition[answered]": "false", "condition[productId]": product.pk}
    assert ids(api_client, **params) == [mine.pk]


@pytest.mark.parametrize(
    "params",
    [
        {"condition[answered]": "maybe"},
        {"condition[answered]": "2"},
        {"condition[answered][contains]": "true"},
        {"condition[answered][in]": "[true, {}]"},
        {"condition[answered][between]": "true"},
    ],
)
def test_a_bad_answered_condition_is_422_naming_it(api_client, params):
    data = assert_error(api_client.get(URL, params), 422, "VALIDATION_ERROR")
    assert "condition.answered" in data["errors"], data


def test_a_random_store_s_unanswered_questions_equal_an_independent_count(api_client):
    """120 questions with random replies, each public or not: the list equals the questions
    computed here from the rows, without the service's query."""
    rng = random.Random(34)
    product = ProductFactory()
    for _ in range(120):
        question = CommentFactory(product=product, active=rng.random() > 0.2)
        for _reply in range(rng.randint(0, 3)):
            factory = StaffReplyFactory if rng.random() < 0.5 else ReplyFactory
            factory(parent=question, active=rng.random() > 0.3)
    expected = {
        question.pk
        for question in Comment.objects.filter(parent=None, active=True)
        if not any(r.reply_by_user and r.active for r in Comment.objects.filter(parent=question))
    }

    response = api_client.get(URL, {"condition[answered]": "false", "limit": 100, "offset": 0})
    found = [r["id"] for r in response.json()["registers"]]
    response = api_client.get(URL, {"condition[answered]": "false", "limit": 100, "offset": 100})
    found += [r["id"] for r in response.json()["registers"]]

    assert len(found) == len(set(found)) and set(found) == expected


def test_the_answered_list_costs_the_same_queries_for_1_and_100_questions(
    api_client, django_assert_max_num_queries
):
    product = ProductFactory()
    questions = Comment.objects.bulk_create(
        Comment(product=product, customer_name="Ana", message=f"Q {n}", active=True)
        for n in range(150)
    )
    Comment.objects.bulk_create(
        Comment(
            product=product,
            parent=q,
            user_name="Loja",
            message="A",
            reply_by_user=True,
            active=True,
        )
        for q in questions[:30]
    )

    def count(limit: int) -> int:
        cold_caches()
        with CaptureQueriesContext(connection) as queries:
            response = api_client.get(URL, {"condition[answered]": "false", "limit": limit})
            assert len(response.json()["registers"]) == limit
        return len(queries)

    with django_assert_max_num_queries(9):
        one = count(1)
    assert count(100) == one


# --- The staff's answers first among a question's replies -----------------------------------


def test_a_question_s_replies_list_the_staff_answer_first(api_client):
    question = CommentFactory()
    early = aged(ReplyFactory(parent=question, message="I think so"), hours=5)
    answer = aged(StaffReplyFactory(parent=question, message="Yes, it is."), hours=4)
    late = aged(ReplyFactory(parent=question, message="Thanks!"), hours=1)

    for params in (
        {"condition[parentCommentId]": question.pk},
        {"condition": json.dumps({"parentCommentId": {"in": [question.pk]}})},
        {"condition[parentCommentId][isNull]": "false"},
    ):
        assert ids(api_client, **params) == [answer.pk, late.pk, early.pk], params
    # an order given decides
    assert ids(api_client, **{"condition[parentCommentId]": question.pk, "order": "createdAt"}) == [
        early.pk,
        answer.pk,
        late.pk,
    ]


def test_a_list_not_only_of_replies_stays_newest_first_with_the_contract_s_registers(
    api_client,
):
    question = aged(CommentFactory(), hours=6)
    answer = aged(StaffReplyFactory(parent=question), hours=5)
    reply = aged(ReplyFactory(parent=question), hours=1)
    newer = CommentFactory()

    response = api_client.get(URL)
    registers = response.json()["registers"]

    assert [r["id"] for r in registers] == [newer.pk, reply.pk, answer.pk, question.pk]
    assert all(list(r) == list(registers[0]) and set(r) == COMMENT_KEYS for r in registers)
    assert ids(api_client, **{"condition[parentCommentId][ne]": question.pk}) == [
        newer.pk,
        question.pk,
    ]


# --- Similar questions -----------------------------------------------------------------------


@pytest.fixture
def product():
    return ProductFactory(name="Tênis de corrida")


def answered(product, message, answer="Sim.", **ago) -> Comment:
    question = CommentFactory(product=product, message=message)
    if ago:
        aged(question, **ago)
    StaffReplyFactory(parent=question, message=answer)
    return question


def test_similar_questions_match_accents_plurals_and_a_typo(api_client, product):
    sizes = answered(product, "Qual é a numeração das solas? Serve em pés largos?")
    delivery = answered(product, "Quanto tempo demora a entrega para Manaus?")
    answered(product, "Tem na cor azul?")

    assert similar_ids(api_client, product, "pes largos")[0] == sizes.pk
    assert similar_ids(api_client, product, "PÉS LARGO")[0] == sizes.pk  # accents, plural
    assert similar_ids(api_client, product, "numeracoes da sola")[0] == sizes.pk
    assert similar_ids(api_client, product, "entraga em manaus")[0] == delivery.pk  # typo
    assert similar_ids(api_client, product, "garantia do fabricante") == []


def test_similar_questions_are_answered_public_questions_of_that_product_only(api_client, product):
    text = "A garantia cobre o solado?"
    shown = answered(product, text)
    CommentFactory(product=product, message=text)  # not answered
    ReplyFactory(parent=CommentFactory(product=product, message=text))  # a customer replied
    StaffReplyFactory(parent=CommentFactory(product=product, message=text), active=False)
    hidden = answered(product, text)
    comments_set_active(comments=Comment.objects.filter(pk=hidden.pk), active=False)
    answered(ProductFactory(), text)  # another product's

    assert similar_ids(api_client, product, "garantia solado") == [
        shown.pk,
        Comment.objects.get(parent=shown).pk,
    ]


def test_at_most_three_the_most_alike_first_each_followed_by_its_latest_staff_answer(
    api_client, product
):
    best = answered(product, "O tênis serve para corrida na esteira?", days=3)
    two_words_old = answered(product, "Serve para esteira?", days=9)
    two_words_new = answered(product, "Serve na esteira elétrica?", days=1)
    answered(product, "Serve para esteira de academia?", days=20)  # 4th of the two-word ones
    answered(product, "Corrida de rua?", days=2)  # one word of three: not enough
    first_answer = Comment.objects.get(parent=best)
    aged(first_answer, days=2)
    latest = StaffReplyFactory(parent=best, message="Corrigindo: serve sim.")
    ReplyFactory(parent=best, message="Uso na esteira e serve.")  # a customer's

    response = similar(api_client, product, "serve corrida esteira")
    body = response.json()

    assert set(body) == {"registers"}  # bare, as the comment list
    registers = body["registers"]
    questions = [r["id"] for r in registers if r["parentCommentId"] is None]
    assert questions == [best.pk, two_words_new.pk, two_words_old.pk]
    assert registers[1]["id"] == latest.pk
    assert registers[1]["parentCommentId"] == best.pk and registers[1]["replyByUser"] is True
    assert len(registers) == 6
    assert all(set(r) == COMMENT_KEYS for r in registers)
    assert registers[0]["totalReplies"] == 3
    assert registers[0]["product"]["id"] == product.pk


def test_similar_is_served_under_api_v3_and_with_a_trailing_slash_and_head(api_client, product):
    question = answered(product, "Tem garantia?")
    for path in (
        f"/api/v3/publics/products/{product.pk}/comments/similar?q=garantia",
        f"/publics/products/{product.pk}/comments/similar/?q=garantia",
    ):
        response = api_client.get(path)
        assert response.status_code == 200, path
        assert response.json()["registers"][0]["id"] == question.pk
    head = api_client.head(f"/publics/products/{product.pk}/comments/similar?q=garantia")
    assert head.status_code == 200 and head["ETag"]


@pytest.mark.parametrize(
    "raw", ["999999", "0", "-1", "abc", "1.5", "9" * 30, "%20", "1e3", "\uff10\uff11"]
)
def test_similar_for_an_id_naming_no_product_is_404_as_the_product_page(api_client, raw):
    response = api_client.get(f"/publics/products/{raw}/comments/similar", {"q": "garantia"})
    data = assert_error(response, 404, NOT_FOUND)
    assert data["message"] == "Product was not found."


@pytest.mark.parametrize("change", [{"active": False}, {"show_in_site": False}])
def test_similar_for_an_inactive_or_hidden_product_is_404(api_client, product, change):
    answered(product, "Tem garantia?")
    assert similar(api_client, product, "garantia").status_code == 200
    Product.objects.filter(pk=product.pk).update(**change)
    Product.objects.get(pk=product.pk).save()  # as the admin saves (signals)
    assert_error(similar(api_client, product, "garantia"), 404, NOT_FOUND)
    # the product is checked before q
    assert_error(similar(api_client, product, ""), 404, NOT_FOUND)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({}, "The q field is required."),
        ({"q": ""}, "The q field must have 1 to 100 characters."),
        ({"q": "a" * 101}, "The q field must have 1 to 100 characters."),
        ({"q": "?!... ---"}, "The q field must contain a letter or a digit."),
        ({"q": "serve\x07"}, None),
        ({"q": ["um", "dois"]}, "The q field must be given once."),
    ],
)
def test_similar_with_a_bad_q_is_422_like_the_lists(api_client, product, params, message):
    response = api_client.get(f"/publics/products/{product.pk}/comments/similar", params)
    body = assert_error_envelope(response, 422, "VALIDATION_ERROR")
    assert list(body["data"]["errors"]) == ["q"]
    if message:
        assert body["data"]["errors"]["q"] == [message]


def test_similar_answers_are_kept_and_a_new_staff_answer_shows_in_the_next_one(api_client, product):
    question = CommentFactory(product=product, message="Vem com cadarço extra?")
    assert similar_ids(api_client, product, "cadarço extra") == []
    kept = similar(api_client, product, "cadarço extra")
    assert kept["X-Cache"] == "hit"

    answer = StaffReplyFactory(parent=question, message="Vem, sim.")

    fresh = similar(api_client, product, "cadarço extra")
    assert fresh["X-Cache"] == "miss"
    assert [r["id"] for r in fresh.json()["registers"]] == [question.pk, answer.pk]
    assert similar(api_client, product, "cadarco extra")["X-Cache"] == "miss"  # another URL


def test_similar_costs_the_same_queries_for_one_and_three_matches(
    api_client, django_assert_max_num_queries, media_root
):
    one, three = ProductFactory(), ProductFactory()
    for product in (one, three):
        ProductMediaFactory(product=product)
        StockFactory(product=product)
    answered(one, "A sola é de borracha?")
    for n in range(40):
        answered(three, f"A sola é de borracha número {n}?", answer=f"Sim {n}.")

    def count(product) -> int:
        cold_caches()
        with CaptureQueriesContext(connection) as queries:
            response = similar(api_client, product, "sola de borracha")
            assert response.status_code == 200
        return len(queries), len(response.json()["registers"])

    with django_assert_max_num_queries(10):
        queries_one, registers_one = count(one)
    queries_three, registers_three = count(three)
    assert (registers_one, registers_three) == (2, 6)
    assert queries_three == queries_one
