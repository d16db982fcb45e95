"""demo/feedback.py: the demo reviews and comments (idempotent, deterministic)."""

import importlib
import io
import time

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db.models import Count

from catalog.models import ProductReviewSummary
from demo import feedback as demo
from feedback.models import Comment, ProductReview, ReviewMedia, SalesChannelReview
from storefront.models import Customer
from tests.catalog.factories import BrandFactory, CategoryFactory, ProductFactory
from tests.feedback.factories import CommentFactory, ReplyFactory
from tests.storefront.factories import SalesChannelFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_store(media_root):
    get_user_model().objects.create_superuser("admin", "admin@store.example", "x")
    SalesChannelFactory(domain="127.0.0.1")
    brand, category = BrandFactory(), CategoryFactory()
    ProductFactory.create_batch(130, brand=brand, main_category=category)


def snapshot() -> dict:
    return {
        "customers": Customer.objects.count(),
        "reviews": ProductReview.objects.count(),
        "photos": ReviewMedia.objects.count(),
        "store reviews": SalesChannelReview.objects.count(),
        "comments": Comment.objects.count(),
    }


def test_the_demo_adds_customers_reviews_and_comments(demo_store):
    out = io.StringIO()
    started = time.monotonic()

    demo.seed(stdout=out)

    assert time.monotonic() - started < 20
    assert Customer.objects.count() == 40
    reviews = ProductReview.objects.all()
    assert reviews.count() == demo.DATA["product_reviews"] + len(demo.DATA["pending_reviews"])
    pending_texts = {text for _, _, text in demo.DATA["pending_reviews"]}
    pending = reviews.filter(comment__in=pending_texts)
    assert pending.count() == len(demo.DATA["pending_reviews"])
    assert not pending.filter(active=True).exists()  # waiting for moderation
    assert reviews.filter(masked=True).exists() and reviews.filter(active=False).exists()
    assert reviews.filter(active=True).count() > 300
    assert ReviewMedia.objects.count() == demo.DATA["review_photos"]
    assert SalesChannelReview.objects.count() == 40
    assert SalesChannelReview.objects.filter(sales_channel__domain="127.0.0.1").count() == 25
    comments = Comment.objects.all()
    assert comments.filter(parent__isnull=True).count() >= demo.DATA["commented_products"]
    assert comments.filter(reply_by_user=True, active=True).exists()
    assert comments.filter(parent__isnull=False, reply_by_user=False).exists()
    assert comments.filter(active=False).exists()  # pending moderation
    assert "created 400 product reviews" in out.getvalue()
    # Dates are spread, so "newest first" means something.
    assert reviews.dates("created_at", "month").count() > 3


def test_running_the_demo_again_changes_nothing(demo_store):
    demo.seed(stdout=io.StringIO())
    first = snapshot()
    review = ProductReview.objects.order_by("id").first()
    review.comment = "Edited by staff"
    review.active = False
    review.save()

    demo.seed(stdout=io.StringIO())

    assert snapshot() == first
    review.refresh_from_db()
    assert (review.comment, review.active) == ("Edited by staff", False)


def test_the_demo_is_deterministic(demo_store):
    demo.seed(stdout=io.StringIO())
    first = list(
        ProductReview.objects.order_by("product_id", "customer__email").values_list(
            "product_id", "customer__email", "score", "masked", "active"
        )
    )
    ProductReview.objects.all().delete()

    demo.seed(stdout=io.StringIO())

    again = list(
        ProductReview.objects.order_by("product_id", "customer__email").values_list(
            "product_id", "customer__email", "score", "masked", "active"
        )
    )
    assert again == first


def test_without_products_the_demo_still_adds_customers_and_store_reviews(media_root):
    out = io.StringIO()

    demo.seed(stdout=out)

    assert Customer.objects.count() == 40
    assert SalesChannelReview.objects.count() == 40
    assert not ProductReview.objects.exists()
    assert "skipped" in out.getvalue()


def test_the_demo_is_served_by_the_public_lists(demo_store, api_client):
    demo.seed(stdout=io.StringIO())

    reviews = api_client.get("/review/product").json()["data"]
    store = api_client.get("/review/sales-channel", HTTP_HOST="127.0.0.1").json()["data"]
    comments = api_client.get("/publics/products/comments").json()

    assert reviews["pagination"]["registers"] == ProductReview.objects.public().count()
    assert (
        store["pagination"]["registers"]
        == SalesChannelReview.objects.filter(sales_channel__domain="127.0.0.1", active=True).count()
    )
    assert comments["pagination"]["registers"] == Comment.objects.public().count()


def test_the_demo_review_summaries_match_the_approved_reviews(demo_store):
    demo.seed(stdout=io.StringIO())

    expected: dict[int, dict[int, int]] = {}
    for row in (
        ProductReview.objects.public()
        .order_by()
        .values("product_id", "score")
        .annotate(n=Count("id"))
    ):
        expected.setdefault(row["product_id"], {})[row["score"]] = row["n"]
    summaries = {s.product_id: s.counts for s in ProductReviewSummary.objects.all()}
    assert expected and set(summaries) == set(expected)
    for product_id, counts in expected.items():
        assert summaries[product_id] == {s: counts.get(s, 0) for s in (1, 2, 3, 4, 5)}


def test_the_demo_signs_staff_answers_as_a_reply_written_in_the_admin(demo_store, settings):
    settings.CUSTOMER_LANGUAGE_CODE = "pt-br"

    demo.seed(stdout=io.StringIO())

    replies = Comment.objects.filter(reply_by_user=True)
    assert replies.exists()
    assert set(replies.values_list("user_name", flat=True)) == {"Equipe da loja"}


def test_replies_signed_with_the_english_default_are_signed_in_portuguese(settings):
    """Migration feedback/0005: demo answers seeded before, and replies renamed by 0002."""
    migration = importlib.import_module(
        "feedback.migrations.0005_sign_past_replies_in_customer_language"
    )
    settings.CUSTOMER_LANGUAGE_CODE = "pt-br"
    question = CommentFactory(message="Serve no tamanho M?")
    english = ReplyFactory(parent=question, user_name="Store team", reply_by_user=True)
    named = ReplyFactory(parent=question, user_name="Ana (loja)", reply_by_user=True)
    customer = CommentFactory(user_name="Store team", reply_by_user=False)

    migration.sign_in_customer_language(apps, None)

    for comment in (english, named, customer):
        comment.refresh_from_db()
    assert english.user_name == "Equipe da loja"
    assert named.user_name == "Ana (loja)"
    assert customer.user_name == "Store team"  # a customer's own name is left alone
