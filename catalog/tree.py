"""Category tree building (pure: plain rows in, plain dicts out, no ORM).

A category is visible when it and every ancestor are active (orphans and cycles never
appear). Siblings are ordered by position, then name (case-insensitive), then id.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# A category as the API shows it: {id, name, url, ...} (full-tree nodes add `children`).
Node = dict[str, Any]


@dataclass(frozen=True, slots=True)
class CategoryRow:
    id: int
    name: str
    url: str
    parent_id: int | None
    active: bool
    position: int


@dataclass(frozen=True)
class CategoryIndex:
    rows: dict[int, CategoryRow]
    children: dict[int | None, list[int]]

    def node(self, category_id: int) -> Node:
        row = self.rows[category_id]
        return {"id": row.id, "name": row.name, "url": row.url}

    def is_visible(self, category_id: int) -> bool:
        return category_id in self.rows

    def ancestors(self, category_id: int) -> list[int]:
        chain: list[int] = []
        parent_id = self.rows[category_id].parent_id
        while parent_id is not None:
            chain.append(parent_id)
            parent_id = self.rows[parent_id].parent_id
        chain.reverse()
        return chain


def build_index(rows: Iterable[CategoryRow]) -> CategoryIndex:
    by_parent: dict[int | None, list[CategoryRow]] = defaultdict(list)
    for row in sorted(rows, key=lambda row: (row.position, row.name.casefold(), row.id)):
        by_parent[row.parent_id].append(row)

    visible: dict[int, CategoryRow] = {}
    children: dict[int | None, list[int]] = {}
    stack: list[int | None] = [None]
    while stack:
        parent_id = stack.pop()
        kept = [row for row in by_parent.get(parent_id, ()) if row.active and row.id not in visible]
        children[parent_id] = [row.id for row in kept]
        for row in kept:
            visible[row.id] = row
            stack.append(row.id)
    return CategoryIndex(rows=visible, children=children)


def full_tree(index: CategoryIndex) -> list[Node]:
    """Nested full-tree nodes {id, name, url, children} of every visible category."""
    nodes = {category_id: {**index.node(category_id), "children": []} for category_id in index.rows}
    for parent_id, child_ids in index.children.items():
        if parent_id is None:
            continue
        nodes[parent_id]["children"] = [nodes[child_id] for child_id in child_ids]
    return [nodes[root_id] for root_id in index.children.get(None, [])]


def specific_tree(index: CategoryIndex, category_id: int) -> dict[str, Any] | None:
    """{current, children, sisters, parent} for a visible category, else None."""
    if not index.is_visible(category_id):
        return None
    row = index.rows[category_id]
    return {
        "current": index.node(category_id),
        "children": [index.node(child) for child in index.children.get(category_id, [])],
        "sisters": [
            index.node(sister)
            for sister in index.children.get(row.parent_id, [])
            if sister != category_id
        ],
        "parent": [index.node(ancestor) for ancestor in index.ancestors(category_id)],
    }


def breadcrumb(index: CategoryIndex, category_id: int | None) -> list[Node]:
    """Category nodes from the root down to the category itself (empty when hidden)."""
    if category_id is None or not index.is_visible(category_id):
        return []
    return [index.node(i) for i in (*index.ancestors(category_id), category_id)]


def with_ancestors(index: CategoryIndex, category_ids: Iterable[int]) -> frozenset[int]:
    """The given categories plus the ancestors of the visible ones."""
    result: set[int] = set()
    for category_id in category_ids:
        result.add(category_id)
        if index.is_visible(category_id):
            result.update(index.ancestors(category_id))
    return frozenset(result)
