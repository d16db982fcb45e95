"""Search in Portuguese on GET /publics/products (`q`) and suggest (issue 32, item 3):
the golden searches, hostile text, the counted searches and their admin report."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalog.models import Product, SearchCount
from catalog.selectors.searches import popular_searches_forget
from tests.catalog.factories import (
    BrandFactory,
    CategoryFactory,
    ProductDescriptionFactory,
    ProductFactory,
    ProductPriceFactory,
)
from tests.helpers import PRODUCT_SUMMARY_KEYS, assert_error, cold_caches

pytestmark = pytest.mark.django_db

URL = "/publics/products"
SUGGEST = "/publics/products/suggest"


class Store:
    """Roupas > Camisetas, Roupas > Calças, Mercearia; brands Alfa and Beta."""

    def __init__(self):
        roupas = CategoryFactory(name="Roupas")
        self.camisetas = CategoryFactory(name="Camisetas", parent=roupas)
        calcas = CategoryFactory(name="Calças", parent=roupas)
        mercearia = CategoryFactory(name="Mercearia")
        self.alfa = BrandFactory(name="Alfa")
        self.beta = BrandFactory(name="Beta")

        def product(name, sku, category, brand=None, *, description="", priority=0):
            made = ProductFactory(
                name=name, sku=sku, main_category=category, brand=brand, priority=priority
            )
            ProductPriceFactory(product=made, sale_price=Decimal("10.00"))
            if description:
                ProductDescriptionFactory(product=made, name=name, search_description=description)
            return made

        self.basica = product("Camiseta Básica", "CAM-001", self.camisetas, self.alfa)
        self.estampada = product(
            "Camiseta Estampada", "CAM-002", self.camisetas, self.beta, description="algodão"
        )
        self.calca = product("Calça Jeans", "CAL-001", calcas, self.alfa)
        self.cafe = product("Café Torrado em Grãos", "CAF-001", mercearia)
        self.caneca = product("Caneca para café", "CAN-001", mercearia)
        self.filtro = product(
            "Filtro de papel", "FIL-001", mercearia, description="para café", priority=10
        )
        self.limao = product("Limão Siciliano", "LIM-001", mercearia)
        self.colecao = product("Coleção Verão", "COL-001", roupas)
        self.jaqueta = product("Jaqueta", "BASICA", roupas, self.beta)
        self.hidden = ProductFactory(name="Camiseta oculta", sku="CAM-X", show_in_site=False)


@pytest.fixture
def staff_client(client, settings):
    from django.contrib.auth import get_user_model
    from django.utils import translation

    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x-pass-123")
    client.force_login(user)
    yield client
    translation.deactivate()  # the admin's middleware leaves its language active


@pytest.fixture
def store():
    return Store()


def found(api_client, query, **extra):
    response = api_client.get(URL, {"q": query, **extra})
    assert response.status_code == 200, response.content
    return [register["id"] for register in response.json()["data"]["registers"]]


GOLDEN = [
    # accents and case
    ("cafe", ["cafe", "caneca", "filtro"]),  # name matches first, then the rest
    ("CALCA", ["calca"]),
    ("café", ["cafe", "caneca", "filtro"]),
    # plurals and stems
    ("camisetas", ["basica", "estampada"]),
    ("calças", ["calca"]),
    ("limões", ["limao"]),
    ("grão", ["cafe"]),
    ("coleções verões", ["colecao"]),
    # one typo in a word of five letters or more
    ("camizeta", ["basica", "estampada"]),
    ("camsieta", ["basica", "estampada"]),  # a transposition
    ("siciliamo", ["limao"]),
    ("cafa", []),  # four letters: no typo allowed
    # every word, anywhere: brand, category, search description
    ("camiseta alfa", ["basica"]),
    ("camiseta algodão", ["estampada"]),
    ("camiseta jeans", []),
    ("mercearia limao", ["limao"]),
    ("roupas beta", ["estampada", "jaqueta"]),
    ("caneca de café", ["caneca"]),  # a stop word left out when others remain
    # an exact SKU first, then matches in the name
    ("basica", ["jaqueta", "basica"]),
    ("cam-002", ["estampada"]),
    ("CAF-001", ["cafe"]),
    # what nobody sells
    ("bicicleta", []),
]


@pytest.mark.parametrize(("query", "expected"), GOLDEN)
def test_the_golden_searches(api_client, store, query, expected):
    assert found(api_client, query) == [getattr(store, name).pk for name in expected]


def test_relevance_is_the_default_with_q_and_another_order_may_be_asked(api_client, store):
    by_relevance = found(api_client, "cafe")
    assert found(api_client, "cafe", order="relevance") == by_relevance
    assert found(api_client, "cafe", order="-relevance") == by_relevance[::-1]
    assert found(api_client, "cafe", order="name") == [
        store.cafe.pk,
        store.caneca.pk,
        store.filtro.pk,
    ]
    # relevance after another key adds nothing; before one, it decides
    assert found(api_client, "cafe", order="name,relevance") == found(
        api_client, "cafe", order="name"
    )
    assert found(api_client, "cafe", order="relevance,-name") == by_relevance
    # without q, relevance is the default order (priority, then name)
    first = api_client.get(URL, {"order": "relevance"}).json()["data"]["registers"][0]
    assert first["id"] == store.filtro.pk


def test_facets_and_conditions_apply_q(api_client, store):
    body = api_client.get(URL, {"q": "camiseta"}).json()["data"]
    assert body["pagination"]["registers"] == 2
    assert body["facets"]["brands"] == [
        {"id": store.alfa.pk, "name": "Alfa", "count": 1},
        {"id": store.beta.pk, "name": "Beta", "count": 1},
    ]
    assert found(api_client, "camiseta", **{"condition[brandId]": store.beta.pk}) == [
        store.estampada.pk
    ]
    narrowed = api_client.get(URL, {"q": "camiseta", "condition[brandId]": store.beta.pk}).json()[
        "data"
    ]
    # disjunctive: the brand facet still counts Alfa under q
    assert [brand["count"] for brand in narrowed["facets"]["brands"]] == [1, 1]
    assert narrowed["pagination"]["registers"] == 1


def test_a_hidden_product_is_never_found(api_client, store):
    assert store.hidden.pk not in found(api_client, "camiseta")
    assert found(api_client, "CAM-X") == []


def test_registers_are_the_listings(api_client, store):
    register = api_client.get(URL, {"q": "CAM-001"}).json()["data"]["registers"][0]
    assert list(register) == [*PRODUCT_SUMMARY_KEYS, "price", "review"]
    assert register["price"]["salePrice"] == 10.0


@pytest.mark.parametrize(
    "query",
    [
        *("", " ", "   ", "x" * 101, "caf\x00e", "caf\x01e", "a\tb"),
        *("%", "_", "'", '"', "%_'\"", "\u200b"),
    ],
)
def test_hostile_q_is_a_clear_422(api_client, store, query):
    data = assert_error(api_client.get(URL, {"q": query}), 422, "VALIDATION_ERROR")
    assert list(data["errors"]) == ["q"]
    data = assert_error(api_client.get(SUGGEST, {"q": query}), 422, "VALIDATION_ERROR")
    assert list(data["errors"]) == ["q"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("cafe%", ["cafe", "caneca", "filtro"]),
        ("_cafe_", ["cafe", "caneca", "filtro"]),
        ("'camiseta' \"alfa\"", ["basica"]),
        ("camiseta' OR 1=1 --", []),
        ("cafe  caneca", ["caneca"]),
        ("á" * 100, []),
        ("CAM-001%", []),
    ],
)
def test_odd_q_is_a_normal_answer(api_client, store, query, expected):
    assert found(api_client, query) == [getattr(store, name).pk for name in expected]


def test_q_errors_join_the_lists_one_422(api_client, store):
    data = assert_error(api_client.get(f"{URL}?q=&limit=0&order=x"), 422, "VALIDATION_ERROR")
    assert list(data["errors"]) == ["limit", "order", "q"]
    data = assert_error(api_client.get(f"{URL}?q=a&q=b"), 422, "VALIDATION_ERROR")
    assert list(data["errors"]) == ["q"]
    assert_error(api_client.get(SUGGEST), 422, "VALIDATION_ERROR")


def test_queries_do_not_grow_with_limit(api_client, store):
    for n in range(30):
        made = ProductFactory(name=f"Camiseta extra {n}", main_category=store.camisetas)
        ProductPriceFactory(product=made, sale_price=Decimal(10 + n))
    api_client.get(URL, {"q": "camiseta", "limit": 1})

    def cost(path, params):
        cold_caches()
        popular_searches_forget()
        with CaptureQueriesContext(connection) as queries:
            assert api_client.get(path, params).status_code == 200
        return len(queries)

    assert cost(URL, {"q": "camiseta", "limit": 1}) == cost(URL, {"q": "camiseta", "limit": 30})
    assert cost(SUGGEST, {"q": "ca"}) == cost(SUGGEST, {"q": "camiseta"})


def test_suggest_matches_the_last_word_as_a_prefix(api_client, store):
    body = api_client.get(SUGGEST, {"q": "cami"}).json()
    assert list(body) == ["products", "categories", "brands", "searches"]
    assert [p["id"] for p in body["products"]] == [store.basica.pk, store.estampada.pk]
    assert list(body["products"][0]) == [*PRODUCT_SUMMARY_KEYS, "price", "review"]
    assert body["categories"] == [{"id": store.camisetas.pk, "name": "Camisetas"}]
    assert body["brands"] == []
    body = api_client.get(SUGGEST, {"q": "camiseta alf"}).json()
    assert [p["id"] for p in body["products"]] == [store.basica.pk]
    assert body["brands"] == [{"id": store.alfa.pk, "name": "Alfa"}]
    # only the last word is a prefix
    assert api_client.get(SUGGEST, {"q": "cami alfa"}).json()["products"] == []


def test_suggest_is_routed_before_the_product_page(api_client, store):
    for path in (SUGGEST, "/api/v3/publics/products/suggest", f"{SUGGEST}/"):
        response = api_client.get(path, {"q": "caf"})
        assert response.status_code == 200, path
        assert [p["id"] for p in response.json()["products"]][:1] == [store.cafe.pk]


def test_suggest_at_most_six_products_four_categories_and_brands(api_client, store):
    for n in range(8):
        category = CategoryFactory(name=f"Linha {n}")
        brand = BrandFactory(name=f"Linha marca {n}")
        made = ProductFactory(name=f"Linha {n}", main_category=category, brand=brand)
        ProductPriceFactory(product=made, sale_price=Decimal("5.00"))
    body = api_client.get(SUGGEST, {"q": "lin"}).json()
    assert len(body["products"]) == 6
    assert len(body["categories"]) == 4
    assert len(body["brands"]) == 4


def test_searches_are_counted_per_week_after_the_answer(api_client, store):
    for query in ("Camisetas", "camisetas", "CAMISETAS", "bicicleta"):
        found(api_client, query)
    found(api_client, "camisetas", limit=1)  # a kept answer is counted too
    api_client.get(URL, {"q": "%"})  # refused: not counted
    api_client.get(SUGGEST, {"q": "camis"})  # typing: not counted
    today = timezone.localdate()
    week = today - timedelta(days=today.weekday())
    rows = {row.query: row for row in SearchCount.objects.all()}
    assert set(rows) == {"camisetas", "bicicleta"}
    assert (rows["camisetas"].week, rows["camisetas"].searches) == (week, 4)
    assert (rows["camisetas"].results, rows["camisetas"].found_nothing) == (2, False)
    assert (rows["bicicleta"].searches, rows["bicicleta"].found_nothing) == (1, True)


def test_suggest_offers_popular_searches_that_found_something(api_client, store):
    for query, times in (("camiseta", 3), ("camisetas", 1), ("calca", 2), ("camelo", 5)):
        for _ in range(times):
            found(api_client, query)
    SearchCount.objects.create(
        week=timezone.localdate() - timedelta(days=40), query="camiseta velha", searches=99
    )
    popular_searches_forget()
    cold_caches()
    # "camelo" found nothing; "camiseta velha" is older than 14 days
    assert api_client.get(SUGGEST, {"q": "Cam"}).json()["searches"] == ["camiseta", "camisetas"]
    assert api_client.get(SUGGEST, {"q": "calç"}).json()["searches"] == ["calca"]


def test_a_renamed_product_is_found_by_its_new_name(api_client, store):
    assert found(api_client, "bicicleta") == []
    Product.objects.filter(pk=store.limao.pk).update(name="Bicicleta")
    store.limao.refresh_from_db()
    store.limao.save()  # the admin's save: the catalogue is rebuilt
    assert found(api_client, "bicicletas") == [store.limao.pk]
    assert [p["id"] for p in api_client.get(SUGGEST, {"q": "bici"}).json()["products"]] == [
        store.limao.pk
    ]
    description = ProductDescriptionFactory(product=store.jaqueta, search_description="couro")
    assert found(api_client, "couro") == [store.jaqueta.pk]
    description.delete()
    assert found(api_client, "couro") == []


def test_the_admin_reports_the_weeks_searches_in_portuguese(staff_client, store):
    today = timezone.localdate()
    week = today - timedelta(days=today.weekday())
    SearchCount.objects.create(week=week, query="camiseta", searches=7, results=2)
    SearchCount.objects.create(week=week, query="bicicleta", searches=3, found_nothing=True)
    SearchCount.objects.create(week=week - timedelta(days=7), query="antiga", searches=50)
    url = "/admin/catalog/searchcount/"
    page = staff_client.get(url).content.decode()
    assert page.index("camiseta") < page.index("bicicleta")  # most searched first
    assert "antiga" not in page  # this week by default
    assert "Esta semana" in page and "Não encontrou nada" in page
    nothing = staff_client.get(f"{url}?found_nothing__exact=1").content.decode()
    assert "bicicleta" in nothing and "camiseta" not in nothing
    earlier = staff_client.get(f"{url}?week={(week - timedelta(days=7)).isoformat()}")
    assert "antiga" in earlier.content.decode()
    assert staff_client.get(f"{url}?week=nonsense").status_code == 200
