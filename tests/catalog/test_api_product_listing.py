"""GET /publics/products: the catalogue listing with facets (issue 32, item 2)."""

import logging
from datetime import timedelta
from decimal import Decimal

import orjson
import pytest
from django.utils import timezone

from catalog.models import Product, ProductPrice, Stock, Storage
from tests.catalog.factories import (
    AttributeFactory,
    AttributeValueFactory,
    BrandFactory,
    CategoryFactory,
    PriceRuleFactory,
    ProductFactory,
    ProductMediaFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
    VariationFactory,
)
from tests.catalog.merchandising_factories import SealFactory
from tests.feedback.factories import ProductReviewFactory
from tests.helpers import PRODUCT_SUMMARY_KEYS, assert_error
from tests.write_guard import is_write

pytestmark = pytest.mark.django_db

URL = "/publics/products"


class Shop:
    """Roupas > Camisetas > Manga longa, Roupas > Calcas, Casa; brands Alfa and Beta; Cor
    (Azul, Vermelho) and Tamanho (P, M) filterable, Material not."""

    def __init__(self):
        self.roupas = CategoryFactory(name="Roupas", position=1)
        self.camisetas = CategoryFactory(name="Camisetas", parent=self.roupas)
        self.longa = CategoryFactory(name="Manga longa", parent=self.camisetas)
        self.calcas = CategoryFactory(name="Calcas", parent=self.roupas, position=1)
        self.casa = CategoryFactory(name="Casa", position=2)
        self.alfa = BrandFactory(name="Alfa")
        self.beta = BrandFactory(name="Beta")
        cor = AttributeFactory(name="Cor", code="cor", position=1)
        tamanho = AttributeFactory(name="Tamanho", code="tamanho", position=2)
        material = AttributeFactory(name="Material", code="material", filterable=False)
        self.cor, self.tamanho = cor, tamanho
        self.azul = AttributeValueFactory(attribute=cor, label="Azul", order=1)
        self.vermelho = AttributeValueFactory(attribute=cor, label="Vermelho", order=2)
        self.p = AttributeValueFactory(attribute=tamanho, label="P", order=1)
        self.m = AttributeValueFactory(attribute=tamanho, label="M", order=2)
        self.algodao = AttributeValueFactory(attribute=material, label="Algodao")
        storage = StorageFactory()

        def product(name, category, brand, price, stock=0, **extra):
            made = ProductFactory(name=name, main_category=category, brand=brand, **extra)
            if price is not None:
                ProductPriceFactory(product=made, sale_price=Decimal(price), comparison_price=0)
            if stock:
                StockFactory(product=made, storage=storage, available=stock)
            return made

        self.a = product("Camiseta azul", self.camisetas, self.alfa, "50.00", priority=5)
        VariationFactory(parent=self.a, values=[self.azul, self.p, self.algodao])
        VariationFactory(parent=self.a, values=[self.azul, self.m])
        self.b = product("Camiseta longa", self.longa, self.beta, "80.00")
        VariationFactory(parent=self.b, values=[self.vermelho, self.m])
        VariationFactory(parent=self.b, values=[self.p], active=False)
        self.c = product("Calca", self.calcas, self.alfa, "120.00", stock=2, categories=[self.casa])
        self.c.attribute_values.set([self.vermelho])
        self.d = product("Vaso", self.casa, self.beta, None, sale_without_stock=True)
        self.hidden = product("Oculta", self.camisetas, self.alfa, "10.00", show_in_site=False)
        self.inactive = product("Inativa", self.camisetas, self.alfa, "10.00", active=False)
        ProductReviewFactory(product=self.a, score=5)
        ProductReviewFactory(product=self.c, score=3)
        ProductReviewFactory(product=self.c, score=4)


@pytest.fixture
def shop():
    return Shop()


def listing(api_client, query="", status=200):
    response = api_client.get(f"{URL}?{query}")
    assert response.status_code == status, response.content
    return response.json()


def ids(body):
    return [register["id"] for register in body["data"]["registers"]]


def test_the_listing_is_a_page_of_summaries_with_price_review_and_facets(api_client, shop):
    body = listing(api_client)
    assert body["status"] is True
    assert list(body["data"]) == ["registers", "pagination", "facets"]
    assert body["data"]["pagination"] == {"limit": 10, "offset": 0, "pages": 1, "registers": 4}
    first = body["data"]["registers"][0]
    assert list(first) == [*PRODUCT_SUMMARY_KEYS, "price", "review"]
    assert first["id"] == shop.a.pk
    assert first["price"]["salePrice"] == 50.0
    assert first["review"] == {
        "average": 5.0,
        "count": 1,
        "scores": [{"score": s, "count": int(s == 5)} for s in range(1, 6)],
    }


def test_the_registers_match_the_summaries_and_the_pages_price(api_client, shop):
    registers = listing(api_client)["data"]["registers"]
    for register in registers:
        page = api_client.get(f"/publics/products/{register['id']}").json()
        assert register["price"] == page["price"]
        assert register["review"] == page["review"]
        assert register["name"] == page["name"] and register["sku"] == page["sku"]


def test_only_active_main_products_shown_in_the_site_are_listed(api_client, shop):
    # default order: priority (highest first), then name
    assert ids(listing(api_client)) == [shop.a.pk, shop.c.pk, shop.b.pk, shop.d.pk]


def test_a_product_without_a_price_row_lists_its_base_price(api_client, shop):
    vaso = next(r for r in listing(api_client)["data"]["registers"] if r["id"] == shop.d.pk)
    assert vaso["price"]["salePrice"] == 100.0 and vaso["price"]["basePrice"] is True
    assert vaso["review"] is None


@pytest.mark.parametrize(
    ("category", "expected"),
    [
        ("roupas", ["a", "c", "b"]),
        ("camisetas", ["a", "b"]),
        ("longa", ["b"]),
        ("casa", ["c", "d"]),  # Calca is linked to Casa
    ],
)
def test_category_includes_its_whole_subtree_and_linked_products(
    api_client, shop, category, expected
):
    body = listing(api_client, f"condition[categoryId]={getattr(shop, category).pk}")
    assert ids(body) == [getattr(shop, name).pk for name in expected]


def test_an_unknown_or_inactive_category_lists_nothing(api_client, shop):
    assert ids(listing(api_client, "condition[categoryId]=999999")) == []
    shop.casa.active = False
    shop.casa.save()
    assert ids(listing(api_client, f"condition[categoryId]={shop.casa.pk}")) == []
    assert [c["name"] for c in listing(api_client)["data"]["facets"]["categories"]] == ["Roupas"]


def test_brand_eq_and_in(api_client, shop):
    assert ids(listing(api_client, f"condition[brandId]={shop.beta.pk}")) == [shop.b.pk, shop.d.pk]
    both = listing(api_client, f"condition[brandId][in]={shop.alfa.pk},{shop.beta.pk}")
    assert len(ids(both)) == 4
    json_form = listing(api_client, f'condition={{"brandId":{{"in":[{shop.alfa.pk}]}}}}')
    assert ids(json_form) == [shop.a.pk, shop.c.pk]


def test_attribute_values_of_one_attribute_or_and_of_two_attributes_and(api_client, shop):
    either = listing(
        api_client, f"condition[attributeValueId][in]={shop.azul.pk},{shop.vermelho.pk}"
    )
    assert sorted(ids(either)) == sorted([shop.a.pk, shop.b.pk, shop.c.pk])
    both = listing(api_client, f"condition[attributeValueId][in]={shop.vermelho.pk},{shop.m.pk}")
    # a has M but not Vermelho, c Vermelho but not M; b's inactive variation (P) does not count
    assert ids(both) == [shop.b.pk]
    small = listing(api_client, f"condition[attributeValueId]={shop.p.pk}")
    assert ids(small) == [shop.a.pk]


def test_a_value_of_an_attribute_that_is_not_filterable_matches_nothing(api_client, shop):
    assert ids(listing(api_client, f"condition[attributeValueId]={shop.algodao.pk}")) == []


def test_price_range_is_on_the_sale_price_after_the_rules(api_client, shop):
    body = listing(api_client, "condition[price][gte]=50&condition[price][lte]=100")
    assert sorted(ids(body)) == sorted([shop.a.pk, shop.b.pk, shop.d.pk])
    assert ids(listing(api_client, "condition[price][gt]=50&condition[price][lt]=100")) == [
        shop.b.pk
    ]
    assert ids(listing(api_client, "condition[price]=120")) == [shop.c.pk]
    # a 50% rule on Alfa brings Calca (120) to 60
    PriceRuleFactory(value=Decimal("50"), rule_target="brand", brands=[shop.alfa])
    body = listing(api_client, "condition[price][gte]=50&condition[price][lte]=100")
    assert sorted(ids(body)) == sorted([shop.b.pk, shop.c.pk, shop.d.pk])
    calca = next(r for r in body["data"]["registers"] if r["id"] == shop.c.pk)
    assert calca["price"]["salePrice"] == 60.0


def test_in_stock(api_client, shop):
    assert ids(listing(api_client, "condition[inStock]=true")) == [shop.c.pk, shop.d.pk]
    assert ids(listing(api_client, "condition[inStock]=false")) == [shop.a.pk, shop.b.pk]
    # a main product's stock on its variations counts
    StockFactory(product=shop.a.variations.first(), available=1)
    assert ids(listing(api_client, "condition[inStock]=true")) == [shop.a.pk, shop.c.pk, shop.d.pk]


def test_seal_on_the_product_or_its_categories(api_client, shop, media_root):
    on_product = SealFactory(products=[shop.d])
    on_category = SealFactory(categories=[shop.camisetas])
    assert ids(listing(api_client, f"condition[sealId]={on_product.pk}")) == [shop.d.pk]
    assert ids(listing(api_client, f"condition[sealId]={on_category.pk}")) == [shop.a.pk, shop.b.pk]
    later = SealFactory(products=[shop.c], start_at=timezone.now() + timedelta(days=1))
    assert ids(listing(api_client, f"condition[sealId]={later.pk}")) == []


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("name", ["c", "a", "b", "d"]),
        ("-name", ["d", "b", "a", "c"]),
        ("price", ["a", "b", "d", "c"]),
        ("-price", ["c", "d", "b", "a"]),
        ("-score", ["a", "c", "b", "d"]),
        ('[{"field":"price","direction":"desc"}]', ["c", "d", "b", "a"]),
    ],
)
def test_orders(api_client, shop, order, expected):
    body = listing(api_client, f"order={order}")
    assert ids(body) == [getattr(shop, name).pk for name in expected]


def test_newest_first(api_client, shop):
    Product.objects.filter(pk=shop.b.pk).update(created_at=timezone.now() + timedelta(days=1))
    shop.d.save()  # a signal: the catalogue is read again
    assert ids(listing(api_client, "order=-createdAt"))[0] == shop.b.pk


def test_limit_offset_and_pages(api_client, shop):
    body = listing(api_client, "limit=3&offset=2")
    assert ids(body) == [shop.b.pk, shop.d.pk]
    assert body["data"]["pagination"] == {"limit": 3, "offset": 2, "pages": 2, "registers": 4}
    assert ids(listing(api_client, "offset=10000000")) == []


def test_fields_keeps_those_keys(api_client, shop):
    registers = listing(api_client, "fields=price,id&limit=1")["data"]["registers"]
    assert list(registers[0]) == ["id", "price"]
    assert listing(api_client, "fields=name")["data"]["registers"][0] == {"name": "Camiseta azul"}


def test_facets_count_every_other_condition_but_their_own(api_client, shop):
    query = (
        f"condition[categoryId]={shop.roupas.pk}&condition[brandId]={shop.alfa.pk}"
        f"&condition[attributeValueId]={shop.vermelho.pk}"
    )
    body = listing(api_client, query)
    assert ids(body) == [shop.c.pk]
    facets = body["data"]["facets"]
    # categories: Roupas' children, under brand Alfa and Vermelho
    assert facets["categories"] == [
        {"id": shop.calcas.pk, "name": "Calcas", "count": 1},
    ]
    # brands: under Roupas and Vermelho (b Beta, c Alfa)
    assert facets["brands"] == [
        {"id": shop.alfa.pk, "name": "Alfa", "count": 1},
        {"id": shop.beta.pk, "name": "Beta", "count": 1},
    ]
    # Cor: under Roupas and Alfa (a Azul, c Vermelho); Tamanho: under every condition
    # (c has no size) no value counts a product and none is selected, so it is left out
    assert facets["attributes"] == [
        {
            "id": shop.cor.pk,
            "name": "Cor",
            "values": [
                {"id": shop.azul.pk, "label": "Azul", "count": 1},
                {"id": shop.vermelho.pk, "label": "Vermelho", "count": 1},
            ],
        }
    ]
    assert facets["price"] == {"min": 120.0, "max": 120.0}


def test_facets_without_conditions(api_client, shop):
    facets = listing(api_client)["data"]["facets"]
    assert facets["categories"] == [
        {"id": shop.roupas.pk, "name": "Roupas", "count": 3},
        {"id": shop.casa.pk, "name": "Casa", "count": 2},
    ]
    assert [
        (a["name"], [(v["label"], v["count"]) for v in a["values"]]) for a in facets["attributes"]
    ] == [
        ("Cor", [("Azul", 1), ("Vermelho", 2)]),
        ("Tamanho", [("P", 1), ("M", 2)]),
    ]
    assert facets["price"] == {"min": 50.0, "max": 120.0}


def test_a_selected_value_counting_nothing_still_shows(api_client, shop):
    query = f"condition[brandId]={shop.beta.pk}&condition[categoryId]={shop.calcas.pk}"
    facets = listing(api_client, query)["data"]["facets"]
    assert {"id": shop.beta.pk, "name": "Beta", "count": 0} in facets["brands"]
    assert facets["price"] == {"min": None, "max": None}


@pytest.mark.parametrize(
    ("query", "fields"),
    [
        ("condition[colour]=1", ["condition"]),
        ("condition[brandId][gt]=1", ["condition.brandId"]),
        ("condition[brandId]=abc", ["condition.brandId"]),
        ("condition[brandId][in]=1,x", ["condition.brandId"]),
        ("condition[categoryId]=99999999999999999999", ["condition.categoryId"]),
        ("condition[price][gte]=cheap", ["condition.price"]),
        ("condition[price][contains]=1", ["condition.price"]),
        ("condition[inStock]=maybe", ["condition.inStock"]),
        ("condition[inStock][ne]=true", ["condition.inStock"]),
        ("condition[sealId][isNull]=true", ["condition.sealId"]),
        ("condition=[1]", ["condition"]),
        ("condition={bad json", ["condition"]),
        ("condition[a][b][c][d][e][f][g]=1", ["condition"]),
        ("q=", ["q"]),
        ("order=stock", ["order"]),
        ("fields=nope", ["fields"]),
        ("limit=0", ["limit"]),
        ("limit=101", ["limit"]),
        ("offset=-1", ["offset"]),
        ("offset=99999999999", ["offset"]),
        (
            "limit=x&offset=y&fields=z&order=w&condition[q]=1",
            ["limit", "offset", "fields", "condition", "order"],
        ),
    ],
)
def test_bad_parameters_are_one_validation_error(api_client, shop, query, fields):
    data = assert_error(api_client.get(f"{URL}?{query}"), 422, "VALIDATION_ERROR")
    assert list(data["errors"]) == fields


def test_the_listing_is_served_under_api_v3_with_a_trailing_slash(api_client, shop):
    for path in ("/api/v3/publics/products", "/publics/products/"):
        assert len(ids(api_client.get(path).json())) == 4


def test_queries_do_not_grow_with_limit(api_client, shop, django_assert_max_num_queries):
    storage = StorageFactory()
    for n in range(40):
        made = ProductFactory(name=f"Extra {n}", brand=shop.alfa, main_category=shop.casa)
        ProductPriceFactory(product=made, sale_price=Decimal(10 + n))
        StockFactory(product=made, storage=storage, available=n)
        ProductReviewFactory(product=made, score=1 + n % 5)
    api_client.get(f"{URL}?limit=1")  # the catalogue and the store-wide data, once

    def cost(limit):
        from tests.helpers import cold_caches

        cold_caches()
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            assert len(ids(listing(api_client, f"limit={limit}&order=price"))) == limit
        return len(queries)

    small, large = cost(1), cost(40)
    assert large == small
    with django_assert_max_num_queries(25):
        listing(api_client, "limit=100")


def test_queries_do_not_grow_with_limit_facets_or_filters(api_client, shop):
    # given forty more products over many categories, brands and values
    storage = StorageFactory()
    cor = shop.cor
    for n in range(40):
        category = CategoryFactory(name=f"Linha {n}", parent=shop.casa)
        made = ProductFactory(name=f"Extra {n}", brand=BrandFactory(), main_category=category)
        made.attribute_values.set([AttributeValueFactory(attribute=cor, label=f"Cor {n}")])
        ProductPriceFactory(product=made, sale_price=Decimal(10 + n))
        StockFactory(product=made, storage=storage, available=n)
    api_client.get(f"{URL}?limit=1")  # the catalogue and the store-wide data, once

    def cost(query: str) -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from tests.helpers import cold_caches

        cold_caches()
        with CaptureQueriesContext(connection) as queries:
            listing(api_client, query)
        return len(queries)

    casa, value = shop.casa.pk, shop.vermelho.pk
    # then one register or forty, with their facets (41 child categories, 40 brands, 42
    # values), under a category or a value: the same queries; a search too (its count is
    # written after the answer, in the same captured queries here: a new text each time)
    assert (
        cost("limit=1")
        == cost("limit=40")
        == cost(f"condition[categoryId]={casa}&limit=40&order=-price")
        == cost(f"condition[attributeValueId][in]={value}&limit=40")
    )
    assert cost("q=extra&limit=1") == cost(f"q=extras&condition[categoryId]={casa}&limit=40")


def test_a_patch_costs_the_same_queries_for_one_changed_product_or_thirty(api_client, shop):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    storage = StorageFactory()
    made = []
    for n in range(30):
        product = ProductFactory(name=f"Extra {n}", brand=shop.alfa, main_category=shop.casa)
        ProductPriceFactory(product=product, sale_price=Decimal(10 + n))
        made.append(Stock.objects.create(product=product, storage=storage, available=1))
    listing(api_client, "limit=1")

    def cost(stocks: list[Stock]) -> int:
        for stock in stocks:
            stock.available += 1
            stock.save()
        with CaptureQueriesContext(connection) as queries:
            listing(api_client, "limit=1&order=name")
        return len(queries)

    assert cost(made[:1]) == cost(made)


def test_a_kept_listing_follows_every_change(api_client, shop):
    cheap = "condition[price][lte]=60"
    assert ids(listing(api_client, cheap)) == [shop.a.pk]
    assert api_client.get(f"{URL}?{cheap}")["X-Cache"] == "hit"
    # repriced
    price = ProductPrice.objects.get(product=shop.b)
    price.sale_price = Decimal("55.00")
    price.save()
    assert ids(listing(api_client, cheap)) == [shop.a.pk, shop.b.pk]
    # restocked
    stocked = "condition[inStock]=true"
    assert shop.b.pk not in ids(listing(api_client, stocked))
    StockFactory(product=shop.b, available=4)
    assert shop.b.pk in ids(listing(api_client, stocked))
    stock = Stock.objects.get(product=shop.b)
    stock.available = 0
    stock.save()
    assert shop.b.pk not in ids(listing(api_client, stocked))
    # renamed
    shop.b.name = "Camiseta manga longa"
    shop.b.save()
    names = [r["name"] for r in listing(api_client, cheap)["data"]["registers"]]
    assert "Camiseta manga longa" in names
    # a new review
    by_score = "order=-score"
    ProductReviewFactory(product=shop.d, score=5)
    ProductReviewFactory(product=shop.d, score=5)
    assert ids(listing(api_client, by_score))[0] == shop.d.pk
    # deactivated
    shop.a.active = False
    shop.a.save()
    assert ids(listing(api_client, cheap)) == [shop.b.pk]


def test_a_kept_register_follows_its_products_own_records_and_stock(api_client, shop, media_root):
    """A register is kept with the catalogue per product entry: a media and a variation's
    stock (both noted in the listing's journal) show in the next answer; the other
    products' registers are the same."""

    def registers():
        return {r["id"]: r for r in listing(api_client, "order=name")["data"]["registers"]}

    before = registers()
    assert before[shop.a.pk]["medias"] == []
    assert before[shop.a.pk]["stock"] == 0
    ProductMediaFactory(product=shop.a, title="Frente")
    after = registers()
    assert [media["title"] for media in after[shop.a.pk]["medias"]] == ["Frente"]
    assert {k: v for k, v in after.items() if k != shop.a.pk} == {
        k: v for k, v in before.items() if k != shop.a.pk
    }
    variation = shop.a.variations.filter(active=True).first()
    StockFactory(product=variation, available=7)
    assert registers()[shop.a.pk]["stock"] == 7
    assert registers()[shop.c.pk]["stock"] == 2


def test_a_product_change_renders_that_products_summary_again_only(api_client, shop, monkeypatch):
    from catalog.api import products

    rendered = []
    original = products.summaries_rendered

    def spy(pids, **kwargs):
        rendered.append(sorted(pids))
        return original(pids, **kwargs)

    monkeypatch.setattr(products, "summaries_rendered", spy)
    listing(api_client, "order=name")
    assert rendered == [sorted([shop.a.pk, shop.b.pk, shop.c.pk, shop.d.pk])]
    listing(api_client, "order=-name")  # another answer, the same summaries
    assert len(rendered) == 1
    shop.b.name = "Camiseta longa nova"
    shop.b.save()  # (bumps every product's versions too)
    names = [r["name"] for r in listing(api_client, "order=name")["data"]["registers"]]
    assert "Camiseta longa nova" in names
    assert rendered[1:] == [[shop.b.pk]]


def test_facets_are_counted_once_per_catalogue_and_conditions(api_client, shop, monkeypatch):
    from catalog.listing.query import CatalogueQuery

    counted = []
    real_facets = CatalogueQuery.facets

    def facets(query):
        counted.append(query.facets_key())
        return real_facets(query)

    monkeypatch.setattr(CatalogueQuery, "facets", facets)
    roupas = f"condition[categoryId]={shop.roupas.pk}"
    pages = [
        listing(api_client, f"{roupas}&limit=1&offset={n}{o}")
        for n in (0, 1)
        for o in ("", "&order=name")
    ]
    assert len(counted) == 1  # four pages and orders of one category: one count
    assert all(page["data"]["facets"] == pages[0]["data"]["facets"] for page in pages)
    assert pages[0]["data"]["facets"]["brands"] == [
        {"id": shop.alfa.pk, "name": "Alfa", "count": 2},
        {"id": shop.beta.pk, "name": "Beta", "count": 1},
    ]
    listing(api_client, f"{roupas}&condition[brandId]={shop.alfa.pk}")
    assert len(counted) == 2  # other conditions: counted apart
    # a product changed: the patched catalogue counts again, and right
    shop.c.brand = shop.beta
    shop.c.save()
    after = listing(api_client, f"{roupas}&limit=1&offset=1")
    assert len(counted) == 3
    assert after["data"]["facets"]["brands"] == [
        {"id": shop.alfa.pk, "name": "Alfa", "count": 1},
        {"id": shop.beta.pk, "name": "Beta", "count": 2},
    ]


def test_a_product_change_patches_the_catalogue_a_store_wide_one_rebuilds_it(
    api_client, shop, caplog
):
    def built_or_patched(query: str) -> list[str]:
        caplog.clear()
        answer = listing(api_client, query)
        found = [r.getMessage().split(":")[0] for r in caplog.records]
        return found, answer

    caplog.set_level(logging.DEBUG, logger="storefront.catalogue")
    assert built_or_patched("q=camiseta")[0] == ["Catalogue built"]  # the first listing
    # a variation's stock, a price, a rename, a deactivation: each patches its main product
    variation = shop.b.variations.get(active=True)
    Stock.objects.create(product=variation, storage=Storage.objects.get(), available=4)
    found, answer = built_or_patched("condition[inStock]=true")
    assert found == ["Catalogue patched"] and shop.b.pk in ids(answer)
    ProductPrice.objects.filter(product=shop.b).update(sale_price=Decimal("1.00"))  # no signal
    shop.b.name = "Camiseta comprida"
    shop.b.save()
    found, answer = built_or_patched("q=compridas")  # the search index is patched too
    assert found == ["Catalogue patched"] and ids(answer) == [shop.b.pk]
    assert answer["data"]["registers"][0]["price"]["salePrice"] == 1.0  # read again whole
    shop.a.active = False
    shop.a.save()
    found, answer = built_or_patched("q=camiseta")
    assert found == ["Catalogue patched"] and ids(answer) == [shop.b.pk]
    assert built_or_patched("q=camiseta")[0] == []  # nothing changed: kept as it is
    # a brand renamed: the facets name it, so the catalogue is built again
    shop.beta.name = "Beta Nova"
    shop.beta.save()
    found, answer = built_or_patched("")
    assert found == ["Catalogue built"]
    assert "Beta Nova" in {b["name"] for b in answer["data"]["facets"]["brands"]}


def test_a_rule_starting_later_changes_the_listing_at_its_start(api_client, shop):
    import time_machine

    start = timezone.now() + timedelta(hours=1)
    PriceRuleFactory(value=Decimal("50"), start_at=start)
    cheap = "condition[price][lte]=40"
    assert ids(listing(api_client, cheap)) == []
    with time_machine.travel(start + timedelta(seconds=1)):
        # 50 -> 25 and 80 -> 40
        assert ids(listing(api_client, cheap)) == [shop.a.pk, shop.b.pk]


def test_a_request_older_than_the_catalogue_keeps_no_prices(api_client, shop):
    """A request that took its moment before a rule started, served the catalogue another
    request built after the start, renders its prices at its moment and keeps none of them
    for the requests after it."""
    import time_machine
    from django.test import RequestFactory

    from catalog.api.products import listing_registers
    from catalog.selectors.listing import catalogue_get

    start = timezone.now() + timedelta(hours=1)
    PriceRuleFactory(value=Decimal("50"), start_at=start)
    with time_machine.travel(start + timedelta(seconds=1)):
        catalogue = catalogue_get(moment=timezone.now())  # built after the start
    older = start - timedelta(seconds=1)
    rows = [catalogue.products[catalogue.position[shop.a.pk]]]
    request = RequestFactory().get(URL)
    (register,) = listing_registers(rows, request=request, moment=older, catalogue=catalogue)
    assert orjson.loads(orjson.dumps(register))["price"]["salePrice"] == 50.0
    with time_machine.travel(start + timedelta(seconds=2)):
        registers = listing(api_client, "limit=100")["data"]["registers"]
    assert {r["id"]: r["price"]["salePrice"] for r in registers}[shop.a.pk] == 25.0


def test_a_get_writes_nothing(api_client, shop, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        listing(api_client, f"condition[categoryId]={shop.roupas.pk}&order=-price")
        api_client.get(f"/publics/products/{shop.a.pk}")
    written = [q["sql"] for q in queries if is_write(q["sql"])]  # (a UNION opens with "(")
    assert written == []


def test_head_answers_as_get_without_a_body(api_client, shop):
    got = api_client.get(URL)
    head = api_client.head(URL)
    assert head.status_code == 200 and head.content == b""
    assert head["ETag"] == got["ETag"]


def test_the_registers_price_carries_the_stores_payment_terms(api_client, shop):
    from storefront.models import PaymentOption, PaymentOptionKind

    before = listing(api_client, "limit=1")["data"]["registers"][0]
    assert before["price"]["priceWithDiscount"] == 50.0
    PaymentOption.objects.create(
        kind=PaymentOptionKind.CASH_DISCOUNT,
        name="Pix",
        is_default=True,
        discount_percentage=Decimal("10"),
    )
    first = listing(api_client, "limit=1")["data"]["registers"][0]
    assert first["price"]["salePrice"] == 50.0
    assert first["price"]["priceWithDiscount"] == 45.0
