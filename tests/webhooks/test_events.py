"""Every event is emitted where it happens, with the resource in its public API shape."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from feedback.models import ProductReview
from feedback.services import comment_reply_by_staff, reviews_set_active
from tests.catalog.factories import ProductFactory, ProductInterestFactory, StockFactory
from tests.feedback.factories import CommentFactory, ProductReviewFactory
from tests.jobs.support import run_jobs
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db


def payloads(event_type: str) -> list[dict]:
    return [d.payload for d in Delivery.objects.filter(event_type=event_type).order_by("id")]


def test_interest_created_carries_the_interest_as_the_api_answers_it(api_client, endpoint):
    product = ProductFactory()

    response = api_client.post(
        "/publics/products/interests",
        {"productId": product.pk, "origin": "notify-me", "name": "Ana", "email": "a@example.com"},
        format="json",
    )
    again = api_client.post(
        "/publics/products/interests",
        {"productId": product.pk, "origin": "notify-me", "name": "Ana", "email": "a@example.com"},
        format="json",
    )

    assert (response.status_code, again.status_code) == (201, 200)
    (payload,) = payloads("interest.created")  # the repeated registration is not an event
    assert payload["type"] == "interest.created"
    assert payload["data"]["id"] == response.json()["id"]
    assert set(payload["data"]) == set(response.json())


def test_comment_replied_carries_the_staff_reply(endpoint):
    comment = CommentFactory()
    staff = get_user_model().objects.create_user("ana", "ana@store.example", "x")

    result = comment_reply_by_staff(comment=comment, user=staff, message="Yes, it does.")

    (payload,) = payloads("comment.replied")
    assert payload["data"]["id"] == result.reply.pk
    assert payload["data"]["parentCommentId"] == comment.pk
    assert payload["data"]["replyByUser"] is True
    assert payload["data"]["message"] == "Yes, it does."


def test_review_created_and_approved(endpoint):
    review = ProductReviewFactory(active=False)

    reviews_set_active(reviews=ProductReview.objects.all(), active=True)
    reviews_set_active(reviews=ProductReview.objects.all(), active=True)  # no change: no event

    (created,) = payloads("review.created")
    (approved,) = payloads("review.approved")
    assert created["data"]["id"] == approved["data"]["id"] == review.pk
    assert (created["data"]["active"], approved["data"]["active"]) == (False, True)
    assert (
        approved["data"]["email"].startswith(review.email[0]) and "***" in approved["data"]["email"]
    )
    assert approved["data"]["product"]["productId"] == review.product_id


def test_ticking_active_on_the_review_change_form_emits_the_approval(endpoint, admin_client):
    review = ProductReviewFactory(active=False)
    url = f"/admin/feedback/productreview/{review.pk}/change/"
    page = admin_client.get(url).context
    data = {k: v for k, v in page["adminform"].form.initial.items() if v is not None}
    for inline in page["inline_admin_formsets"]:  # each inline's management form, as sent
        management = inline.formset.management_form
        data.update({management.add_prefix(k): v for k, v in management.initial.items()})
    data.update({"product": review.product_id, "active": "on"})

    response = admin_client.post(url, data)
    admin_client.post(url, data)  # saved again, already active: no second approval

    assert response.status_code == 302, response.context and response.context["adminform"].errors
    (approved,) = payloads("review.approved")
    assert approved["data"]["id"] == review.pk
    assert approved["data"]["active"] is True


def test_product_back_in_stock_once_per_product_when_notifications_are_queued(endpoint):
    product = ProductFactory(name="Blue shirt")
    StockFactory(product=product, available=2)
    ProductInterestFactory.create_batch(3, product=product)

    call_command("send_stock_notifications", stdout=StringIO())  # queues the first wave
    assert payloads("product.back_in_stock") == []
    run_jobs()  # the wave (and its e-mails)
    call_command("send_stock_notifications", stdout=StringIO())
    run_jobs()

    (payload,) = payloads("product.back_in_stock")
    assert payload["data"]["id"] == product.pk
    assert payload["data"]["name"] == "Blue shirt"
