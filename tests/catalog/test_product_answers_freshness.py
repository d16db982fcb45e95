"""Every change that shows in a product is in the next answer of every endpoint that shows
it, with the caches on (rendered answers and product fragments), and scheduled changes are
exact at their boundary (issue: product read model and cached fragments)."""

import re
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import Brand, Category, PriceRule, Product, ProductPrice, Stock
from feedback.services import reviews_set_active
from tests.catalog.factories import (
    PriceRuleFactory,
    ProductFactory,
    ProductMediaFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
)
from tests.feedback.factories import CommentFactory, ProductReviewFactory
from tests.marketing.factories import UpsellFactory
from tests.shipping.factories import ShippingRowFactory, ShippingTableFactory

pytestmark = [pytest.mark.django_db, pytest.mark.cache]

STORE_TZ = ZoneInfo("America/Sao_Paulo")


@pytest.fixture
def shop(media_root):
    """A product shown by all four product-bearing reads: a review, a comment, an upsell
    offer in the cart location, and a shipping table that quotes it to Rio."""
    product = ProductFactory(name="Caneca")
    ProductPriceFactory(product=product, sale_price=Decimal("50.00"), comparison_price=0)
    storage = StorageFactory()
    StockFactory(product=product, storage=storage, available=7)
    ShippingRowFactory(table=ShippingTableFactory(storages=[storage]))
    ProductReviewFactory(product=product, active=True)
    CommentFactory(product=product, active=True)
    cart_product = ProductFactory()
    UpsellFactory(product=product, price_rule=PriceRuleFactory(trigger="upsell", value=0))
    return {"product": product, "cart": cart_product}


def answers(api_client, shop) -> dict:
    """The product as each endpoint shows it: {endpoint: product JSON}."""
    product, cart = shop["product"], shop["cart"]
    reviews = api_client.get("/review/product", {"condition[productId]": product.pk})
    comments = api_client.get("/publics/products/comments", {"condition[productId]": product.pk})
    upsell = api_client.get(f"/cart/upsell/cart?variationMap[{cart.pk}]=")
    quote = api_client.get(
        "/publics/products/quote",
        {
            "targetCountryCode": "BRA",
            "targetZipCode": "20040-002",
            "items[0][productId]": product.pk,
            "items[0][quantity]": 1,
        },
    )
    for response in (reviews, comments, upsell, quote):
        assert response.status_code == 200, response.content
    item = quote.json()["quoteGroups"][0]["items"][0]
    return {
        "reviews": reviews.json()["data"]["registers"][0]["product"],
        "comments": comments.json()["registers"][0]["product"],
        "upsell": upsell.json()["upsellProduct"],
        "quote": item["product"],
        "quote item": item,
    }


def change_name(product):
    fresh = Product.objects.get(pk=product.pk)
    fresh.name = "Caneca azul"
    fresh.save()


def change_price(product):
    price = ProductPrice.objects.get(product=product)
    price.sale_price = Decimal("40.00")
    price.comparison_price = Decimal("45.00")
    price.save()


def change_stock(product):
    stock = Stock.objects.get(product=product)
    stock.available = 3
    stock.save()


def add_media(product):
    ProductMediaFactory(product=product, title="Nova foto")


def rename_category(product):
    category = Category.objects.get(pk=product.main_category_id)
    category.name = "Cozinha"
    category.save()


def rename_brand(product):
    brand = Brand.objects.get(pk=product.brand_id)
    brand.name = "Marca Nova"
    brand.save()


def add_price_rule(product):
    PriceRuleFactory(value=Decimal("20"), products=[product], rule_target="product")


def change_offer_rule(product):
    rule = PriceRule.objects.get(upsell_offers__product=product)
    rule.value = Decimal("20")
    rule.save()


# (change, what each endpoint must show afterwards)
CHANGES = {
    "name": (
        change_name,
        {
            "reviews": lambda p: p["name"] == "Caneca azul",
            "comments": lambda p: p["name"] == "Caneca azul",
            "upsell": lambda p: p["name"] == "Caneca azul",
            "quote": lambda p: p["name"] == "Caneca azul",
        },
    ),
    "price": (
        change_price,
        {
            "reviews": lambda p: p["comparisonPrice"] == 45.0,
            "comments": lambda p: p["comparisonPrice"] == 45.0,
            "upsell": lambda p: p["price"]["salePrice"] == 40.0,
            "quote item": lambda item: item["value"] == 40.0,
        },
    ),
    "stock": (
        change_stock,
        {
            "reviews": lambda p: p["stock"] == 3,
            "comments": lambda p: p["stock"] == 3,
            "upsell": lambda p: p["stock"]["availableStock"] == 3,
            "quote": lambda p: p["stock"] == 3,
        },
    ),
    "media": (
        add_media,
        {
            "reviews": lambda p: [m["title"] for m in p["medias"]] == ["Nova foto"],
            "comments": lambda p: [m["title"] for m in p["medias"]] == ["Nova foto"],
            "upsell": lambda p: [m["title"] for m in p["medias"]] == ["Nova foto"],
            "quote": lambda p: [m["title"] for m in p["medias"]] == ["Nova foto"],
        },
    ),
    "category": (
        rename_category,
        {
            "reviews": lambda p: p["mainCategoryName"] == "Cozinha",
            "comments": lambda p: p["mainCategoryName"] == "Cozinha",
            "upsell": lambda p: p["mainCategory"]["name"] == "Cozinha",
            "quote item": lambda item: item["category"]["name"] == "Cozinha",
        },
    ),
    "brand": (
        rename_brand,
        {
            "reviews": lambda p: p["brandName"] == "Marca Nova",
            "comments": lambda p: p["brandName"] == "Marca Nova",
            "upsell": lambda p: p["brand"]["name"] == "Marca Nova",
            "quote": lambda p: p["brandName"] == "Marca Nova",
        },
    ),
    "price rule": (
        add_price_rule,
        {"quote item": lambda item: item["value"] == 40.0},
    ),
    # the offer's own rule prices the upsell product (it wins over automatic rules)
    "offer rule": (
        change_offer_rule,
        {"upsell": lambda p: p["price"]["salePrice"] == 40.0},
    ),
}


@pytest.mark.parametrize("kind", list(CHANGES))
def test_a_change_is_in_the_next_answer_of_every_endpoint_showing_it(api_client, shop, kind):
    change, expected = CHANGES[kind]
    # given every answer is cached (asked twice: the second comes from the caches)
    before = answers(api_client, shop)
    assert answers(api_client, shop) == before
    for endpoint, holds in expected.items():
        assert not holds(before[endpoint]), f"{endpoint} shows the change already"

    # when staff make the change
    change(shop["product"])

    # then the very next answer of each endpoint shows it
    after = answers(api_client, shop)
    for endpoint, holds in expected.items():
        assert holds(after[endpoint]), f"{endpoint} does not show the {kind} change"


def test_approving_a_review_shows_it_in_the_next_list(api_client, shop):
    hidden = ProductReviewFactory(product=shop["product"], active=False, comment="Ótima")
    url = f"/review/product?condition[productId]={shop['product'].pk}"
    assert api_client.get(url).json()["data"]["pagination"]["registers"] == 1

    reviews_set_active(reviews=type(hidden).objects.filter(pk=hidden.pk), active=True)

    assert api_client.get(url).json()["data"]["pagination"]["registers"] == 2


def test_a_scheduled_price_rule_is_exact_at_its_start_and_end(api_client, shop):
    start = datetime(2026, 12, 1, 10, 0, tzinfo=STORE_TZ)
    end = start + timedelta(hours=2)
    with time_machine.travel(start - timedelta(minutes=5), tick=False) as clock:
        # an automatic rule (the quote) and the offer's rule (the upsell), both scheduled
        PriceRuleFactory(
            value=Decimal("20"),
            products=[shop["product"]],
            rule_target="product",
            start_at=start,
            end_at=end,
        )
        offer_rule = PriceRule.objects.get(upsell_offers__product=shop["product"])
        offer_rule.value, offer_rule.start_at, offer_rule.end_at = Decimal("20"), start, end
        offer_rule.save()
        assert answers(api_client, shop)["quote item"]["value"] == 50.0
        assert answers(api_client, shop)["upsell"]["price"]["salePrice"] == 50.0

        clock.move_to(start - timedelta(seconds=1))
        assert answers(api_client, shop)["quote item"]["value"] == 50.0

        clock.move_to(start)
        assert answers(api_client, shop)["quote item"]["value"] == 40.0
        assert answers(api_client, shop)["upsell"]["price"]["salePrice"] == 40.0

        clock.move_to(end - timedelta(seconds=1))
        assert answers(api_client, shop)["upsell"]["price"]["salePrice"] == 40.0

        clock.move_to(end)
        assert answers(api_client, shop)["quote item"]["value"] == 50.0
        assert answers(api_client, shop)["upsell"]["price"]["salePrice"] == 50.0


def test_a_scheduled_offer_is_exact_at_its_start(api_client, shop):
    start = datetime(2026, 12, 1, 10, 0, tzinfo=STORE_TZ)
    product = ProductFactory(name="Oferta agendada")
    ProductPriceFactory(product=product)
    with time_machine.travel(start - timedelta(minutes=5), tick=False) as clock:
        UpsellFactory(
            product=product,
            priority=10,
            start_at=start,
            price_rule=PriceRuleFactory(trigger="upsell", value=0),
        )
        url = f"/cart/upsell/cart?variationMap[{shop['cart'].pk}]="
        assert api_client.get(url).json()["upsellProduct"]["name"] == "Caneca"
        clock.move_to(start - timedelta(seconds=1))
        assert api_client.get(url).json()["upsellProduct"]["name"] == "Caneca"
        clock.move_to(start)
        assert api_client.get(url).json()["upsellProduct"]["name"] == "Oferta agendada"


def test_each_quote_answer_has_new_quote_ids(api_client, shop):
    ids = set()
    for _ in range(3):
        response = api_client.get(
            "/publics/products/quote",
            {
                "targetCountryCode": "BRA",
                "targetZipCode": "20040-002",
                "items[0][productId]": shop["product"].pk,
                "items[0][quantity]": 1,
            },
        )
        (group,) = response.json()["quoteGroups"]
        assert len(group["quoteId"]) == 36
        ids.add(group["quoteId"])
        assert "ETag" not in response
    assert len(ids) == 3


def test_a_deleted_price_rule_leaves_every_answer(api_client, shop):
    add_price_rule(shop["product"])
    assert answers(api_client, shop)["quote item"]["value"] == 40.0
    PriceRule.objects.filter(rule_target="product").delete()
    assert answers(api_client, shop)["quote item"]["value"] == 50.0


def test_a_stock_change_of_one_product_keeps_the_answers_of_the_others(api_client, shop):
    # given a second product, reviewed, and the reviews and quote of the first, cached
    other = ProductFactory(name="Prato")
    other_stock = StockFactory(product=other, storage=StorageFactory(), available=4)
    ProductReviewFactory(product=other, active=True)
    answers(api_client, shop)
    product = shop["product"]
    reviews = {"condition[productId]": product.pk}
    assert api_client.get("/review/product", reviews)["X-Cache"] == "hit"

    # when the other product's stock moves (an order, an ERP feed)
    other_stock.available = 2
    other_stock.save()

    # then the first product's answers are still served from the cache, unchanged
    again = api_client.get("/review/product", reviews)
    assert again["X-Cache"] == "hit"
    assert (
        api_client.get("/publics/products/comments", {"condition[productId]": product.pk})[
            "X-Cache"
        ]
        == "hit"
    )
    # and the other product's own answers show its new stock at once
    moved = api_client.get("/review/product", {"condition[productId]": other.pk})
    assert moved.json()["data"]["registers"][0]["product"]["stock"] == 2

    # and a stock change of the first product reaches its answers at once, reading the
    # reviews and the product's stock again, not the rest of its summary
    change_stock(product)
    with CaptureQueriesContext(connection) as queries:
        fresh = api_client.get("/review/product", reviews)
    assert fresh["X-Cache"] == "miss"
    assert fresh.json()["data"]["registers"][0]["product"]["stock"] == 3
    tables = [re.findall(r'FROM "(\w+)"', query["sql"])[0] for query in queries]
    assert tables.count("catalog_stock") == 1
    assert not {"catalog_product", "catalog_productmedia", "catalog_productprice"} & set(tables)


def test_an_answer_another_process_rendered_is_served_with_one_versions_read(
    api_client, shop, monkeypatch
):
    # given the product's reviews rendered and stored in the shared cache by another
    # process (this one keeps nothing of it)
    from apikit import caching
    from infra.caching import versions as infra_versions

    reviews = {"condition[productId]": shop["product"].pk}
    assert api_client.get("/review/product", reviews)["X-Cache"] == "miss"
    caching.RECENT_ANSWERS.clear()
    reads = []
    store = infra_versions._store()
    read = store.read
    monkeypatch.setattr(store, "read", lambda names: reads.append(names) or read(names))

    # when it is asked here, twice
    first = api_client.get("/review/product", reviews)
    second = api_client.get("/review/product", reviews)

    # then both are hits, each reading every version the answer depends on (its view's
    # namespaces and the product it shows) in one call
    assert (first["X-Cache"], second["X-Cache"]) == ("hit", "hit")
    pk = shop["product"].pk
    versions = ("feedback", "products", f"product:{pk}", f"stock:{pk}")
    assert reads == [versions, versions]
