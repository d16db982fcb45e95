"""The full product's computed facts that HTTP cannot reach through the upsell (an inactive
product is never offered), the pure rule of `priceRules`, review averages and the
review-summary backfill command."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from catalog.models import ProductReviewSummary
from catalog.pricing import ProductData, RuleData, rules_for_product
from catalog.selectors import (
    ProductStatus,
    full_product_facts_get,
    price_context_get,
    product_full_queryset,
)
from feedback.models import ProductReview
from tests.catalog.factories import ProductFactory, StockFactory, VariationFactory
from tests.feedback.factories import ProductReviewFactory
from tests.storefront.factories import CustomerFactory

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PRODUCT = ProductData(id=1, base_price=Decimal("80.00"), brand_id=7, category_ids=frozenset({3}))


def rule(id: int, **fields) -> RuleData:
    return RuleData(id=id, name=f"Rule {id}", value=Decimal("10"), **fields)


# --- pricing.rules_for_product (pure) ---------------------------------------------------


def test_rules_for_product_keeps_live_automatic_rules_of_the_policy_targeting_it():
    rules = [
        rule(1, priority=1),
        rule(2, rule_target="product", product_ids=frozenset({1}), priority=9),
        rule(3, rule_target="category", category_ids=frozenset({3})),
        rule(4, rule_target="brand", brand_ids=frozenset({8})),  # another brand
        rule(5, trigger="coupon", code="X"),
        rule(6, trigger="upsell"),
        rule(7, active=False),
        rule(8, start_at=NOW + timedelta(seconds=1)),
        rule(9, end_at=NOW),  # ended exactly now
        rule(10, trade_policy_ids=frozenset({2})),
        rule(11, trade_policy_ids=frozenset({1, 2}), begin_quantity=5),
    ]

    chosen = rules_for_product(PRODUCT, rules, trade_policy_id=1, moment=NOW)

    assert [r.id for r in chosen] == [2, 1, 3, 11]


def test_rules_for_product_is_empty_without_rules():
    assert rules_for_product(PRODUCT, [], trade_policy_id=1, moment=NOW) == ()


# --- status -----------------------------------------------------------------------------


def facts_of(product):
    loaded = product_full_queryset().get(pk=product.pk)
    return full_product_facts_get(product=loaded, context=price_context_get())


@pytest.mark.django_db
def test_status_is_inactive_for_an_inactive_product_even_with_units():
    product = ProductFactory(active=False)
    StockFactory(product=product)

    assert facts_of(product).status is ProductStatus.INACTIVE


@pytest.mark.django_db
def test_status_is_inactive_for_a_variation_of_an_inactive_product():
    variation = VariationFactory(parent=ProductFactory(active=False))
    StockFactory(product=variation)

    assert facts_of(variation).status is ProductStatus.INACTIVE


# --- review summaries -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "average"),
    [
        ({}, Decimal("0.0")),
        ({5: 1}, Decimal("5.0")),
        ({1: 1, 2: 1}, Decimal("1.5")),
        ({4: 3, 5: 1}, Decimal("4.3")),  # 4.25 rounds half-up
        ({1: 2, 2: 1}, Decimal("1.3")),  # 1.333...
        ({1: 1, 5: 2}, Decimal("3.7")),  # 3.666...
    ],
)
def test_the_average_is_rounded_half_up_to_one_decimal(counts, average):
    summary = ProductReviewSummary(**{f"score_{s}": n for s, n in counts.items()})

    assert summary.average == average
    assert summary.count == sum(counts.values())


@pytest.mark.django_db
def test_the_backfill_command_recounts_reviews_written_without_signals():
    # given reviews inserted in bulk (no signal: as an import would)
    product = ProductFactory()
    ProductReview.objects.bulk_create(
        ProductReview(
            product=product,
            customer=CustomerFactory(),
            name="N",
            email=f"n{n}@example.com",
            score=n % 5 + 1,
            active=n != 0,
        )
        for n in range(7)
    )
    assert not ProductReviewSummary.objects.exists()

    out = StringIO()
    call_command("refresh_review_summaries", stdout=out)

    summary = ProductReviewSummary.objects.get(product=product)
    # scores of n = 1..6 (n = 0 is held): 2, 3, 4, 5, 1, 2
    assert summary.counts == {1: 1, 2: 2, 3: 1, 4: 1, 5: 1}
    assert "recounted" in out.getvalue()


@pytest.mark.django_db
def test_the_backfill_command_removes_a_stale_summary():
    product = ProductFactory()
    ProductReviewSummary.objects.create(product=product, score_5=3)
    other = ProductReviewFactory(score=2).product

    call_command("refresh_review_summaries", stdout=StringIO())

    assert not ProductReviewSummary.objects.filter(product=product).exists()
    assert ProductReviewSummary.objects.get(product=other).counts[2] == 1
