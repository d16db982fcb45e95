"""Catalog services and cached selectors: interests, price rule cache, price of a product."""

from decimal import Decimal

import pytest
from django.db import IntegrityError

from catalog.errors import ProductNotFound
from catalog.models import ProductInterest
from catalog.selectors import (
    price_context_get,
    price_rules_with_targets,
    product_full_queryset,
    product_price_get,
)
from catalog.services import (
    InterestReplyError,
    interest_register,
    interest_reply,
)

from .factories import (
    CategoryFactory,
    PriceRuleFactory,
    ProductFactory,
    ProductInterestFactory,
    ProductPriceFactory,
    TradePolicyFactory,
)

pytestmark = pytest.mark.django_db


def register(product, **kwargs):
    fields = {"origin": "notify-me", "name": "Ana", "email": "ana@example.com", **kwargs}
    return interest_register(product_id=product.pk, **fields)


def test_register_trims_text_and_reports_creation():
    product = ProductFactory()

    interest, created = register(product, name="  Ana  ", email=" ana@example.com ")

    assert created is True
    assert interest.name == "Ana" and interest.email == "ana@example.com"


def test_register_returns_the_record_a_concurrent_request_created(monkeypatch):
    product = ProductFactory()
    existing = ProductInterestFactory(product=product, email="ana@example.com")
    calls = iter([None, existing])  # first lookup misses (the race), second finds it
    monkeypatch.setattr("catalog.services._pending_duplicate", lambda **kwargs: next(calls))

    interest, created = register(product)

    assert created is False and interest.pk == existing.pk
    assert ProductInterest.objects.count() == 1


def test_register_unknown_product_raises_not_found():
    with pytest.raises(ProductNotFound):
        interest_register(product_id=123456, origin="notify-me", name="A", email="a@example.com")


def test_reply_is_only_for_on_request_interests():
    interest = ProductInterestFactory(origin="notify-me")

    with pytest.raises(InterestReplyError):
        interest_reply(interest=interest, reply="Hello")


def test_constraint_error_other_than_a_duplicate_is_not_swallowed(monkeypatch):
    product = ProductFactory()
    monkeypatch.setattr("catalog.services._pending_duplicate", lambda **kwargs: None)

    def broken_save(self, *args, **kwargs):
        raise IntegrityError("something else")

    monkeypatch.setattr(ProductInterest, "save", broken_save)
    with pytest.raises(IntegrityError):
        register(product)


def full(product):
    return product_full_queryset().get(pk=product.pk)


def test_price_uses_the_trade_policy_row_and_falls_back_to_the_base_price():
    product = ProductFactory(base_price=Decimal("50.00"))
    wholesale = TradePolicyFactory()
    ProductPriceFactory(product=product, trade_policy=wholesale, sale_price=Decimal("40.00"))

    in_wholesale = product_price_get(
        product=full(product), context=price_context_get(trade_policy_id=wholesale.pk)
    )
    in_default = product_price_get(product=full(product), context=price_context_get())

    assert in_wholesale.sale_price == Decimal("40.00") and in_wholesale.base_price is False
    assert in_default.sale_price == Decimal("50.00") and in_default.base_price is True


def test_category_rule_applies_to_products_of_subcategories():
    sports = CategoryFactory(name="Sports")
    running = CategoryFactory(name="Running", parent=sports)
    product = ProductFactory(main_category=running)
    ProductPriceFactory(product=product, sale_price=Decimal("100.00"))
    PriceRuleFactory(rule_target="category", categories=[sports], value=Decimal("20"))

    price = product_price_get(product=full(product), context=price_context_get())

    assert price.sale_price == Decimal("80.00")


@pytest.mark.cache
def test_changing_a_rule_refreshes_the_cached_rules():
    product = ProductFactory()
    ProductPriceFactory(product=product, sale_price=Decimal("100.00"))
    rule = PriceRuleFactory(value=Decimal("10"))
    assert product_price_get(product=full(product), context=price_context_get()).rule_id == rule.pk

    rule.active = False
    rule.save()
    assert product_price_get(product=full(product), context=price_context_get()).rule_id == 0

    rule.active = True
    rule.save()
    rule.trade_policies.set([TradePolicyFactory()])  # only for another policy now
    assert product_price_get(product=full(product), context=price_context_get()).rule_id == 0


def test_forced_rule_gives_the_upsell_price():
    product = ProductFactory()
    ProductPriceFactory(product=product, sale_price=Decimal("100.00"))
    created = PriceRuleFactory(trigger="upsell", value=Decimal("30"))
    offer_rule = price_rules_with_targets().get(pk=created.pk)  # as the upsell selector loads it

    context = price_context_get(price_rule=offer_rule)
    price = product_price_get(product=full(product), context=context)

    assert price.rule_id == offer_rule.pk and price.sale_price == Decimal("70.00")
