"""The review summary counts verified reviews (issue 34, item 1): `verifiedReviews` beside the
product's `review`, on the product page and the listing, opt-in through `fields` (the
answers of clients not asking stay byte for byte what they were)."""

import pytest
from rest_framework.test import APIClient

from catalog.models import ProductReviewSummary
from tests.catalog.factories import ProductFactory
from tests.feedback.factories import ProductReviewFactory
from tests.feedback.test_api_trust import SECRET, deliver, order
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def orders_secret(settings):
    settings.ORDERS_WEBHOOK_SECRET = SECRET


def page(client, product, query=""):
    response = client.get(f"/publics/products/{product.pk}{query}")
    assert response.status_code == 200, response.content
    return response


def listed(client, product, query=""):
    response = client.get(f"/publics/products?condition[brandId]={product.brand_id}{query}")
    assert response.status_code == 200, response.content
    return response


def test_an_order_arriving_counts_its_buyer_s_review_and_only_clients_asking_see_it(
    django_capture_on_commit_callbacks,
):
    client = APIClient()
    product = ProductFactory()
    buyer, other = CustomerFactory(), CustomerFactory()
    ProductReviewFactory(product=product, customer=buyer, score=4)
    ProductReviewFactory(product=product, customer=other, score=2)
    ProductReviewFactory(product=product, verified_purchase=True, active=False)  # pending
    before = (page(client, product).content, listed(client, product).content)
    asked = "fields=id,review,verifiedReviews"
    assert page(client, product, f"?{asked}").json()["verifiedReviews"] == 0

    with django_capture_on_commit_callbacks(execute=True):
        response = deliver(client, order("V-1", customerId=buyer.pk, productIds=[product.pk]))
    assert response.json()["data"]["reviewsVerified"] == 1

    assert (page(client, product).content, listed(client, product).content) == before
    body = page(client, product, f"?{asked}").json()
    assert body == {
        "id": product.pk,
        "review": {
            "average": 3.0,
            "count": 2,
            "scores": [{"score": s, "count": int(s in (2, 4))} for s in range(1, 6)],
        },
        "verifiedReviews": 1,
    }
    [register] = listed(client, product, f"&{asked}").json()["data"]["registers"]
    assert register == body
    assert "verifiedReviews" not in page(client, product, "?fields=id,review").json()


def test_the_count_follows_approval_and_a_review_written_by_a_buyer():
    client = APIClient()
    product = ProductFactory()
    review = ProductReviewFactory(product=product, verified_purchase=True, active=False)
    asked = "?fields=verifiedReviews"
    assert page(client, product, asked).json() == {"verifiedReviews": 0}

    review.active = True
    review.save()  # as the admin approves
    assert page(client, product, asked).json() == {"verifiedReviews": 1}
    review.delete()
    assert page(client, product, asked).json() == {"verifiedReviews": 0}
    assert not ProductReviewSummary.objects.filter(product=product).exists()


def test_an_unknown_opt_in_name_is_still_refused():
    client = APIClient()
    product = ProductFactory()
    response = client.get(f"/publics/products/{product.pk}?fields=verifiedReview")
    assert response.status_code == 422
    assert "verifiedReviews" in response.json()["data"]["errors"]["fields"][0]


def test_a_cancelled_order_takes_its_review_out_of_the_count_in_the_next_answers(
    django_capture_on_commit_callbacks,
):
    client = APIClient()
    product, buyer = ProductFactory(), CustomerFactory()
    ProductReviewFactory(product=product, customer=buyer, active=True)
    asked = "fields=verifiedReviews"
    with django_capture_on_commit_callbacks(execute=True):
        deliver(client, order("V-9", customerId=buyer.pk, productIds=[product.pk]))
    assert page(client, product, f"?{asked}").json() == {"verifiedReviews": 1}
    assert listed(client, product, f"&{asked}").json()["data"]["registers"] == [
        {"verifiedReviews": 1}
    ]

    cancel = {"event": "order.refunded", "orderId": "V-9", "customerId": buyer.pk}
    with django_capture_on_commit_callbacks(execute=True):
        deliver(client, {**cancel, "productIds": [product.pk]})
    assert page(client, product, f"?{asked}").json() == {"verifiedReviews": 0}
    assert listed(client, product, f"&{asked}").json()["data"]["registers"] == [
        {"verifiedReviews": 0}
    ]
