"""Product summary / full product serializers fed by the selectors: shapes and query counts."""

import json
from decimal import Decimal

import pytest

from apikit.renderers import json_bytes
from catalog.api.fragments import _SummaryWithoutStock, product_summaries
from catalog.api.serializers import FullProductSerializer, ProductSummarySerializer
from catalog.models import ProductMedia
from catalog.selectors import (
    category_index,
    full_product_facts_get,
    price_context_get,
    product_full_get,
    product_full_queryset,
    product_get_active,
    products_for_summary,
    summary_products_get,
)
from infra.caching.kept import kept_clear
from tests.helpers import PRODUCT_MEDIA_KEYS, PRODUCT_SUMMARY_KEYS

from .factories import (
    AttributeFactory,
    AttributeValueFactory,
    CategoryFactory,
    ProductDescriptionFactory,
    ProductFactory,
    ProductMediaFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
    TradePolicyFactory,
    VariationFactory,
)

pytestmark = pytest.mark.django_db


def add_medias(product, count: int) -> None:
    """`count` image medias sharing one generated file (fast for large data sets)."""
    first = ProductMediaFactory(product=product)
    ProductMedia.objects.bulk_create(
        ProductMedia(
            product=product,
            title=f"Photo {index}",
            original_file=first.original_file.name,
            file=first.file.name,
            width=40,
            height=30,
            position=index + 1,
        )
        for index in range(count - 1)
    )


def make_variation_family(*, medias: int = 1, variations: int = 2):
    color = AttributeFactory(name="Color", code="color", position=0)
    size = AttributeFactory(name="Size", code="size", position=1)
    parent = ProductFactory()
    ProductPriceFactory(product=parent)
    storage = StorageFactory()
    children = []
    for index in range(variations):
        blue = AttributeValueFactory(attribute=color, order=index)
        small = AttributeValueFactory(attribute=size, color="")
        child = VariationFactory(parent=parent, values=[blue, small])
        StockFactory(product=child, storage=storage, available=index + 1)
        add_medias(child, medias)
        children.append(child)
    return parent, children


def test_summary_has_every_contract_field_with_its_json_type(media_root):
    # given a variation with price, stock in an active and an inactive storage, and a media
    _parent, (child, _) = make_variation_family()
    ProductPriceFactory(product=child, comparison_price=Decimal("150.00"))
    StockFactory(product=child, storage=StorageFactory(active=False), available=50)

    # when
    data = ProductSummarySerializer(products_for_summary().get(pk=child.pk)).data

    # then
    assert list(data) == list(PRODUCT_SUMMARY_KEYS)
    assert data["id"] == child.pk
    assert data["brandId"] == child.brand_id and data["brandName"] == child.brand.name
    assert data["mainCategoryId"] == child.main_category_id
    assert data["mainCategoryName"] == child.main_category.name
    assert data["type"] == "variation"
    assert data["url"] == f"/{child.slug}"
    assert data["comparisonPrice"] == Decimal("150.00")
    assert data["stock"] == 1  # the inactive storage's 50 units do not count
    assert isinstance(data["active"], bool)
    assert set(data["medias"][0]) == PRODUCT_MEDIA_KEYS
    assert data["medias"][0]["file"].startswith("http")
    assert data["medias"][0]["width"] == 40
    values = list(child.attribute_values.order_by("attribute__position"))
    assert data["combination"] == [value.pk for value in values]
    color = data["currentAttributes"][0]
    assert color == {
        "id": values[0].attribute_id,
        "name": "Color",
        "value": {
            "id": values[0].pk,
            "label": values[0].label,
            "image": None,
            "originalImage": None,
            "color": "#1A2B3C",
            "order": 0,
        },
    }


def test_summary_comparison_price_falls_back_to_sale_price_then_base_price():
    with_row = ProductFactory()
    ProductPriceFactory(
        product=with_row, comparison_price=Decimal("0"), sale_price=Decimal("80.00")
    )
    without_row = ProductFactory(base_price=Decimal("70.00"))

    rows = {p.pk: p for p in products_for_summary()}

    assert ProductSummarySerializer(rows[with_row.pk]).data["comparisonPrice"] == Decimal("80.00")
    assert ProductSummarySerializer(rows[without_row.pk]).data["comparisonPrice"] == Decimal(
        "70.00"
    )


def test_review_summary_names_the_id_product_id():
    product = ProductFactory()
    fragment = product_summaries([product.pk], base_url="http://testserver/", key="productId")
    data = json.loads(json_bytes(fragment[product.pk]))
    assert next(iter(data)) == "productId" and "id" not in data
    assert data["productId"] == product.pk


def test_summary_query_count_does_not_grow_with_products_or_medias(
    media_root, django_assert_num_queries
):
    # (products, brand and category joined; medias, stocks, default prices, attribute
    # values, active variations with their units summed)
    make_variation_family(medias=1, variations=1)
    with django_assert_num_queries(6):
        ProductSummarySerializer(products_for_summary(), many=True).data  # noqa: B018

    make_variation_family(medias=20, variations=50)
    with django_assert_num_queries(6):
        data = ProductSummarySerializer(products_for_summary(), many=True).data
    assert len(data) > 50


def test_summary_products_are_what_products_for_summary_loads(media_root):
    # given families with medias, attribute values, prices; a product without any; an
    # inactive one and a missing id
    make_variation_family(medias=3, variations=3)
    parent, _ = make_variation_family(medias=2, variations=2)
    ProductPriceFactory(product=parent, trade_policy=TradePolicyFactory(is_default=False))
    ProductFactory(brand=None, main_category=None, active=False)
    ids = [*ProductFactory._meta.model.objects.values_list("pk", flat=True), 10**9]

    # when
    loaded = {product.pk: product for product in summary_products_get(reversed(ids))}

    # then every summary reads the same rows, in the same order
    expected = {product.pk: product for product in products_for_summary()}
    assert set(loaded) == set(expected)
    for pk, product in loaded.items():
        orm = expected[pk]
        assert (product.brand, product.main_category) == (orm.brand, orm.main_category)
        assert list(product.medias.all()) == list(orm.medias.all())
        assert product.default_prices == orm.default_prices
        assert list(product.attribute_values.all()) == list(orm.attribute_values.all())
        assert [value.attribute for value in product.attribute_values.all()] == [
            value.attribute for value in orm.attribute_values.all()
        ]
        context = {"base_url": "http://testserver/"}
        assert json_bytes(_SummaryWithoutStock(product, context=context).data) == json_bytes(
            _SummaryWithoutStock(orm, context=context).data
        )


@pytest.mark.parametrize("size", [1, 7, 30, 120])
def test_a_batch_of_summaries_reads_as_many_queries_whatever_its_size(
    size, media_root, no_warming, django_assert_num_queries
):
    # given `size` products with medias, attribute values, prices and stocks
    parent, children = make_variation_family(medias=2, variations=max(size - 1, 0))
    ids = [parent.pk, *(child.pk for child in children)][:size]
    product_summaries(ids[:1], base_url="http://testserver/")  # (statements learnt)
    kept_clear()

    # then products (brand, category joined), medias, default prices, attribute values
    # (attributes joined) and the stocks: five queries
    with django_assert_num_queries(5):
        summaries = product_summaries(ids, base_url="http://testserver/")
    assert len(summaries) == size


def test_full_product_query_count_does_not_grow_with_medias_attributes_or_variations(
    media_root, django_assert_max_num_queries
):
    # given one family: a product and one variation with one media
    make_variation_family(medias=1, variations=1)
    price_context = price_context_get()

    def render() -> list[dict]:
        facts = [
            full_product_facts_get(product=p, context=price_context)
            for p in product_full_queryset()
        ]
        return FullProductSerializer(facts, many=True).data

    # (variation stock: 2; relations of the product and of a variation's parent, and the
    # cached seals: 3)
    with django_assert_max_num_queries(20) as small:
        render()

    # when a second family has 50 variations with 20 medias each (and the parent 20)
    big_parent, _ = make_variation_family(medias=20, variations=50)
    add_medias(big_parent, 20)
    category_index()  # new categories invalidated the cached tree: warm it again

    # then serializing all 53 products takes no more queries than the 2 before
    with django_assert_max_num_queries(len(small.captured_queries)):
        data = render()
    assert len(data) == 2 + 51
    assert max(len(row["medias"]) for row in data) == 20


def test_full_product_has_every_contract_field(media_root):
    policy = TradePolicyFactory()
    category_root = CategoryFactory(name="Moda", slug="moda")
    category = CategoryFactory(name="Camisetas", slug="camisetas", parent=category_root)
    parent, (child, sibling) = make_variation_family()
    parent.main_category = category
    parent.save()
    parent.categories.set([category])
    ProductPriceFactory(
        product=parent, trade_policy=policy, sale_price=Decimal("50.00"), comparison_price=0
    )
    ProductDescriptionFactory(product=parent, trade_policy=policy, seo_title="")

    product = product_full_queryset().get(pk=parent.pk)
    facts = full_product_facts_get(
        product=product, context=price_context_get(trade_policy_id=policy.pk)
    )
    data = FullProductSerializer(facts).data

    assert set(data) == {
        "id", "type", "sku", "name", "priority", "basePrice", "active", "review",
        "isGiftCard", "stock", "stocks", "originalPrice", "price", "priceRules", "brand",
        "flags", "tax", "indicatedProducts", "relatedProducts", "filters", "seals",
        "mainCategory", "categories", "categoryBreadcrumb", "dimensions", "parentProductId",
        "combination", "currentAttributes", "variations", "medias", "bannerGroups", "status",
        "createdAt", "updatedAt", "url", "urls", "linkedTradePolicies", "description",
    }  # fmt: skip
    assert data["price"]["salePrice"] == Decimal("50.00")
    assert data["price"]["basePrice"] is False
    assert data["mainCategory"] == {
        "id": category.pk,
        "name": "Camisetas",
        "url": "/moda/camisetas",
    }
    assert [node["id"] for node in data["categoryBreadcrumb"]] == [category_root.pk, category.pk]
    assert data["flags"] == {
        "subscription": False,
        "service": False,
        "showInSite": True,
        "saleWithoutStock": False,
        "minimumStock": 0,
    }
    assert set(data["tax"]) == {"mpn", "ean", "ncm", "exclusive"}
    assert set(data["dimensions"]) == {
        "shippingCargoTypeId", "additionalTime", "width", "height", "length", "weight"
    }  # fmt: skip
    assert [c["productId"] for c in data["variations"]["combinations"]] == [child.pk, sibling.pk]
    assert len(data["variations"]["valueList"]) == 4
    assert [a["name"] for a in data["variations"]["attributes"]] == ["Color", "Size"]
    assert data["description"]["tradePolicyId"] == policy.pk
    assert data["description"]["seoTitle"] is None
    assert data["description"]["productCategoryId"] == category.pk
    assert data["stock"]["productId"] == parent.pk


def test_product_get_active_hides_inactive_unknown_and_huge_ids():
    active = ProductFactory()
    inactive = ProductFactory(active=False)
    orphan = VariationFactory(parent=ProductFactory(active=False))

    assert product_get_active(product_id=active.pk) == active
    assert product_get_active(product_id=inactive.pk) is None
    assert product_get_active(product_id=orphan.pk) is None
    assert product_get_active(product_id=99999999999999999999) is None
    assert product_get_active(product_id=0) is None


def test_the_catalogue_walk_reads_each_main_product_then_its_variations():
    from catalog.selectors import catalogue_ids

    first, second = ProductFactory(), ProductFactory()
    late = VariationFactory(parent=first)  # created after the second main product
    other = VariationFactory(parent=second)
    assert catalogue_ids(0, 10) == (first.pk, late.pk, second.pk, other.pk)
    assert catalogue_ids(1, 3) == (late.pk, second.pk)


def test_product_full_get_loads_what_the_full_queryset_loads(media_root):
    # given a family with categories, prices in two policies, a description, medias, stock in
    # an active and an inactive storage, relations (of the parent: the variation shows them)
    # to a sellable, an inactive and a sellable variation's product
    from catalog.models import RelationKind
    from tests.catalog.merchandising_factories import ProductRelationFactory

    policy = TradePolicyFactory()
    parent, children = make_variation_family(medias=2, variations=3)
    child, sibling = children[0], children[1]
    sibling.active = False
    sibling.save()
    parent.categories.set([CategoryFactory(position=5), CategoryFactory(position=0)])
    child.categories.set([CategoryFactory()])
    ProductPriceFactory(product=child, sale_price=Decimal("12.00"))
    ProductPriceFactory(product=child, trade_policy=policy, sale_price=Decimal("11.00"))
    ProductDescriptionFactory(product=child, trade_policy=policy)
    add_medias(child, 3)
    StockFactory(product=child, storage=StorageFactory(active=False), available=9)
    for position, target in enumerate((ProductFactory(), ProductFactory(active=False))):
        ProductRelationFactory(product=parent, target=target, position=position)
    ProductRelationFactory(product=parent, target=children[2], kind=RelationKind.INDICATED)
    context = price_context_get(trade_policy_id=policy.pk)

    for product_id in (parent.pk, child.pk, sibling.pk):
        # when the product is read both ways
        expected = product_full_queryset().get(pk=product_id)
        product = product_full_get(product_id)

        # then the full product renders the same, and the summary's reads are the same
        assert product is not None
        for loaded in (expected, product):
            loaded.facts = full_product_facts_get(product=loaded, context=context)
        assert json_bytes(FullProductSerializer(product.facts).data) == json_bytes(
            FullProductSerializer(expected.facts).data
        )
        assert [p.pk for p in product.default_prices] == [p.pk for p in expected.default_prices]
        assert {v.pk: v.available_units for v in product.stocked_variations} == {
            v.pk: v.available_units for v in expected.stocked_variations
        }
    assert product_full_get(parent.pk + 10_000) is None


def test_product_full_get_queries_do_not_grow_with_the_family(
    media_root, django_assert_num_queries
):
    # given a small family and a large one
    small, (small_child, _) = make_variation_family(medias=1, variations=2)
    large, large_children = make_variation_family(medias=5, variations=20)
    for child in large_children:
        ProductPriceFactory(product=child)
        child.categories.set([CategoryFactory()])
    product_full_get(small.pk)  # (each read's SQL compiled once)
    # then any product of either reads nine queries
    for product_id in (small.pk, small_child.pk, large.pk, large_children[-1].pk):
        with django_assert_num_queries(9):
            product_full_get(product_id)
