"""The quote's answer is what QuoteResponseSerializer declares: its compiled render
(apikit.compiled, what the endpoint sends) is byte for byte the serializer's `.data`, on
400 random quotes of a varied store (items in and out of stock, unknown and inactive
products, variations, no main category, storages without coordinates, rows with every
kind of variable, pickup points, explain and deliveryDates, live carrier options)."""

import dataclasses
import random
from decimal import Decimal

import pytest

from apikit.compiled import renderer
from apikit.renderers import json_bytes
from catalog.api.fragments import product_summaries
from catalog.models import TradePolicy
from shipping.api.serializers import QuoteResponseSerializer
from shipping.carrier_client import Service
from shipping.quoting import shipping_quote_get
from tests.catalog.factories import (
    ProductFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
    VariationFactory,
)

from .factories import PickupFactory, PostalCodeFactory, ShippingRowFactory, ShippingTableFactory

pytestmark = pytest.mark.django_db

CODES = ["01310100", "20040002", "30130000", "69005000"]


@pytest.fixture
def store():
    for index, code in enumerate(CODES):
        PostalCodeFactory(code=code, latitude=None if index == 3 else Decimal(f"-2{index}.5"))
    storages = [
        StorageFactory(),
        StorageFactory(latitude=None, longitude=None, observation="Back door"),
        StorageFactory(zip_code="20040-002"),
    ]
    products = [ProductFactory() for _ in range(6)]
    products += [ProductFactory(main_category=None), VariationFactory(), ProductFactory()]
    products[-1].active = False
    products[-1].save()
    for index, product in enumerate(products):
        ProductPriceFactory(product=product, sale_price=Decimal("19.90") * (index + 1))
        if index != 4:  # product 4: out of stock everywhere
            StockFactory(product=product, storage=storages[index % 3], available=5 + index)
    first = ShippingTableFactory(storages=storages[:2], delivers_on_saturdays=True)
    ShippingRowFactory(table=first, fixed_fee=Decimal("2.00"), final_zipcode="49999999")
    ShippingRowFactory(
        table=first,
        initial_zipcode="50000000",
        extra_kg_value=Decimal("1.25"),
        extra_kg_threshold=Decimal("0.750"),
        order_value_percentage=Decimal("1.5"),
    )
    second = ShippingTableFactory(storages=storages[:2])  # none serves the third storage
    ShippingRowFactory(table=second, shipping_value=Decimal("12.345"))
    pickup = ShippingTableFactory(kind="pickup", storages=storages[:2])
    ShippingRowFactory(table=pickup, shipping_value=Decimal("0"))
    PickupFactory(table=pickup)
    PickupFactory(table=pickup, zip_code="20040002", latitude=None, longitude=None)
    return [product.pk for product in products]


def with_live_option(outcome):
    """The outcome with its first option answered by a live carrier service."""
    service = Service(id=7, name="Express", company="", price=Decimal(9), min_days=1, max_days=2)
    group = outcome.groups[0]
    options = (dataclasses.replace(group.options[0], live=service), *group.options[1:])
    groups = (dataclasses.replace(group, options=options), *outcome.groups[1:])
    return dataclasses.replace(outcome, groups=groups)


def test_the_compiled_answer_is_the_serializers_on_400_random_quotes(store):
    rng, render, seen = random.Random(12), renderer(QuoteResponseSerializer), set()
    for _ in range(400):
        count = rng.randint(1, 4)
        items = [(rng.choice([*store, 999_999]), rng.randint(1, 7)) for _ in range(count)]
        outcome = shipping_quote_get(
            items=list(dict(items).items()),
            country="BRA",
            zip_code=rng.choice(CODES),
            trade_policy_id=TradePolicy.objects.default().pk,
            explain=rng.random() < 0.5,
            delivery_dates=rng.random() < 0.5,
        )
        if outcome.groups and outcome.groups[0].options and rng.random() < 0.2:
            outcome = with_live_option(outcome)
        summaries = product_summaries(outcome.product_ids, base_url="http://testserver/")
        compiled = json_bytes(render(outcome, summaries=summaries))
        declared = QuoteResponseSerializer(outcome, context={"summaries": summaries}).data

        assert compiled == json_bytes(declared)
        seen.update(part for part in PARTS if part in compiled)
    assert seen == set(PARTS)  # every optional part was compared at least once


PARTS = (
    b'"explanation"',
    b'"deliveryEstimate"',
    b'"selected":true',
    b'"per_extra_kg"',
    b'"row":null',
    b'"errorItems":[{',
    b'"error":{',
    b'"category":null',
)
