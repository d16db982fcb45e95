"""GET /publics/products/categories/tree and /publics/products/categories/{id}/tree."""

import pytest

from catalog.models import Category

from .factories import CategoryFactory

pytestmark = pytest.mark.django_db

TREE = "/publics/products/categories/tree"


def subtree(category_id) -> str:
    return f"/publics/products/categories/{category_id}/tree"


def node(category: Category) -> dict:
    return {"id": category.pk, "name": category.name, "url": category.url}


@pytest.fixture
def store_tree():
    """moda (camisetas (manga-curta), calcas), casa [inactive] (cozinha), beleza."""
    moda = CategoryFactory(name="Moda", slug="moda", position=1)
    camisetas = CategoryFactory(name="Camisetas", slug="camisetas", parent=moda, position=1)
    manga = CategoryFactory(name="Manga curta", slug="manga-curta", parent=camisetas)
    calcas = CategoryFactory(name="Calças", slug="calcas", parent=moda, position=2)
    casa = CategoryFactory(name="Casa", slug="casa", position=2, active=False)
    cozinha = CategoryFactory(name="Cozinha", slug="cozinha", parent=casa)
    beleza = CategoryFactory(name="Beleza", slug="beleza", position=3)
    return {
        "moda": moda,
        "camisetas": camisetas,
        "manga": manga,
        "calcas": calcas,
        "casa": casa,
        "cozinha": cozinha,
        "beleza": beleza,
    }


def test_full_tree_nests_active_categories_and_hides_inactive_branches(api_client, store_tree):
    t = store_tree

    response = api_client.get(TREE)

    assert response.status_code == 200
    assert response.json() == [
        {
            **node(t["moda"]),
            "children": [
                {**node(t["camisetas"]), "children": [{**node(t["manga"]), "children": []}]},
                {**node(t["calcas"]), "children": []},
            ],
        },
        {**node(t["beleza"]), "children": []},
    ]


def test_urls_are_slug_paths_from_the_root(store_tree):
    assert store_tree["manga"].url == "/moda/camisetas/manga-curta"


def test_siblings_are_ordered_by_position_then_name(api_client):
    CategoryFactory(name="Zebra", slug="zebra", position=0)
    CategoryFactory(name="Bolsas", slug="bolsas", position=0)
    CategoryFactory(name="acessórios", slug="acessorios", position=0)
    CategoryFactory(name="Antes", slug="antes", position=1)

    names = [entry["name"] for entry in api_client.get(TREE).json()]

    assert names == ["acessórios", "Bolsas", "Zebra", "Antes"]


def test_tree_is_served_under_api_v3_and_with_a_trailing_slash(api_client, store_tree):
    expected = api_client.get(TREE).json()
    assert api_client.get("/api/v3" + TREE).json() == expected
    assert api_client.get(TREE + "/").json() == expected


def test_tree_answers_304_to_a_matching_etag(api_client, store_tree):
    first = api_client.get(TREE)
    assert first["ETag"] and "max-age" in first["Cache-Control"]

    again = api_client.get(TREE, HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 304


@pytest.mark.cache
def test_tree_cache_is_refreshed_when_a_category_changes(api_client, store_tree):
    api_client.get(TREE)
    store_tree["beleza"].name = "Beleza e saúde"
    store_tree["beleza"].save()

    names = [entry["name"] for entry in api_client.get(TREE).json()]

    assert "Beleza e saúde" in names


def test_renaming_a_parent_slug_rewrites_descendant_urls(api_client, store_tree):
    store_tree["moda"].slug = "roupas"
    store_tree["moda"].save()

    data = api_client.get(subtree(store_tree["manga"].pk)).json()

    assert data["current"]["url"] == "/roupas/camisetas/manga-curta"
    assert [p["url"] for p in data["parent"]] == ["/roupas", "/roupas/camisetas"]


def test_moving_a_branch_rewrites_its_urls(store_tree):
    camisetas = store_tree["camisetas"]
    camisetas.parent = store_tree["beleza"]
    camisetas.save()

    store_tree["manga"].refresh_from_db()
    assert store_tree["manga"].url == "/beleza/camisetas/manga-curta"


def test_specific_tree_has_current_children_sisters_and_ancestors(api_client, store_tree):
    t = store_tree

    response = api_client.get(subtree(t["camisetas"].pk))

    assert response.status_code == 200
    assert response.json() == {
        "current": node(t["camisetas"]),
        "children": [node(t["manga"])],
        "sisters": [node(t["calcas"])],
        "parent": [node(t["moda"])],
    }


def test_specific_tree_of_a_root_lists_other_visible_roots_as_sisters(api_client, store_tree):
    data = api_client.get(subtree(store_tree["beleza"].pk)).json()

    assert data["sisters"] == [node(store_tree["moda"])]
    assert data["parent"] == []
    assert data["children"] == []


def test_specific_tree_parent_chain_is_root_first(api_client, store_tree):
    data = api_client.get(subtree(store_tree["manga"].pk)).json()

    assert data["parent"] == [node(store_tree["moda"]), node(store_tree["camisetas"])]
    assert data["sisters"] == []


@pytest.mark.parametrize("which", ["casa", "cozinha"])
def test_inactive_or_hidden_category_is_not_found(api_client, store_tree, which):
    response = api_client.get(subtree(store_tree[which].pk))

    assert response.status_code == 404
    assert response.json() == {
        "status": False,
        "data": {
            "code": 404,
            "errorCode": "SERVICE_STORE_CATEGORY_NOT_FOUND",
            "message": f"Category {store_tree[which].pk} was not found.",
        },
    }


@pytest.mark.parametrize("category_id", ["999999", "0", "99999999999999999999", "9" * 30])
def test_unknown_or_out_of_range_category_is_not_found(api_client, store_tree, category_id):
    response = api_client.get(subtree(category_id))

    assert response.status_code == 404
    assert response.json()["data"]["errorCode"] == "SERVICE_STORE_CATEGORY_NOT_FOUND"


@pytest.mark.parametrize("category_id", ["abc", "-1", "1.5", "1e3", "%20", "12abc", "9" * 31])
def test_non_integer_category_id_is_a_validation_error(api_client, category_id):
    response = api_client.get(subtree(category_id))

    assert response.status_code == 422
    body = response.json()
    assert body["status"] is False
    assert body["data"]["errorCode"] == "VALIDATION_ERROR"
    message = "The categoryId field must be a positive integer."
    assert body["data"]["errors"] == {"categoryId": [message]}


def test_post_on_the_tree_is_method_not_allowed(api_client):
    response = api_client.post(TREE, {}, format="json")

    assert response.status_code == 405
    assert response.json()["data"]["errorCode"] == "METHOD_NOT_ALLOWED"


def make_large_tree(count: int) -> list[Category]:
    """`count` categories: 50 roots, each with children, each with grandchildren."""
    roots = Category.objects.bulk_create(
        Category(name=f"Root {i}", slug=f"root-{i}", url=f"/root-{i}", position=i)
        for i in range(50)
    )
    level2 = Category.objects.bulk_create(
        Category(name=f"Child {i}", slug=f"child-{i}", parent=roots[i % 50], url=f"/x/child-{i}")
        for i in range(950)
    )
    Category.objects.bulk_create(
        Category(name=f"Leaf {i}", slug=f"leaf-{i}", parent=level2[i % 950], url=f"/x/y/leaf-{i}")
        for i in range(count - 1000)
    )
    return level2


def test_full_tree_of_5000_categories_takes_at_most_two_queries(
    api_client, django_assert_max_num_queries
):
    make_large_tree(5000)

    with django_assert_max_num_queries(2):
        response = api_client.get(TREE)

    assert response.status_code == 200
    data = response.json()
    assert len(data) == 50
    assert sum(len(root["children"]) for root in data) == 950


def test_specific_tree_of_5000_categories_takes_at_most_two_queries(
    api_client, django_assert_max_num_queries
):
    level2 = make_large_tree(5000)

    with django_assert_max_num_queries(2):
        response = api_client.get(subtree(level2[0].pk))

    assert response.status_code == 200
    assert len(response.json()["children"]) == 5  # leaves 0, 950, 1900, 2850, 3800
