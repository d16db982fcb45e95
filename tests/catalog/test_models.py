"""Catalog model rules: category tree integrity, variations, database constraints."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from catalog.models import Category, PriceRule, Product, ProductInterest, ProductType

from .factories import (
    CategoryFactory,
    ProductFactory,
    ProductInterestFactory,
    StockFactory,
    VariationFactory,
)

pytestmark = pytest.mark.django_db


def test_category_slug_is_filled_from_the_name():
    category = Category(name="Cama e Banho")
    category.full_clean()
    category.save()

    assert category.slug == "cama-e-banho"
    assert category.url == "/cama-e-banho"


def test_category_cannot_be_its_own_parent_or_under_a_descendant():
    root = CategoryFactory()
    child = CategoryFactory(parent=root)
    grandchild = CategoryFactory(parent=child)

    root.parent = grandchild
    with pytest.raises(ValidationError, match="under itself"):
        root.full_clean()
    root.parent = root
    with pytest.raises(ValidationError, match="under itself"):
        root.full_clean()


def test_database_refuses_a_category_that_is_its_own_parent():
    category = CategoryFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Category.objects.filter(pk=category.pk).update(parent=category.pk)


def test_sibling_slugs_are_unique_but_may_repeat_elsewhere():
    a, b = CategoryFactory(slug="a"), CategoryFactory(slug="b")
    CategoryFactory(slug="shoes", parent=a)
    CategoryFactory(slug="shoes", parent=b)  # fine: another parent

    with pytest.raises(IntegrityError), transaction.atomic():
        CategoryFactory(slug="shoes", parent=a)
    with pytest.raises(IntegrityError), transaction.atomic():
        CategoryFactory(slug="a")  # a second root "a"


def test_variation_takes_type_brand_and_category_from_its_parent():
    parent = ProductFactory()

    variation = Product.objects.create(sku="V-1", name="Blue", parent=parent)

    assert variation.type == ProductType.VARIATION
    assert variation.brand_id == parent.brand_id
    assert variation.main_category_id == parent.main_category_id
    assert variation.slug == "blue-v-1"


def test_a_variation_cannot_have_variations():
    variation = VariationFactory()
    child = Product(sku="V-2", name="x", parent=variation)

    with pytest.raises(ValidationError, match="main product"):
        child.full_clean()


def test_database_refuses_a_variation_without_parent():
    with pytest.raises(IntegrityError), transaction.atomic():
        Product.objects.bulk_create([Product(sku="X", name="x", slug="x", type="variation")])


def test_database_refuses_negative_prices_and_stock():
    product = ProductFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Product.objects.filter(pk=product.pk).update(base_price=Decimal("-1"))
    stock = StockFactory(product=product)
    with pytest.raises(IntegrityError), transaction.atomic():
        type(stock).objects.filter(pk=stock.pk).update(available=-1)


def test_price_rule_percentage_cannot_exceed_100():
    rule = PriceRule(name="Too much", value=Decimal("150"), value_type="percentage")
    with pytest.raises(ValidationError):
        rule.full_clean()
    with pytest.raises(IntegrityError), transaction.atomic():
        rule.save()


def test_coupon_rule_needs_a_code():
    rule = PriceRule(name="Coupon", value=Decimal("10"), trigger="coupon")
    with pytest.raises(ValidationError, match="code"):
        rule.full_clean()


def test_one_pending_interest_per_email_product_and_origin_in_the_database():
    interest = ProductInterestFactory(email="ana@example.com")

    with pytest.raises(IntegrityError), transaction.atomic():
        ProductInterestFactory(product=interest.product, email="ANA@example.com")
    ProductInterestFactory(product=interest.product, email="ana@example.com", origin="on-request")
    assert ProductInterest.objects.count() == 2
