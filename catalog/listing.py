"""The catalogue listing's query (pure: plain data in and out, no ORM, no clock).

`Catalogue` holds every listed product as plain data with a bit mask (a Python int, bit i
for the i-th product) per category (its whole subtree), brand, attribute value, seal and
stock state. A query is the list stack's (apikit): `filter(*Q)` with the listing
FilterSet's conditions, `order_by(*paths)` from StrictOrdering, then `count()` and a slice,
so its parameters are parsed and refused exactly as every list's; `facets()` counts each
facet value under every condition but the facet's own (disjunctive counts).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from functools import cached_property
from typing import Any

from django.db.models import Q

from .pricing import ProductData, StoredPrice
from .search import Match, Query, Searchable, SearchIndex, bits, ranked
from .tree import CategoryIndex


@dataclass(frozen=True)
class ListedProduct:
    id: int
    name: str
    priority: int
    created_at: datetime
    brand_id: int | None
    category_ids: frozenset[int]  # main and linked categories, with their ancestors
    value_ids: frozenset[int]  # filterable values of it and of its active variations
    seal_ids: frozenset[int]  # seals live on it when the catalogue was built
    sale_price: Decimal  # the Price's salePrice (trade policy price after the live rules)
    in_stock: bool
    score: Decimal  # the review average (0 without reviews)
    reviews: int
    pricing: ProductData
    stored_price: StoredPrice | None
    review_counts: tuple[int, ...] | None = None  # approved reviews per score 1..5
    verified_reviews: int = 0  # approved reviews by buyers (the opt-in `verifiedReviews`)
    searchable: Searchable | None = None  # what search finds it by (catalog/search.py)


@dataclass(frozen=True)
class AttributeFacet:
    id: int
    name: str
    values: tuple[tuple[int, str], ...]  # (value id, label) in display order


@dataclass(frozen=True)
class Labels:
    """What the facets name: brands by name, filterable attributes, the category tree."""

    brands: tuple[tuple[int, str], ...]
    attributes: tuple[AttributeFacet, ...]
    categories: CategoryIndex


# The order keys StrictOrdering passes (API name -> these paths in the view).
ORDER_KEYS: dict[str, Callable[[ListedProduct], Any]] = {
    "priority": lambda p: p.priority,
    "name": lambda p: p.name.casefold(),
    "price": lambda p: p.sale_price,
    "created_at": lambda p: p.created_at,
    "score": lambda p: (p.score, p.reviews),  # equal averages: more reviews first when desc
    "id": lambda p: p.id,
}


_mask = bits  # the int with bit i set for each position i


def _positions(members: str) -> list[int]:
    """The positions of the '1's of `_members`."""
    found = []
    position = members.find("1")
    while position != -1:
        found.append(position)
        position = members.find("1", position + 1)
    return found


def _members(mask: int, size: int) -> str:
    """'1' at each position in the mask (mask bit i is character i)."""
    return format(mask, f"0{size}b")[::-1] if size else ""


PRICE_BLOCK = 256
SPARSE = 16  # a query matching under 1/SPARSE of the products sorts its matches


class UnknownCondition(Exception):
    """A condition the listing cannot evaluate (the FilterSet refuses it first)."""


@dataclass
class Catalogue:
    products: Sequence[ListedProduct]
    labels: Labels
    # The next moment the catalogue changes by itself (a rule's or seal's start or end).
    valid_until: datetime | None = None
    # products the words of a normalized `q` find in the whole catalogue (counted searches)
    search_totals: dict[str, int] = field(default_factory=dict, repr=False)
    _orders: dict[tuple[str, ...], list[int]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.size = len(self.products)
        self.everything = (1 << self.size) - 1
        self.position = {product.id: i for i, product in enumerate(self.products)}
        categories: dict[int, list[int]] = {}
        brands: dict[int, list[int]] = {}
        values: dict[int, list[int]] = {}
        seals: dict[int, list[int]] = {}
        for i, product in enumerate(self.products):
            for category_id in product.category_ids:
                categories.setdefault(category_id, []).append(i)
            if product.brand_id is not None:
                brands.setdefault(product.brand_id, []).append(i)
            for value_id in product.value_ids:
                values.setdefault(value_id, []).append(i)
            for seal_id in product.seal_ids:
                seals.setdefault(seal_id, []).append(i)
        self.category_masks = {key: _mask(found) for key, found in categories.items()}
        self.brand_masks = {key: _mask(found) for key, found in brands.items()}
        self.value_masks = {key: _mask(found) for key, found in values.items()}
        self.seal_masks = {key: _mask(found) for key, found in seals.items()}
        self.in_stock_mask = _mask(i for i, p in enumerate(self.products) if p.in_stock)
        self.value_attribute = {
            value_id: attribute.id
            for attribute in self.labels.attributes
            for value_id, _label in attribute.values
        }
        # positions by ascending price, for ranges and the price facet's min and max
        self.by_price = sorted(range(self.size), key=lambda i: self.products[i].sale_price)
        self.sorted_prices = [self.products[i].sale_price for i in self.by_price]
        # masks of PRICE_BLOCK consecutive positions of `by_price`: a range ORs whole blocks
        self.price_blocks = [
            _mask(self.by_price[start : start + PRICE_BLOCK])
            for start in range(0, self.size, PRICE_BLOCK)
        ]

    @cached_property
    def search_index(self) -> SearchIndex:
        """The inverted index of the products' words (built at the first search)."""
        return SearchIndex(
            [p.searchable or Searchable(name=p.name, others=(), sku="") for p in self.products]
        )

    @cached_property
    def label_index(self) -> tuple[list[tuple[str, int, str]], SearchIndex]:
        """The visible categories' and the brands' names, for suggest: (kind, id, name) at
        each position of their index."""
        categories = self.labels.categories.rows
        labels = [("category", row.id, row.name) for row in categories.values()]
        labels += [("brand", brand_id, name) for brand_id, name in self.labels.brands]
        return labels, SearchIndex([Searchable(name=n, others=(), sku="") for *_, n in labels])

    def current_at(self, moment: datetime) -> bool:
        return self.valid_until is None or moment < self.valid_until

    def query(self) -> CatalogueQuery:
        return CatalogueQuery(self)

    def ordered(self, paths: tuple[str, ...]) -> list[int]:
        """Every position in the order of `paths` ("-name", "id", ...), kept per order."""
        found = self._orders.get(paths)
        if found is None:
            found = list(range(self.size))
            for path in reversed(paths):  # stable sorts, last key first
                key = ORDER_KEYS[path.lstrip("-")]
                found.sort(key=lambda i: key(self.products[i]), reverse=path.startswith("-"))
            if len(self._orders) > 64:
                self._orders.clear()
            self._orders[paths] = found
        return found

    def ranks(self, paths: tuple[str, ...]) -> list[int]:
        """Each position's place in the order of `paths` (kept per order)."""
        key = ("rank", *paths)
        found = self._orders.get(key)
        if found is None:
            found = [0] * self.size
            for place, position in enumerate(self.ordered(paths)):
                found[position] = place
            self._orders[key] = found
        return found

    def price_range(self, low: Decimal | None, high: Decimal | None, *, strict: bool) -> int:
        """Positions priced from `low` to `high` (None: unbounded; `strict`: ends excluded)."""
        prices = self.sorted_prices
        start = (
            0
            if low is None
            else (bisect.bisect_right if strict else bisect.bisect_left)(prices, low)
        )
        stop = (
            len(prices)
            if high is None
            else (bisect.bisect_left if strict else bisect.bisect_right)(prices, high)
        )
        first, last = -(-start // PRICE_BLOCK), stop // PRICE_BLOCK  # whole blocks inside
        if first >= last:
            return _mask(self.by_price[start:stop])
        mask = _mask(self.by_price[start : first * PRICE_BLOCK])
        mask |= _mask(self.by_price[last * PRICE_BLOCK : stop])
        for block in self.price_blocks[first:last]:
            mask |= block
        return mask


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

    def search(self, query: Query) -> CatalogueQuery:
        """Only the products every word of `query` finds (catalog/search.py)."""
        if query:
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
        members = _members(self.mask, self.catalogue.size)
        relevance = next((p for p in self.paths[:1] if p.lstrip("-") == RELEVANCE), None)
        if relevance is not None:
            rank = self.catalogue.ranks(DEFAULT_ORDER)
            if self.match is None:  # no search: the default order
                chosen = sorted(_positions(members), key=rank.__getitem__)
            else:
                chosen = ranked(self.match, _positions(members), rank)
            if relevance.startswith("-"):
                chosen.reverse()
            return [self.catalogue.products[i] for i in chosen[start:stop]]
        if self.count() * SPARSE < self.catalogue.size:  # few: sort them, not every product
            rank = self.catalogue.ranks(self.paths)
            chosen = sorted(_positions(members), key=rank.__getitem__)[start:stop]
            return [self.catalogue.products[i] for i in chosen]
        found: list[ListedProduct] = []
        skipped = 0
        for i in self.catalogue.ordered(self.paths):
            if members[i] != "1":
                continue
            if skipped < start:
                skipped += 1
                continue
            if stop is not None and start + len(found) >= stop:
                break
            found.append(self.catalogue.products[i])
        return found

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
        members = _members(mask, self.catalogue.size)
        by_price, products = self.catalogue.by_price, self.catalogue.products
        if mask.bit_count() * SPARSE < self.catalogue.size:
            prices = [products[i].sale_price for i in _positions(members)]
            return {"min": min(prices, default=None), "max": max(prices, default=None)}
        low = next((products[i].sale_price for i in by_price if members[i] == "1"), None)
        high = next((products[i].sale_price for i in reversed(by_price) if members[i] == "1"), None)
        return {"min": low, "max": high}


def _mask_of(masks: dict[int, int], ids: Iterable[int]) -> int:
    mask = 0
    for item_id in ids:
        mask |= masks.get(item_id, 0)
    return mask
