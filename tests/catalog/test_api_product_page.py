"""GET /publics/products/{productId}: the product page (issue 32, item 1)."""

from decimal import Decimal

import pytest

from catalog.api.serializers import FullProductSerializer
from catalog.models import Product
from tests.catalog.factories import (
    PriceRuleFactory,
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    VariationFactory,
)
from tests.feedback.factories import ProductReviewFactory
from tests.helpers import assert_error
from tests.marketing.factories import UpsellFactory

pytestmark = pytest.mark.django_db

NOT_FOUND = "SERVICE_STORE_PRODUCT_NOT_FOUND"


@pytest.fixture
def product():
    product = ProductFactory(name="Caneca", sku="CANECA-1")
    ProductPriceFactory(product=product, sale_price=Decimal("50.00"), comparison_price=0)
    StockFactory(product=product, available=3)
    return product


def test_the_page_is_the_full_product_as_the_upsell_renders_it(api_client, product):
    # given an upsell offering the product without a discount of its own
    UpsellFactory(product=product, price_rule=PriceRuleFactory(trigger="upsell", value=0))
    cart = ProductFactory()
    # when both are read
    page = api_client.get(f"/publics/products/{product.pk}")
    upsell = api_client.get(f"/cart/upsell/cart?variationMap[{cart.pk}]=")
    # then the page is the bare full product, every field as the upsell's
    assert page.status_code == 200, page.content
    body = page.json()
    assert list(body) == list(FullProductSerializer().fields)
    assert body["id"] == product.pk and body["name"] == "Caneca"
    assert body["price"]["salePrice"] == 50.0
    assert body["stock"]["availableStock"] == 3
    offered = upsell.json()["upsellProduct"]
    assert {k: v for k, v in body.items() if k != "price"} == {
        k: v for k, v in offered.items() if k != "price"
    }
    # (the offer's own 0% rule is named in the upsell's price only)
    assert offered["price"] == {
        **body["price"],
        "ruleId": offered["price"]["ruleId"],
        "ruleTrigger": "upsell",
        "ruleName": offered["price"]["ruleName"],
    }


def test_the_page_is_served_under_api_v3_and_with_a_trailing_slash(api_client, product):
    for path in (f"/api/v3/publics/products/{product.pk}", f"/publics/products/{product.pk}/"):
        response = api_client.get(path)
        assert response.status_code == 200, path
        assert response.json()["id"] == product.pk


def test_the_price_applies_the_live_automatic_rules(api_client, product):
    PriceRuleFactory(value=Decimal("10"), name="Dez")
    body = api_client.get(f"/publics/products/{product.pk}").json()
    assert body["price"]["salePrice"] == 45.0
    assert body["price"]["ruleName"] == "Dez"
    assert body["originalPrice"]["salePrice"] == 50.0


def test_review_shows_the_approved_reviews(api_client, product):
    ProductReviewFactory(product=product, score=4)
    ProductReviewFactory(product=product, score=5)
    ProductReviewFactory(product=product, score=1, active=False)
    review = api_client.get(f"/publics/products/{product.pk}").json()["review"]
    assert review["count"] == 2 and review["average"] == 4.5


def test_a_variation_has_its_page(api_client, product):
    variation = VariationFactory(parent=product, name="Caneca azul")
    body = api_client.get(f"/publics/products/{variation.pk}").json()
    assert body["id"] == variation.pk and body["parentProductId"] == product.pk


@pytest.mark.parametrize(
    "change",
    [
        {"active": False},
        {"show_in_site": False},
    ],
)
def test_an_inactive_or_hidden_product_is_not_found(api_client, product, change):
    assert api_client.get(f"/publics/products/{product.pk}").status_code == 200
    Product.objects.filter(pk=product.pk).update(**change)
    fresh = Product.objects.get(pk=product.pk)
    fresh.save()  # (the admin saves; update() alone sends no signal)
    data = assert_error(api_client.get(f"/publics/products/{product.pk}"), 404, NOT_FOUND)
    assert data["message"] == "Product was not found."


def test_a_variation_of_an_inactive_product_is_not_found(api_client, product):
    variation = VariationFactory(parent=product)
    product.active = False
    product.save()
    assert_error(api_client.get(f"/publics/products/{variation.pk}"), 404, NOT_FOUND)


@pytest.mark.parametrize(
    "raw",
    [
        "999999",
        "0",
        "-1",
        "abc",
        "1.5",
        "9" * 30,
        "99999999999999999999",
        "%20",
        "1e3",
        "\uff10\uff11",
    ],
)
def test_an_id_naming_no_product_is_not_found(api_client, product, raw):
    assert_error(api_client.get(f"/publics/products/{raw}"), 404, NOT_FOUND)


def test_the_other_products_paths_keep_their_views(api_client, product):
    # the page's `<productId>` comes after every fixed `publics/products/...` path
    assert api_client.get("/publics/products/comments").status_code == 200
    assert api_client.get("/publics/products/categories/tree").status_code == 200
    quote = api_client.get("/publics/products/quote")
    assert quote.status_code == 422
    assert "targetZipCode" in quote.json()["data"]["errors"]
    comment = api_client.post(f"/publics/products/{product.pk}/comments", {}, format="json")
    assert comment.status_code == 422


def test_fields_keeps_only_those_keys_in_the_products_order(api_client, product):
    body = api_client.get(f"/publics/products/{product.pk}?fields=price,id,name").json()
    assert list(body) == ["id", "name", "price"]
    also = api_client.get(f"/publics/products/{product.pk}?fields[]=id&fields[]=sku").json()
    assert also == {"id": product.pk, "sku": "CANECA-1"}


@pytest.mark.parametrize(
    "query", ["fields=id,nope", "fields[a][b]=1", 'fields={"a":1}', "fields=" + "x," * 200]
)
def test_bad_fields_are_a_validation_error(api_client, product, query):
    data = assert_error(
        api_client.get(f"/publics/products/{product.pk}?{query}"), 422, "VALIDATION_ERROR"
    )
    assert list(data["errors"]) == ["fields"]


def test_other_methods_are_refused(api_client, product):
    response = api_client.post(f"/publics/products/{product.pk}", {})
    assert_error(response, 405, "METHOD_NOT_ALLOWED")


def test_the_answer_has_an_etag_and_revalidates(api_client, product):
    first = api_client.get(f"/publics/products/{product.pk}")
    assert first["Cache-Control"] == "public, max-age=0"
    again = api_client.get(f"/publics/products/{product.pk}", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_a_kept_page_follows_changes_to_the_product(api_client, product):
    path = f"/publics/products/{product.pk}"
    assert api_client.get(path).json()["name"] == "Caneca"
    assert api_client.get(path)["X-Cache"] == "hit"
    product.name = "Caneca azul"
    product.save()
    assert api_client.get(path).json()["name"] == "Caneca azul"
    price = product.prices.get()
    price.sale_price = Decimal("40.00")
    price.save()
    assert api_client.get(path).json()["price"]["salePrice"] == 40.0
    stock = product.stocks.get()
    stock.available = 9
    stock.save()
    assert api_client.get(path).json()["stock"]["availableStock"] == 9
    product.active = False
    product.save()
    assert_error(api_client.get(path), 404, NOT_FOUND)


def test_a_kept_page_follows_its_banner_groups(api_client, product):
    from tests.marketing.factories import BannerGroupFactory

    path = f"/publics/products/{product.pk}"
    assert api_client.get(path).json()["bannerGroups"] == []
    group = BannerGroupFactory()
    group.products.add(product)
    assert [g["id"] for g in api_client.get(path).json()["bannerGroups"]] == [group.pk]


def test_a_warm_page_reads_nothing_from_the_database(
    api_client, product, django_assert_num_queries
):
    path = f"/publics/products/{product.pk}"
    api_client.get(path)
    api_client.get(f"{path}?fields=id")
    with django_assert_num_queries(0):
        assert api_client.get(f"{path}?fields=id").status_code == 200


def _queries(api_client, path: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.helpers import cold_caches

    cold_caches()
    with CaptureQueriesContext(connection) as queries:
        assert api_client.get(path).status_code == 200
    return len(queries)


def test_queries_do_not_grow_with_the_variations_and_values_a_page_shows(api_client, product):
    # given a product with one variation and one with twelve (values, stock and prices each)
    from tests.catalog.factories import AttributeValueFactory

    values = [AttributeValueFactory() for _ in range(4)]
    small = ProductFactory(name="Pequeno")
    large = ProductFactory(name="Grande")
    for main, count in ((small, 1), (large, 12)):
        ProductPriceFactory(product=main, sale_price=Decimal("10.00"))
        for n in range(count):
            variation = VariationFactory(parent=main, values=values[: 1 + n % 4])
            ProductPriceFactory(product=variation, sale_price=Decimal("10.00"))
            StockFactory(product=variation, available=n)
    api_client.get(f"/publics/products/{small.pk}")  # the store-wide data, once
    # then both pages cost the same queries
    assert _queries(api_client, f"/publics/products/{small.pk}") == _queries(
        api_client, f"/publics/products/{large.pk}"
    )


def test_queries_do_not_grow_with_the_related_and_indicated_products_a_page_shows(
    api_client, product
):
    # given a product relating one product and one relating and indicating twelve (and a
    # variation of the latter, which shows its main product's)
    from catalog.models import RelationKind
    from tests.catalog.merchandising_factories import ProductRelationFactory

    few, many = ProductFactory(name="Poucos"), ProductFactory(name="Muitos")
    variation = VariationFactory(parent=many)
    ProductRelationFactory(product=few, target=product)
    for position in range(12):
        for kind in RelationKind:
            target = ProductFactory()
            ProductPriceFactory(product=target, sale_price=Decimal("10.00"))
            ProductRelationFactory(product=many, target=target, kind=kind, position=position)
    api_client.get(f"/publics/products/{few.pk}")  # the store-wide data, once
    # then the three pages cost the same queries, and show what they relate
    counts = {_queries(api_client, f"/publics/products/{p.pk}") for p in (few, many, variation)}
    assert len(counts) == 1
    body = api_client.get(f"/publics/products/{variation.pk}").json()
    assert len(body["relatedProducts"]) == len(body["indicatedProducts"]) == 12
