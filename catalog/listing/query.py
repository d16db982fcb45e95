"""One listing request over a Catalogue (pure: plain data in and out, no ORM, no clock).

A query is the list stack's (apikit): `filter(*Q)` with the listing FilterSet's conditions,
`order_by(*paths)` from StrictOrdering, then `count()` and a slice, so its parameters are
parsed and refused exactly as every list's; `facets()` counts each facet value under every
condition but the facet's own (disjunctive counts).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from functools import cached_property
from typing import Any

from django.db.models import Q

from ..search import Match, Query
from .catalogue import Catalogue, ListedProduct, _members, _positions


class UnknownCondition(Exception):
    """A condition the listing cannot evaluate (the FilterSet refuses it first)."""


def _operand_ids(lookup: str, value: Any) -> list[int]:
    return list(value) if lookup == "in" else [value]


DEFAULT_ORDER = ("-priority", "name", "id")
RELEVANCE = "relevance"


class CatalogueQuery:
    """One listing request over a Catalogue: conditions by facet, then an order."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.groups: dict[str, int] = {}  # facet key -> mask of its conditions (AND-ed)
        self.selected: dict[str, set[int]] = {}  # facet key -> ids the conditions name
        self.category_ids: list[int] = []  # the filtered category, when one is named
        self.paths: tuple[str, ...] = DEFAULT_ORDER
        self.match: Match | None = None  # what `q` found (None: no search)
        self.asked: list[tuple[str, Any]] = []  # the search and conditions, as applied

    def facets_key(self) -> tuple[tuple[str, Any], ...]:
        """What `facets()` depends on besides the catalogue: two queries of one catalogue
        with equal keys count equal facets (their page, order and fields aside)."""
        return tuple(self.asked)

    def search(self, query: Query) -> CatalogueQuery:
        """Only the products every word of `query` finds (catalog/search.py)."""
        if query:
            self.asked.append(("q", query))
            self.match = self.catalogue.search_index.search(query)
            self._and("q", self.match.mask)
        return self

    def _and(self, key: str, mask: int) -> None:
        self.groups[key] = self.groups.get(key, self.catalogue.everything) & mask

    def filter(self, *conditions: Q) -> CatalogueQuery:
        for condition in conditions:
            for child in condition.children:  # (name, value) pairs: FilterSet's Q objects
                name, value = child  # type: ignore[misc]  # a Q's children may be Q's elsewhere
                self._apply(str(name), value, negated=condition.negated)
        return self

    def _apply(self, name: str, value: Any, *, negated: bool) -> None:
        catalogue = self.catalogue
        field_name, _, lookup = name.rpartition("__")
        if negated:
            raise UnknownCondition(name)
        many = isinstance(value, list | tuple | set | frozenset)  # (a key: hashable)
        self.asked.append((name, tuple(value) if many else value))
        if field_name == "price":
            low = value if lookup in ("gt", "gte", "exact") else None
            high = value if lookup in ("lt", "lte", "exact") else None
            self._and("price", catalogue.price_range(low, high, strict=lookup in ("gt", "lt")))
        elif field_name == "in_stock":
            stock = catalogue.in_stock_mask
            self._and("in_stock", stock if value else catalogue.everything & ~stock)
        elif field_name in ("category", "brand", "seal"):
            ids = _operand_ids(lookup, value)
            masks = {
                "category": catalogue.category_masks,
                "brand": catalogue.brand_masks,
                "seal": catalogue.seal_masks,
            }[field_name]
            self.selected.setdefault(field_name, set()).update(ids)
            if field_name == "category":  # a hidden category (inactive, unknown) lists nothing
                self.category_ids = ids
                ids = [i for i in ids if catalogue.labels.categories.is_visible(i)]
            self._and(field_name, _mask_of(masks, ids))
        elif field_name == "attribute_value":
            by_attribute: dict[int | None, list[int]] = {}
            for value_id in _operand_ids(lookup, value):
                by_attribute.setdefault(catalogue.value_attribute.get(value_id), []).append(
                    value_id
                )
            for attribute_id, value_ids in by_attribute.items():
                key = f"attribute:{attribute_id}"
                self.selected.setdefault(key, set()).update(value_ids)
                self._and(key, _mask_of(catalogue.value_masks, value_ids))
        else:
            raise UnknownCondition(name)

    def order_by(self, *paths: str) -> CatalogueQuery:
        """`relevance` first: by relevance (ties: the default order); after another key it
        adds nothing (each key already orders every product)."""
        if paths and paths[0].lstrip("-") == RELEVANCE:
            self.paths = (paths[0],)
        else:
            self.paths = tuple(path for path in paths if path.lstrip("-") != RELEVANCE)
        return self

    def _matching(self, *but: str) -> int:
        mask = self.catalogue.everything
        for key, group in self.groups.items():
            if key not in but:
                mask &= group
        return mask

    @cached_property
    def mask(self) -> int:
        return self._matching()

    def count(self) -> int:
        return self.mask.bit_count()

    def __getitem__(self, page: slice) -> list[ListedProduct]:
        start, stop = page.start or 0, page.stop
        relevance = next((p for p in self.paths[:1] if p.lstrip("-") == RELEVANCE), None)
        if relevance is None:
            chosen = self.catalogue.page([self.mask], self.paths, start, stop)
        else:  # by `ranked`'s key (no search: the default order), only the page sorted
            groups = [self.mask] if self.match is None else self.match.groups(self.mask)
            reverse = relevance.startswith("-")
            chosen = self.catalogue.page(groups, DEFAULT_ORDER, start, stop, reverse=reverse)
        return [self.catalogue.products[i] for i in chosen]

    def facets(self) -> dict[str, Any]:
        """{categories, brands, attributes, price}: each value's count under every condition
        but its facet's own; a value shows when it counts a product or is selected."""
        catalogue, labels = self.catalogue, self.catalogue.labels

        def counted(mask: int, masks: dict[int, int], key: str, ids: Iterable[int]):
            chosen = self.selected.get(key, set())
            for item_id in ids:
                count = (mask & masks.get(item_id, 0)).bit_count()
                if count or item_id in chosen:
                    yield item_id, count

        parent = self.category_ids[0] if len(set(self.category_ids)) == 1 else None
        children = (
            labels.categories.children.get(parent, [])
            if parent is None or (labels.categories.is_visible(parent))
            else []
        )
        others = self._matching("category")
        categories = [
            {"id": i, "name": labels.categories.rows[i].name, "count": count}
            for i, count in counted(others, catalogue.category_masks, "", children)
            if count
        ]
        names = dict(labels.brands)
        brands = [
            {"id": i, "name": names[i], "count": count}
            for i, count in counted(self._matching("brand"), catalogue.brand_masks, "brand", names)
        ]
        attributes = []
        for attribute in labels.attributes:
            key = f"attribute:{attribute.id}"
            value_labels = dict(attribute.values)
            values = [
                {"id": i, "label": value_labels[i], "count": count}
                for i, count in counted(
                    self._matching(key), catalogue.value_masks, key, value_labels
                )
            ]
            if values:
                attributes.append({"id": attribute.id, "name": attribute.name, "values": values})
        return {
            "categories": categories,
            "brands": brands,
            "attributes": attributes,
            "price": self._price_facet(self._matching("price")),
        }

    def suggested(self, query: Query, *, limit: int) -> dict[str, list[dict[str, Any]]]:
        """{categories, brands}: those whose name a word of `query` finds, holding a
        product the whole query finds; at most `limit` of each, most products first."""
        catalogue = self.catalogue
        labels, index = catalogue.label_index
        named = 0
        for word in query.words:
            named |= index.search(Query((word,))).mask
        found: dict[str, list[tuple[int, str, int, str]]] = {"category": [], "brand": []}
        masks = {"category": catalogue.category_masks, "brand": catalogue.brand_masks}
        for position in _positions(_members(named, len(labels))):
            kind, item_id, name = labels[position]
            count = (masks[kind].get(item_id, 0) & self.mask).bit_count()
            if count:
                found[kind].append((-count, name.casefold(), item_id, name))
        return {
            plural: [{"id": row[2], "name": row[3]} for row in sorted(found[kind])[:limit]]
            for kind, plural in (("category", "categories"), ("brand", "brands"))
        }

    def _price_facet(self, mask: int) -> dict[str, Decimal | None]:
        low, high = self.catalogue.price_bounds(mask)
        return {"min": low, "max": high}


def _mask_of(masks: dict[int, int], ids: Iterable[int]) -> int:
    mask = 0
    for item_id in ids:
        mask |= masks.get(item_id, 0)
    return mask
