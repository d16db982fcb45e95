"""The catalogue listing's data (pure: plain data in and out, no ORM, no clock).

`Catalogue` holds every listed product as plain data with a bit mask (a Python int, bit i
for the product at position i) per category (its whole subtree), brand, attribute value, seal
and stock state, the positions by price and in each order asked, and (built at the first
search) the search index. `patched` gives a new catalogue with some products changed, added
or gone, sharing everything they do not touch (a change costs what it touches, not a
rebuild); a position once given stays its product's (a product gone leaves a hole: out of
`everything`, so of every answer). The query over it is catalog/listing/query.py.
"""

from __future__ import annotations

import bisect
import copy
import itertools
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..pricing import ProductData, StoredPrice
from ..search import Searchable, SearchIndex, bits
from ..tree import CategoryIndex

if TYPE_CHECKING:
    from .query import CatalogueQuery


@dataclass(frozen=True, slots=True)
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
    stock: int = 0  # units available (the summary's `stock`: with its active variations')
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


NOTHING_TO_FIND = Searchable(name="", others=(), sku="")


def _searchable(product: ListedProduct) -> Searchable:
    return product.searchable or Searchable(name=product.name, others=(), sku="")


_SERIALS = itertools.count(1)
POSITION = "i"  # array typecode of a position (4 bytes)
PRICE_BLOCK = 256
SPARSE = 16  # a query matching under 1/SPARSE of the products sorts its matches


@dataclass
class Catalogue:
    products: Sequence[ListedProduct]
    labels: Labels
    # The next moment the catalogue changes by itself (a rule's or seal's start or end).
    valid_until: datetime | None = None
    # The moment it was built for: from it to `valid_until` the same rules and seals apply.
    moment: datetime | None = None
    # products the words of a normalized `q` find in the whole catalogue (counted searches)
    search_totals: dict[str, int] = field(default_factory=dict, repr=False)
    # positions as 4-byte machine ints (a list holds an int object per position)
    _orders: dict[tuple[str, ...], array[int]] = field(default_factory=dict, repr=False)
    # What readers derive from the products, kept with the catalogue and shared with those
    # patched from it (so an entry names the product entry it was made of).
    kept: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.serial = next(_SERIALS)  # this catalogue's, not shared with one patched from it
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
            [
                _searchable(p) if self.everything >> i & 1 else NOTHING_TO_FIND
                for i, p in enumerate(self.products)
            ]
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
        from .query import CatalogueQuery

        return CatalogueQuery(self)

    def ordered(self, paths: tuple[str, ...]) -> array[int]:
        """Every position in the order of `paths` ("-name", "id", ...), kept per order."""
        found = self._orders.get(paths)
        if found is None:
            order = list(range(self.size))
            for path in reversed(paths):  # stable sorts, last key first
                key = ORDER_KEYS[path.lstrip("-")]
                order.sort(key=lambda i: key(self.products[i]), reverse=path.startswith("-"))
            if len(self._orders) > 64:
                self._orders.clear()
            self._orders[paths] = found = array(POSITION, order)
        return found

    def ranks(self, paths: tuple[str, ...]) -> array[int]:
        """Each position's place in the order of `paths` (kept per order)."""
        key = ("rank", *paths)
        found = self._orders.get(key)
        if found is None:
            found = array(POSITION, bytes(self.size * array(POSITION).itemsize))
            for place, position in enumerate(self.ordered(paths)):
                found[position] = place
            self._orders[key] = found
        return found

    def page(
        self,
        groups: Sequence[int],
        paths: tuple[str, ...],
        start: int,
        stop: int | None,
        *,
        reverse: bool = False,
    ) -> list[int]:
        """Positions `start:stop` of the disjoint masks `groups` one after the other, each in
        the order of `paths` (`reverse`: the whole sequence backwards). Only the page's
        positions are ordered: a group before it counts, a dense one is walked in its
        kept order up to the page's end, a sparse one sorted by its ranks."""
        found: list[int] = []
        skip, size = start, None if stop is None else max(stop - start, 0)
        for group in reversed(groups) if reverse else groups:
            if size is not None and len(found) >= size:
                break
            count = group.bit_count()
            if skip >= count:
                skip -= count
                continue
            wanted = None if size is None else size - len(found)
            found += self._slice(group, count, paths, skip, wanted, reverse=reverse)
            skip = 0
        return found

    def _slice(
        self,
        group: int,
        count: int,
        paths: tuple[str, ...],
        skip: int,
        wanted: int | None,
        *,
        reverse: bool,
    ) -> list[int]:
        """Positions `skip:skip + wanted` of `group` (of `count` positions) in `paths`'s
        order (`reverse`: backwards; ranks are distinct, so that is the reverse sort)."""
        members = _members(group, self.size)
        if count * SPARSE < self.size:  # few: sort them, not every product
            rank = self.ranks(paths)
            chosen = sorted(_positions(members), key=rank.__getitem__, reverse=reverse)
            return chosen[skip : None if wanted is None else skip + wanted]
        found: list[int] = []
        order = self.ordered(paths)
        for i in reversed(order) if reverse else order:
            if members[i] != "1":
                continue
            if skip:
                skip -= 1
                continue
            if wanted is not None and len(found) >= wanted:
                break
            found.append(i)
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

    def price_bounds(self, mask: int) -> tuple[Decimal | None, Decimal | None]:
        """The lowest and highest sale price of the positions of `mask` (None: none): the
        first and last blocks of `by_price` holding one, walked in their order."""
        if not mask:
            return None, None
        members = _members(mask, self.size)
        by_price, products = self.by_price, self.products
        first = next(k for k, block in enumerate(self.price_blocks) if block & mask)
        last = next(
            k for k in range(len(self.price_blocks) - 1, -1, -1) if self.price_blocks[k] & mask
        )
        low = next(
            products[i].sale_price
            for i in by_price[first * PRICE_BLOCK : (first + 1) * PRICE_BLOCK]
            if members[i] == "1"
        )
        high = next(
            products[i].sale_price
            for i in reversed(by_price[last * PRICE_BLOCK : (last + 1) * PRICE_BLOCK])
            if members[i] == "1"
        )
        return low, high

    def patched(self, entries: Mapping[int, ListedProduct | None]) -> Catalogue:
        """A new catalogue where each product id of `entries` is its entry (None: no longer
        listed). Structures the change does not touch are shared with this catalogue, which
        stays as it was (requests holding it finish on it)."""
        new = copy.copy(self)
        new.serial = next(_SERIALS)
        new.products = products = list(self.products)
        new.position = position = dict(self.position)
        new.search_totals, new._orders = {}, {}
        masks = {name: dict(getattr(self, name)) for name in _MASKS}
        everything, in_stock = self.everything, self.in_stock_mask
        moved: list[int] = []  # positions whose entry changed (live or not)
        searchables: dict[int, Searchable] = {}
        for product_id, entry in entries.items():
            i = position.get(product_id)
            if i is None:
                if entry is None:
                    continue
                i = position[product_id] = len(products)
                products.append(entry)
                old = None
            else:
                old = products[i] if everything >> i & 1 else None
                if entry is not None:
                    products[i] = entry
            bit = 1 << i
            if old is not None:
                for name, keys in _keys(old).items():
                    for key in keys:
                        left = masks[name].get(key, 0) & ~bit
                        if left:
                            masks[name][key] = left
                        else:
                            masks[name].pop(key, None)
            if entry is not None:
                for name, keys in _keys(entry).items():
                    for key in keys:
                        masks[name][key] = masks[name].get(key, 0) | bit
                everything |= bit
                in_stock = in_stock | bit if entry.in_stock else in_stock & ~bit
            else:
                everything &= ~bit
                in_stock &= ~bit
            moved.append(i)
            searchables[i] = _searchable(entry) if entry is not None else NOTHING_TO_FIND
        for name, found in masks.items():
            setattr(new, name, found)
        new.size, new.everything, new.in_stock_mask = len(products), everything, in_stock
        new._reprice(self, moved)
        for paths, order in self._orders.items():
            if paths[:1] != ("rank",):  # ranks are rebuilt from the orders when asked
                new._orders[paths] = _reordered(order, moved, products, paths)
        if "search_index" in self.__dict__:
            new.__dict__["search_index"] = self.search_index.patched(searchables)
        return new

    def _reprice(self, old: Catalogue, moved: list[int]) -> None:
        """`by_price`, `sorted_prices` and the blocks of `old` with the `moved` positions
        taken out and put back at their (new) price."""
        by_price, prices = list(old.by_price), list(old.sorted_prices)
        touched = []
        for i in moved:
            if i < old.size:
                at = by_price.index(i)
                del by_price[at], prices[at]
                touched.append(at)
        for i in moved:
            price = self.products[i].sale_price
            low, high = bisect.bisect_left(prices, price), bisect.bisect_right(prices, price)
            at = bisect.bisect_left(by_price, i, low, high)  # equal prices: by position
            by_price.insert(at, i)
            prices.insert(at, price)
            touched.append(at)
        self.by_price, self.sorted_prices = by_price, prices
        blocks = list(old.price_blocks)
        first = min(touched, default=len(by_price)) // PRICE_BLOCK
        for k in range(first, -(-len(by_price) // PRICE_BLOCK)):
            block = _mask(by_price[k * PRICE_BLOCK : (k + 1) * PRICE_BLOCK])
            if k < len(blocks):
                blocks[k] = block
            else:
                blocks.append(block)
        self.price_blocks = blocks


_MASKS = ("category_masks", "brand_masks", "value_masks", "seal_masks")


def _keys(product: ListedProduct) -> dict[str, Iterable[int]]:
    """The keys of each of _MASKS the product is under."""
    return {
        "category_masks": product.category_ids,
        "brand_masks": () if product.brand_id is None else (product.brand_id,),
        "value_masks": product.value_ids,
        "seal_masks": product.seal_ids,
    }


def _reordered(
    order: array[int], moved: list[int], products: Sequence[ListedProduct], paths: tuple[str, ...]
) -> array[int]:
    """`order` (positions sorted by `paths`, ties by position) with the `moved` positions
    taken out and put back where their entries now sort."""
    keys = [(ORDER_KEYS[path.lstrip("-")], path.startswith("-")) for path in paths]

    def before(a: int, b: int) -> bool:
        for key, descending in keys:
            ka, kb = key(products[a]), key(products[b])
            if ka != kb:
                return bool(ka > kb) if descending else bool(ka < kb)
        return a < b

    found = list(order)
    gone = set(moved)
    if len(gone) * 8 < len(found):
        for i in gone:
            if i < len(order):
                found.remove(i)
    else:
        found = [i for i in found if i not in gone]
    for i in moved:
        low, high = 0, len(found)
        while low < high:
            middle = (low + high) // 2
            if before(found[middle], i):
                low = middle + 1
            else:
                high = middle
        found.insert(low, i)
    return array(POSITION, found)
