"""Reads of the category tree (built by catalog/tree.py, kept until a category changes)."""

from typing import Any

from infra.caching.kept import kept
from infra.ids import is_db_id

from ..models import Category
from ..tree import CategoryIndex, CategoryRow, build_index, full_tree, specific_tree
from .caches import CATEGORY_CACHE


def category_rows() -> list[CategoryRow]:
    """Every category as a plain row, in ONE query."""
    return [
        CategoryRow(*values)
        for values in Category.objects.order_by().values_list(
            "id", "name", "url", "parent_id", "active", "position"
        )
    ]


def category_index() -> CategoryIndex:
    """Visible categories with parents and ordered children (kept)."""
    return kept(CATEGORY_CACHE, "index", lambda: build_index(category_rows()))


def category_tree_get() -> list[dict[str, Any]]:
    """Full-tree nodes of every visible category (shared by all sales channels)."""
    return kept(CATEGORY_CACHE, "tree", lambda: full_tree(category_index()))


def category_subtree_get(*, category_id: int) -> dict[str, Any] | None:
    """{current, children, sisters, parent} of a visible category, or None."""
    if not is_db_id(category_id):
        return None
    return specific_tree(category_index(), category_id)
