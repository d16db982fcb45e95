"""The listing's facet counts and registers against a count made independently in Python,
on a generated catalogue of a few hundred products (issue 32): for any query, each facet
value counts the products matching every condition but its facet's own."""

import random
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.models import (
    Attribute,
    AttributeValue,
    Brand,
    CargoType,
    Category,
    Product,
    ProductPrice,
    Stock,
)
from catalog.selectors import CATALOGUE_CACHE, PRODUCTS_CACHE
from infra.caching.versions import cache_namespace_bump
from tests.catalog.factories import PriceRuleFactory, StorageFactory, default_trade_policy

pytestmark = pytest.mark.django_db

CENT = Decimal("0.01")


class World:
    """A random store (seeded) and the facts the listing should find, kept in Python."""

    def __init__(self, seed: int = 32, size: int = 300):
        rng = random.Random(seed)
        # a tree of 3 roots, 3 children each, 2 grandchildren each (one hidden branch)
        self.parent: dict[int, int | None] = {}
        self.active: dict[int, bool] = {}
        self.names: dict[int, str] = {}
        level = [None]
        for depth, width in enumerate((3, 3, 2)):
            below = []
            for parent in level:
                for n in range(width):
                    category = Category.objects.create(
                        name=f"C{depth}-{parent}-{n}",
                        parent_id=parent,
                        active=not (depth == 1 and n == 2 and parent == level[0]),
                        position=n,
                    )
                    self.parent[category.pk] = parent
                    self.active[category.pk] = category.active
                    self.names[category.pk] = category.name
                    below.append(category.pk)
            level = below
        self.categories = list(self.parent)
        self.brands = [Brand.objects.create(name=f"Brand {n}", slug=f"b{n}").pk for n in range(5)]
        self.attributes: dict[int, list[int]] = {}
        for n in range(3):
            attribute = Attribute.objects.create(name=f"A{n}", code=f"a{n}", position=n)
            self.attributes[attribute.pk] = [
                AttributeValue.objects.create(attribute=attribute, label=f"V{n}-{v}", order=v).pk
                for v in range(4)
            ]
        hidden = Attribute.objects.create(name="Hidden", code="hidden", filterable=False)
        hidden_value = AttributeValue.objects.create(attribute=hidden, label="x").pk
        cargo = CargoType.objects.default_id()
        policy = default_trade_policy()
        storage = StorageFactory()
        rule_brand = self.brands[0]
        PriceRuleFactory(value=Decimal("10"), rule_target="brand", brands=[rule_brand])
        self.products: dict[int, dict] = {}
        plans = []
        for n in range(size):
            listed = rng.random() > 0.1
            plans.append(
                {
                    "row": Product(
                        sku=f"P{n}",
                        name=f"Produto {rng.randrange(1000)}",
                        slug=f"p-{n}",
                        priority=rng.randrange(3),
                        base_price=Decimal(rng.randrange(100, 50000)) / 100,
                        active=listed or rng.random() > 0.5,
                        show_in_site=listed,
                        brand_id=rng.choice(self.brands),
                        main_category_id=rng.choice(self.categories),
                        cargo_type_id=cargo,
                        sale_without_stock=rng.random() < 0.1,
                    ),
                    "linked": rng.sample(self.categories, rng.randrange(3)),
                    "own": [
                        rng.choice(values)
                        for values in self.attributes.values()
                        if rng.random() < 0.3
                    ],
                    "variations": [
                        (
                            [
                                rng.choice(vals)
                                for vals in self.attributes.values()
                                if rng.random() < 0.6
                            ],
                            rng.random() > 0.2,
                            rng.randrange(3) if rng.random() < 0.3 else None,
                        )
                        for _ in range(rng.randrange(3))
                    ],
                    "sale": Decimal(rng.randrange(100, 50000)) / 100
                    if rng.random() < 0.8
                    else None,
                    "units": rng.randrange(3) if rng.random() < 0.5 else None,
                }
            )
        Product.objects.bulk_create([plan["row"] for plan in plans])
        variations, categories_rows, values_rows, prices, stocks = [], [], [], [], []
        CategoryLink = Product.categories.through
        ValueLink = Product.attribute_values.through
        for n, plan in enumerate(plans):
            product = plan["row"]
            categories_rows += [
                CategoryLink(product_id=product.pk, category_id=c) for c in plan["linked"]
            ]
            values_rows += [
                ValueLink(product_id=product.pk, attributevalue_id=v)
                for v in [*plan["own"], hidden_value]
            ]
            for v, (_values, active, _units) in enumerate(plan["variations"]):
                variations.append(
                    Product(
                        sku=f"P{n}-{v}",
                        name=f"Var {n}-{v}",
                        slug=f"p-{n}-{v}",
                        type="variation",
                        parent_id=product.pk,
                        active=active,
                        cargo_type_id=cargo,
                        brand_id=product.brand_id,
                        main_category_id=product.main_category_id,
                    )
                )
            if plan["sale"] is not None:
                prices.append(
                    ProductPrice(
                        product_id=product.pk, trade_policy=policy, sale_price=plan["sale"]
                    )
                )
            if plan["units"] is not None:
                stocks.append(
                    Stock(product_id=product.pk, storage=storage, available=plan["units"])
                )
        Product.objects.bulk_create(variations)
        made = iter(variations)
        for plan in plans:
            plan["variation_rows"] = [next(made) for _ in plan["variations"]]
            for row, (values, _active, units) in zip(
                plan["variation_rows"], plan["variations"], strict=True
            ):
                values_rows += [ValueLink(product_id=row.pk, attributevalue_id=v) for v in values]
                if units is not None:
                    stocks.append(Stock(product_id=row.pk, storage=storage, available=units))
        CategoryLink.objects.bulk_create(categories_rows)
        ValueLink.objects.bulk_create(values_rows)
        ProductPrice.objects.bulk_create(prices)
        Stock.objects.bulk_create(stocks)
        for plan in plans:
            product = plan["row"]
            active_variations = [v for v in plan["variations"] if v[1]]
            variation_units = sum(units or 0 for _values, _active, units in active_variations)
            price = plan["sale"] if plan["sale"] is not None else product.base_price
            if product.brand_id == rule_brand:
                price = price - (price * 10 / 100).quantize(CENT, rounding=ROUND_HALF_UP)
            self.products[product.pk] = {
                "listed": product.active and product.show_in_site,
                "brand": product.brand_id,
                "categories": self.closure({product.main_category_id, *plan["linked"]}),
                "values": set(plan["own"])
                | {v for values, _a, _u in active_variations for v in values},
                "price": price,
                "in_stock": product.sale_without_stock
                or (plan["units"] or 0) + variation_units > 0,
            }
        cache_namespace_bump(PRODUCTS_CACHE, CATALOGUE_CACHE)

    def closure(self, ids):
        """The categories and, for a visible one, its ancestors (a hidden category's
        products are not under its ancestors: the store shows no path to them)."""
        found = set()
        for category in ids:
            found.add(category)
            if self.visible(category):
                while category is not None:
                    found.add(category)
                    category = self.parent[category]
        return found

    def visible(self, category):
        while category is not None:
            if not self.active[category]:
                return False
            category = self.parent[category]
        return True

    def matches(self, facts, query, but=None):
        if not facts["listed"]:
            return False
        if "category" in query and but != "category":
            wanted = query["category"]
            if not (self.visible(wanted) and wanted in facts["categories"]):
                return False
        if "brands" in query and but != "brand" and facts["brand"] not in query["brands"]:
            return False
        for attribute, values in self.attributes.items():
            chosen = [v for v in query.get("values", ()) if v in values]
            if chosen and but != attribute and not set(chosen) & facts["values"]:
                return False
        low, high = query.get("low"), query.get("high")
        if but != "price" and (
            (low is not None and facts["price"] < low)
            or (high is not None and facts["price"] > high)
        ):
            return False
        return "in_stock" not in query or facts["in_stock"] == query["in_stock"]

    def expected(self, query):
        counted = {}
        matching = [pid for pid, facts in self.products.items() if self.matches(facts, query)]
        parent = query.get("category")
        children = [c for c, p in self.parent.items() if p == parent and self.visible(c)]
        counted["categories"] = {
            c: n
            for c in children
            if (
                n := sum(
                    c in f["categories"]
                    for f in self.products.values()
                    if self.matches(f, query, "category")
                )
            )
        }
        counted["brands"] = {
            b: n
            for b in self.brands
            if (
                n := sum(
                    f["brand"] == b
                    for f in self.products.values()
                    if self.matches(f, query, "brand")
                )
            )
            or b in query.get("brands", ())
        }
        counted["values"] = {}
        for attribute, values in self.attributes.items():
            for value in values:
                n = sum(
                    value in f["values"]
                    for f in self.products.values()
                    if self.matches(f, query, attribute)
                )
                if n or value in query.get("values", ()):
                    counted["values"][value] = n
        prices = [f["price"] for f in self.products.values() if self.matches(f, query, "price")]
        counted["price"] = (min(prices, default=None), max(prices, default=None))
        return matching, counted


@pytest.fixture
def world():
    return World()


def queries(world):
    values = [v for vals in world.attributes.values() for v in vals]
    return st.fixed_dictionaries(
        {},
        optional={
            "category": st.sampled_from(world.categories),
            "brands": st.lists(st.sampled_from(world.brands), min_size=1, max_size=3, unique=True),
            "values": st.lists(st.sampled_from(values), min_size=1, max_size=4, unique=True),
            "low": st.integers(0, 300).map(Decimal),
            "high": st.integers(100, 600).map(Decimal),
            "in_stock": st.booleans(),
        },
    )


def query_string(query) -> str:
    parts = ["limit=100"]
    if "category" in query:
        parts.append(f"condition[categoryId]={query['category']}")
    if "brands" in query:
        parts.append(f"condition[brandId][in]={','.join(map(str, query['brands']))}")
    if "values" in query:
        parts.append(f"condition[attributeValueId][in]={','.join(map(str, query['values']))}")
    if "low" in query:
        parts.append(f"condition[price][gte]={query['low']}")
    if "high" in query:
        parts.append(f"condition[price][lte]={query['high']}")
    if "in_stock" in query:
        parts.append(f"condition[inStock]={str(query['in_stock']).lower()}")
    return "&".join(parts)


def test_facet_counts_equal_an_independent_count(api_client, world):
    @settings(
        max_examples=60,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(query=queries(world))
    def check(query):
        response = api_client.get(f"/publics/products?{query_string(query)}")
        assert response.status_code == 200, response.content
        data = response.json()["data"]
        matching, counted = world.expected(query)
        assert data["pagination"]["registers"] == len(matching)
        shown = [r["id"] for r in data["registers"]]
        assert set(shown) <= set(matching) and len(shown) == min(100, len(matching))
        facets = data["facets"]
        assert {c["id"]: c["count"] for c in facets["categories"]} == counted["categories"]
        assert {b["id"]: b["count"] for b in facets["brands"]} == counted["brands"]
        values = {v["id"]: v["count"] for a in facets["attributes"] for v in a["values"]}
        assert values == counted["values"]
        low, high = counted["price"]
        assert (facets["price"]["min"], facets["price"]["max"]) == (
            None if low is None else float(low),
            None if high is None else float(high),
        )
        for register in data["registers"]:
            assert (
                Decimal(str(register["price"]["salePrice"]))
                == world.products[register["id"]]["price"]
            )

    check()


def test_a_category_lists_its_whole_subtree(api_client, world):
    for category in world.categories:
        response = api_client.get(f"/publics/products?condition[categoryId]={category}&limit=100")
        data = response.json()["data"]
        expected = {
            pid
            for pid, f in world.products.items()
            if f["listed"] and world.visible(category) and category in f["categories"]
        }
        assert data["pagination"]["registers"] == len(expected)
        if len(expected) <= 100:
            assert {r["id"] for r in data["registers"]} == expected


def test_pages_cover_the_listing_once_in_every_order(api_client, world):
    total = sum(f["listed"] for f in world.products.values())
    for order in ("name", "-name", "price", "-price", "-createdAt", "-score", ""):
        seen = []
        for offset in range(0, total, 100):
            body = api_client.get(f"/publics/products?limit=100&offset={offset}&order={order}")
            seen += [r["id"] for r in body.json()["data"]["registers"]]
        assert len(seen) == len(set(seen)) == total, order
        if order in ("price", "-price"):
            prices = [world.products[pid]["price"] for pid in seen]
            assert prices == sorted(prices, reverse=order.startswith("-"))
