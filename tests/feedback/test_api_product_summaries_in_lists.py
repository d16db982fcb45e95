"""The product summaries embedded in the review and comment lists (issue 12): a main
product's `stock` sums its active variations' units, the summary follows stock changes at
once, and a page of 100 reviews costs the same queries whatever the review scores, price
rules and trade policies of its products."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from storefront.models import Customer
from tests.catalog.factories import (
    PriceRuleFactory,
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
    TradePolicyFactory,
    VariationFactory,
)
from tests.feedback.factories import CommentFactory, ProductReviewFactory

pytestmark = pytest.mark.django_db

REVIEWS_URL = "/review/product"
COMMENTS_URL = "/publics/products/comments"


def registers(api_client, url, **params) -> list[dict]:
    response = api_client.get(url, params)
    assert response.status_code == 200, response.content
    body = response.json()
    return (body["data"] if url == REVIEWS_URL else body)["registers"]  # comments: bare


def family_with_units():
    """A main product with 2 units of its own, active variations holding 3 and 4 units
    (one in an inactive storage, not counted) and an inactive variation holding 50."""
    main = ProductFactory()
    storage = StorageFactory()
    StockFactory(product=main, storage=storage, available=2)
    red, blue = VariationFactory(parent=main), VariationFactory(parent=main)
    StockFactory(product=red, storage=storage, available=3)
    StockFactory(product=blue, storage=storage, available=4)
    StockFactory(product=blue, storage=StorageFactory(active=False), available=70)
    StockFactory(product=VariationFactory(parent=main, active=False), storage=storage, available=50)
    return main, red


def test_a_review_of_a_main_product_shows_its_variations_units_in_stock(api_client):
    main, red = family_with_units()
    ProductReviewFactory(product=main)
    ProductReviewFactory(product=red)

    stocks = {r["productId"]: r["product"]["stock"] for r in registers(api_client, REVIEWS_URL)}

    assert stocks == {main.pk: 2 + 3 + 4, red.pk: 3}  # a variation: its own units only


def test_a_comment_of_a_main_product_shows_its_variations_units_in_stock(api_client):
    main, _red = family_with_units()
    CommentFactory(product=main)

    (comment,) = registers(api_client, COMMENTS_URL)

    assert comment["product"]["stock"] == 9


def test_the_summary_stock_follows_a_variations_stock_at_once(api_client):
    main, red = family_with_units()
    ProductReviewFactory(product=main)
    assert registers(api_client, REVIEWS_URL)[0]["product"]["stock"] == 9  # cached now

    stock = red.stocks.get()
    stock.available = 13
    stock.save()

    assert registers(api_client, REVIEWS_URL)[0]["product"]["stock"] == 19


def test_a_page_of_100_reviews_costs_the_same_queries_whatever_scores_rules_and_policies(
    api_client,
):
    products = [ProductFactory() for _ in range(20)]
    customers = Customer.objects.bulk_create(
        Customer(name=f"Customer {n}", email=f"c{n}@example.com") for n in range(100)
    )
    for index, customer in enumerate(customers):
        ProductReviewFactory(product=products[index % 20], customer=customer, score=5)

    def count() -> int:
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert len(registers(api_client, REVIEWS_URL, limit=100)) == 100
        return len(queries)

    before = count()
    # then reviews of every score, a rule and a second trade policy for every product
    for index, customer in enumerate(customers):
        review = customer.productreviews.get()
        review.score = index % 5 + 1
        review.save()
    for product in products:
        PriceRuleFactory(rule_target="product", products=[product])
        ProductPriceFactory(product=product)
        ProductPriceFactory(product=product, trade_policy=TradePolicyFactory())

    assert count() == before


def test_a_summary_miss_renders_the_next_products_of_the_catalogue_too(api_client):
    # given three reviewed products whose summaries no process has rendered
    reviewed = [ProductReviewFactory(active=True).product for _ in range(3)]

    # when the first one's reviews are read
    first = api_client.get("/review/product", {"condition[productId]": reviewed[0].pk})
    assert first.status_code == 200

    # then the others' summaries were rendered in the same queries: their pages read only
    # the page and its count
    for product in reviewed[1:]:
        with CaptureQueriesContext(connection) as queries:
            response = api_client.get("/review/product", {"condition[productId]": product.pk})
        assert response.json()["data"]["registers"][0]["product"]["name"] == product.name
        assert not any("catalog_productmedia" in q["sql"] for q in queries.captured_queries)
