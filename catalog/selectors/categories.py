"""Reads of the category tree: every category as a plain row in one query, the visible tree
built by catalog/tree.py, cached and invalidated by signals."""

from infra.cache import cached
from infra.ids import is_db_id

from ..models import Category
from ..tree import CategoryIndex, CategoryRow, build_index, full_tree, specific_tree

CATEGORY_CACHE = "categories"


def category_rows() -> list[CategoryRow]:
    """Every category as a plain row, in ONE query."""
    return [
        CategoryRow(*values)
        for values in Category.objects.order_by().values_list(
            "id", "name", "url", "parent_id", "active", "position"
        )
    ]


def category_index() -> CategoryIndex:
    """Visible categories with parents and ordered children (cached; invalidated by signals)."""
    return cached(CATEGORY_CACHE, "index", lambda: build_index(category_rows()))


def category_tree_get(*, channel: object = None) -> list[dict]:
    """Full-tree nodes of every visible category.

    Categories are shared by all sales channels of the store, so `channel` does not
    change the result (it is accepted so callers need not care).
    """
    return cached(CATEGORY_CACHE, "tree", lambda: full_tree(category_index()))


def category_subtree_get(*, category_id: int) -> dict | None:
    """{current, children, sisters, parent} of a visible category, or None."""
    if not is_db_id(category_id):
        return None
    # Cached per id ({} for a hidden or unknown id: the cache treats None as a miss).
    tree = cached(
        CATEGORY_CACHE,
        f"subtree:{category_id}",
        lambda: specific_tree(category_index(), category_id) or {},
    )
    return tree or None
