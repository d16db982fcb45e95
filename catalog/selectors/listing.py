"""Reads of the product page and the catalogue listing: which products the storefront may
show, and the listing's Catalogue (catalog/listing/) built in a fixed number of queries and
kept in process memory: patched with the products changed since (the listing journal,
infra.caching.journal), rebuilt when store-wide data changes (categories, brands,
attributes, rules, policies, seals, storages) or a price rule or seal starts or ends."""

import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Q

from infra.caching.journal import journal_head, journal_since
from infra.caching.kept import kept_apart
from infra.caching.versions import namespace_versions
from infra.ids import is_db_id
from infra.scheduling import next_boundary

from .. import pricing
from ..listing import AttributeFacet, Catalogue, Labels, ListedProduct
from ..models import (
    AttributeValue,
    Brand,
    Product,
    ProductDescription,
    ProductPrice,
    ProductReviewSummary,
)
from ..models.reviews import SCORES
from ..search import Searchable
from .caches import CATALOGUE_CACHE, LISTING_CACHE, PRODUCTS_CACHE
from .merchandising import SealData, active_seals
from .prices import (
    STORED_PRICE_FIELDS,
    PriceContext,
    price_context_get,
    price_get,
    pricing_data_from_row,
)
from .products import available_stocks

# The listing's answers follow every product's shapes and, apart, every listed product
# (LISTING_CACHE: bumped by the listing journal's notes) and store-wide data.
LISTING_NAMESPACES = (PRODUCTS_CACHE, LISTING_CACHE, CATALOGUE_CACHE)


def _shown_in_site() -> Q:
    """Active, shown in the site, and (a variation) of an active product."""
    return Q(active=True, show_in_site=True) & (Q(parent__isnull=True) | Q(parent__active=True))


def product_page_ids() -> frozenset[int]:
    """The products with a page: active (their main product too) and shown in the site."""
    return kept_apart(
        (PRODUCTS_CACHE,),
        "page-ids",
        lambda: frozenset(
            Product.objects.filter(_shown_in_site()).order_by().values_list("pk", flat=True)
        ),
    )


def product_page_visible(*, product_id: int) -> bool:
    """The product exists, is active (its main product too) and is shown in the site."""
    return is_db_id(product_id) and product_id in product_page_ids()


logger = logging.getLogger("storefront.catalogue")

# A change of more than 1/PATCH_SHARE of the products (and PATCH_LEAST) rebuilds the
# catalogue instead.
PATCH_SHARE, PATCH_LEAST = 8, 64


class _HeldCatalogue:
    """This process's catalogue: rebuilt when CATALOGUE_CACHE moves (it is kept under it) or
    at its next boundary; patched with the products the listing journal noted since it was
    read, when LISTING_CACHE moves (catalog/signals.py notes every product change there)."""

    def __init__(self) -> None:
        self.catalogue: Catalogue | None = None
        self.version: int | None = None  # LISTING_CACHE's version when the journal was read
        self.position = 0  # how far the journal was read
        self.lock = threading.Lock()

    def at(self, moment: datetime) -> Catalogue:
        (version,) = namespace_versions((LISTING_CACHE,))
        catalogue = self.catalogue
        if catalogue is None or not catalogue.current_at(moment) or version != self.version:
            with self.lock:
                catalogue = self.catalogue
                if catalogue is None or not catalogue.current_at(moment):
                    catalogue = self._build(journal_head(LISTING_CACHE), moment)
                elif version != self.version:
                    catalogue = self._follow(catalogue, moment)
                self.catalogue, self.version = catalogue, version
        return catalogue

    def _build(self, position: int, moment: datetime) -> Catalogue:
        started = time.perf_counter()
        self.position = position  # read before the queries: a change made meanwhile is replayed
        catalogue = catalogue_build(moment=moment)
        logger.info(
            "Catalogue built: %d products in %.0f ms.",
            catalogue.size,
            (time.perf_counter() - started) * 1000,
        )
        return catalogue

    def _follow(self, catalogue: Catalogue, moment: datetime) -> Catalogue:
        """The catalogue with the products noted since `position` read again."""
        started = time.perf_counter()
        head, changed = journal_since(LISTING_CACHE, self.position)
        if changed is None or len(changed) > max(catalogue.size // PATCH_SHARE, PATCH_LEAST):
            return self._build(head, moment)
        self.position = head
        entries = catalogue_entries(changed, moment=moment, labels=catalogue.labels)
        patched = catalogue.patched(entries)
        logger.debug(
            "Catalogue patched: %d products in %.1f ms.",
            len(entries),
            (time.perf_counter() - started) * 1000,
        )
        return patched


def catalogue_get(*, moment: datetime) -> Catalogue:
    """The listed products at `moment` (kept per process, patched after product changes)."""
    held = kept_apart((CATALOGUE_CACHE,), "listing", _HeldCatalogue)
    return held.at(moment)


LISTED_FIELDS = (
    *("id", "name", "priority", "created_at", "base_price", "active", "parent_id"),
    *("brand_id", "main_category_id", "service", "sale_without_stock", "sku"),
)


def catalogue_build(*, moment: datetime) -> Catalogue:
    """Every main product shown in the site, as plain data (queries: products, their
    categories, values, prices, stock, reviews, descriptions, brands and attribute values)."""
    context = price_context_get(moment=moment)
    labels = _labels(context)
    seals = active_seals()
    products = _listed(None, context=context, labels=labels, seals=seals)
    boundary = min(
        (
            edge
            for edge in (
                pricing.next_rule_boundary(context.rules, moment),
                next_boundary((seal.window for seal in seals), moment),
            )
            if edge is not None
        ),
        default=None,
    )
    return Catalogue(
        products=list(products.values()), labels=labels, valid_until=boundary, moment=moment
    )


def catalogue_entries(
    ids: Iterable[int], *, moment: datetime, labels: Labels
) -> dict[int, ListedProduct | None]:
    """{main product id: its entry, None when not listed} for the products `ids` name (a
    variation names its main product; an id found nowhere, a deleted product), read as
    `catalogue_build` reads every product, in as many queries."""
    wanted = set(ids)
    found = dict(Product.objects.filter(pk__in=wanted).values_list("pk", "parent_id"))
    mains = {found[i] or i if i in found else i for i in wanted}
    context = price_context_get(moment=moment)
    listed = _listed(mains, context=context, labels=labels, seals=active_seals())
    return {pid: listed.get(pid) for pid in sorted(mains)}


def _listed(
    ids: set[int] | None,
    *,
    context: PriceContext,
    labels: Labels,
    seals: tuple[SealData, ...],
) -> dict[int, ListedProduct]:
    """{id: entry} of the listed main products (of `ids`, or all), in id order."""
    moment = context.moment
    shown = Product.objects.filter(_shown_in_site(), parent__isnull=True)
    links = Product.categories.through.objects.filter(
        product__active=True, product__show_in_site=True, product__parent__isnull=True
    )
    prices = ProductPrice.objects.filter(
        trade_policy_id=context.trade_policy_id, product__parent__isnull=True
    )
    summaries = ProductReviewSummary.objects.filter(product__parent__isnull=True)
    descriptions = ProductDescription.objects.filter(
        trade_policy_id=context.trade_policy_id, product__parent__isnull=True
    ).exclude(search_description="")
    if ids is not None:
        shown, links = shown.filter(pk__in=ids), links.filter(product_id__in=ids)
        prices, summaries = prices.filter(product_id__in=ids), summaries.filter(product_id__in=ids)
        descriptions = descriptions.filter(product_id__in=ids)
    rows = list(shown.order_by("id").values(*LISTED_FIELDS))
    product_ids = [row["id"] for row in rows]
    linked: dict[int, set[int]] = {pid: set() for pid in product_ids}
    for product_id, category_id in links.values_list("product_id", "category_id"):
        linked[product_id].add(category_id)
    values = _filterable_values(linked)
    # Equal values are one object (most products share their categories' sets, many their
    # prices): the catalogue holds them for every product of the process.
    shared: dict[Any, Any] = {}
    decimals: dict[str, Decimal] = {}  # by text: 1.0 and 1.00 are equal but print apart

    def one(value: Any) -> Any:
        return shared.setdefault(value, value)

    def decimal(value: Any) -> Any:
        return decimals.setdefault(str(value), value) if isinstance(value, Decimal) else value

    stored = {
        row["product_id"]: pricing.StoredPrice(
            **{name: decimal(row[name]) for name in STORED_PRICE_FIELDS}
        )
        for row in prices.values("product_id", *STORED_PRICE_FIELDS)
    }
    stocks = available_stocks(product_ids)
    reviews = {summary.product_id: summary for summary in summaries}
    searched = dict(descriptions.values_list("product_id", "search_description"))
    brand_names = dict(labels.brands)
    category_rows = context.categories.rows
    bare = pricing.PriceRequest(trade_policy_id=context.trade_policy_id, moment=moment)
    products = {}
    for row in rows:
        pid = row["id"]
        data = pricing_data_from_row(row, linked[pid], context)
        categories = one(data.category_ids)
        data = replace(data, base_price=decimal(data.base_price), category_ids=categories)
        price = pricing.compute_price(data, stored.get(pid), context.rules, bare)
        review = reviews.get(pid)
        products[pid] = ListedProduct(
            id=pid,
            name=row["name"],
            priority=row["priority"],
            created_at=row["created_at"],
            brand_id=row["brand_id"],
            category_ids=categories,
            value_ids=one(frozenset(values.get(pid, ()))),
            seal_ids=one(
                frozenset(
                    seal.id
                    for seal in seals
                    if seal.window.contains(moment)
                    and (pid in seal.product_ids or seal.category_ids & categories)
                )
            ),
            sale_price=decimal(price.sale_price),
            in_stock=row["service"] or row["sale_without_stock"] or stocks[pid] > 0,
            score=decimal(review.average if review is not None else Decimal("0.0")),
            reviews=review.count if review is not None else 0,
            pricing=data,
            stored_price=stored.get(pid),
            review_counts=one(tuple(review.counts[s] for s in SCORES)) if review else None,
            verified_reviews=review.verified if review else 0,
            stock=stocks[pid],
            searchable=Searchable(
                name=row["name"],
                others=one(
                    (
                        brand_names.get(row["brand_id"], ""),
                        *(category_rows[c].name for c in categories if c in category_rows),
                        searched.get(pid, ""),
                    )
                ),
                sku=row["sku"],
            ),
        )
    return products


def _filterable_values(products: Iterable[int]) -> dict[int, set[int]]:
    """{main product id: ids of the filterable values of it and of its active variations}."""
    wanted = set(products)
    through = Product.attribute_values.through.objects.filter(
        attributevalue__attribute__filterable=True
    ).filter(
        Q(product__parent__isnull=True, product_id__in=wanted)
        | Q(product__active=True, product__parent_id__in=wanted)
    )
    found: dict[int, set[int]] = {}
    rows = through.values_list("product_id", "product__parent_id", "attributevalue_id")
    for product_id, parent_id, value_id in rows:
        owner = parent_id if parent_id is not None else product_id
        if owner in wanted:
            found.setdefault(owner, set()).add(value_id)
    return found


def _labels(context: PriceContext) -> Labels:
    values = AttributeValue.objects.filter(attribute__filterable=True).select_related("attribute")
    ordered = sorted(
        values,
        key=lambda v: (
            v.attribute.position,
            v.attribute.name,
            v.attribute_id,
            v.order,
            v.label,
            v.pk,
        ),
    )
    attributes: dict[int, AttributeFacet] = {}
    for value in ordered:
        facet = attributes.get(value.attribute_id)
        entry = ((value.pk, value.label),)
        attributes[value.attribute_id] = AttributeFacet(
            id=value.attribute_id,
            name=value.attribute.name,
            values=(facet.values if facet else ()) + entry,
        )
    brands = tuple(Brand.objects.order_by("name", "id").values_list("id", "name"))
    return Labels(
        brands=brands, attributes=tuple(attributes.values()), categories=context.categories
    )


def listed_prices(
    products: Iterable[ListedProduct], *, moment: datetime
) -> dict[int, pricing.Price]:
    """{product id: its Price} (cash discount and installments of the store's default
    options), from the catalogue's data: no query but cached reads."""
    context = price_context_get(moment=moment)
    return {
        product.id: price_get(product.pricing, product.stored_price, context=context)
        for product in products
    }


def listed_review(product: ListedProduct) -> ProductReviewSummary | None:
    """The product's review summary as the full product's `review` shows it (unsaved)."""
    if product.review_counts is None:
        return None
    counts = dict(zip((f"score_{score}" for score in SCORES), product.review_counts, strict=True))
    return ProductReviewSummary(product_id=product.id, **counts)
