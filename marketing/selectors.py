"""Reads of the marketing app."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Model, Prefetch, Q, QuerySet

from catalog.models import PriceRule, Product
from catalog.pricing import next_rule_boundary
from catalog.selectors import (
    PRICE_RULE_CACHE,
    PRODUCTS_CACHE,
    active_price_rule_records,
    active_price_rules,
    catalogue_ids,
    category_index,
)
from catalog.tree import with_ancestors
from infra.caching.kept import Warm, kept, kept_many
from infra.scheduling import Window, next_boundary
from storefront.models import SalesChannel
from storefront.selectors import SALES_CHANNEL_CACHE

from .models import Banner, BannerGroup, Upsell

BANNERS_CACHE = "banners"
# Upsell offers and their triggers (the answers also follow catalog.PRODUCTS_CACHE).
UPSELLS_CACHE = "upsells"
# The links of a banner group: relation -> (attribute set on each group, id column of its table)
LINKED_IDS = {
    "products": ("product_ids", "product_id"),
    "brands": ("brand_ids", "brand_id"),
    "categories": ("category_ids", "category_id"),
}


def banner_groups_by_codes(*, codes: list[str], channel: SalesChannel | None) -> list[BannerGroup]:
    """The groups of `codes` visible on `channel`, in the order of `codes`, loaded by
    `_with_banners_and_links` (the schedule is applied per moment by `banner_listing_get`)."""
    groups = _with_banners_and_links(
        BannerGroup.objects.for_channel(channel).filter(code__in=codes)
    )
    by_code = {group.code: group for group in groups}
    return [by_code[code] for code in codes if code in by_code]


def _with_banners_and_links(groups: QuerySet[BannerGroup]) -> list[BannerGroup]:
    """The groups with their active banners and the ids they link (`product_ids`,
    `brand_ids`, `category_ids`): five queries whatever the number of groups and banners."""
    loaded = list(
        groups.prefetch_related(
            # feeds `banners`: active ones, in display order (`group` is set from the parent)
            Prefetch("banners", queryset=Banner.objects.active().order_by("order", "id")),
        )
    )
    ids = [group.pk for group in loaded]  # none: Django answers the `__in` reads without a query
    for relation, (attribute, column) in LINKED_IDS.items():
        # {group id: [linked ids]} read from the M2M table alone (no join to the catalog)
        linked: dict[int, list[int]] = defaultdict(list)
        rows = getattr(BannerGroup, relation).through.objects.filter(bannergroup_id__in=ids)
        for group_id, linked_id in rows.order_by(column).values_list("bannergroup_id", column):
            linked[group_id].append(linked_id)
        for group in loaded:
            setattr(group, attribute, linked[group.pk])
    return loaded


def banner_groups_on(channel: SalesChannel | None) -> list[BannerGroup]:
    """Every group visible on `channel`, by code, loaded like `banner_groups_by_codes` (with
    the ids they link: a product page shows those linked to it or its categories)."""
    return _with_banners_and_links(BannerGroup.objects.for_channel(channel).order_by("code"))


def linked_ids(group: BannerGroup, relation: str) -> frozenset[int]:
    """The ids a group of `_with_banners_and_links` links by `relation` (of LINKED_IDS)."""
    return frozenset(getattr(group, LINKED_IDS[relation][0]))


def default_sales_channel() -> SalesChannel | None:
    return kept(
        SALES_CHANNEL_CACHE,
        "default-channel",
        lambda: SalesChannel.objects.filter(is_default=True).first(),
    )


# --- Upsell ------------------------------------------------------------------------


@dataclass(frozen=True)
class Cart:
    # Every product the cart holds: the map's products, their variations, and the main
    # product of each variation (a variation in the cart puts its product in the cart).
    product_ids: frozenset[int]
    # The main and other categories of those products, with their ancestors.
    category_ids: frozenset[int]


def _product_links(ids: list[int]) -> dict[int, tuple[int | None, frozenset[int]]]:
    """{product id: (its main product's id, its main and other categories)}, in one query."""
    links: dict[int, tuple[int | None, set[int]]] = {}
    rows = Product.objects.filter(pk__in=ids).values_list(
        "pk", "parent_id", "main_category_id", "categories__id"
    )
    for product_id, parent_id, main_category_id, category_id in rows:
        categories = links.setdefault(product_id, (parent_id, set()))[1]
        categories.update(i for i in (main_category_id, category_id) if i is not None)
    return {pk: (parent_id, frozenset(categories)) for pk, (parent_id, categories) in links.items()}


def _links(ids: set[int]) -> dict[int, tuple[int | None, frozenset[int]]]:
    """`_product_links`, kept in process memory until a product changes (a miss reads the
    catalogue's next products too)."""
    return kept_many(
        "cart-product-links",
        sorted(ids),
        lambda _: (PRODUCTS_CACHE,),
        _product_links,
        warm=Warm(PRODUCTS_CACHE, catalogue_ids),
    )


def cart_get(variation_map: dict[int, int | None]) -> Cart:
    """The cart of a variation map (no query for products read since they last changed)."""
    ids = {*variation_map, *(v for v in variation_map.values() if v is not None)}
    found = _links(ids)
    parents = {parent for parent, _ in found.values() if parent is not None} - ids
    found.update(_links(parents))
    category_ids = {category for _, categories in found.values() for category in categories}
    return Cart(frozenset(ids | parents), with_ancestors(category_index(), category_ids))


@dataclass(frozen=True)
class UpsellOffer:
    """An offer at a location as the cart's choice reads it (`price_rule` None: it is off)."""

    id: int
    display_title: str
    display_description: str
    display_button_text: str
    quantity: int
    product_id: int
    priority: int
    window: Window
    sellable: bool  # its product (and main product) and its rule are active
    trigger_product_ids: frozenset[int]
    trigger_category_ids: frozenset[int]
    price_rule: PriceRule | None

    def offered_to(self, cart: Cart, moment: datetime) -> bool:
        """Live, sellable, not in the cart, and its triggers (if any) match the cart."""
        triggers = self.trigger_product_ids or self.trigger_category_ids
        return (
            self.sellable
            and self.window.contains(moment)
            and self.product_id not in cart.product_ids
            and (
                not triggers
                or bool(self.trigger_product_ids & cart.product_ids)
                or bool(self.trigger_category_ids & cart.category_ids)
            )
        )


# The columns an offer keeps as they are.
OFFER_FIELDS = ("id", "display_title", "display_description", "display_button_text", "quantity",
                "product_id", "priority")  # fmt: skip
# What an offer as kept depends on: the offers, their products, their price rules.
OFFER_NAMESPACES = (UPSELLS_CACHE, PRODUCTS_CACHE, PRICE_RULE_CACHE)


def location_offers(location: str) -> tuple[UpsellOffer, ...]:
    """The active offers at `location`, kept in process memory until an offer, a product or
    a price rule changes (three queries on a miss)."""

    def load(_: list[str]) -> dict[str, tuple[UpsellOffer, ...]]:
        rules = active_price_rule_records()
        rows = (
            Upsell.objects.active()
            .at_location(location)
            .annotate(
                product_active=Q(product__active=True)
                & (Q(product__parent__isnull=True) | Q(product__parent__active=True))
            )
            .values(*OFFER_FIELDS, "start_at", "end_at", "price_rule_id", "product_active")
        )
        products = _trigger_ids(Upsell.trigger_products.through, "product_id")
        categories = _trigger_ids(Upsell.trigger_categories.through, "category_id")
        offers = tuple(
            UpsellOffer(
                **{name: row[name] for name in OFFER_FIELDS},
                window=Window(row["start_at"], row["end_at"]),
                sellable=bool(row["product_active"]) and row["price_rule_id"] in rules,
                trigger_product_ids=products.get(row["id"], frozenset()),
                trigger_category_ids=categories.get(row["id"], frozenset()),
                price_rule=rules.get(row["price_rule_id"]),
            )
            for row in rows
        )
        return {location: offers}

    return kept_many("upsell-offers", [location], lambda _: OFFER_NAMESPACES, load)[location]


def _trigger_ids(through: type[Model], field: str) -> dict[int, frozenset[int]]:
    found: dict[int, set[int]] = defaultdict(set)
    for upsell_id, target_id in through._default_manager.values_list("upsell_id", field):
        found[upsell_id].add(target_id)
    return {upsell_id: frozenset(ids) for upsell_id, ids in found.items()}


def upsell_answer_valid_until(*, location: str, moment: datetime) -> datetime | None:
    """The next offer's or price rule's start or end at `location`: until then the answer
    cannot change by itself (staff changes bump the cache)."""

    def windows() -> tuple[Window, ...]:
        rows = (
            Upsell.objects.active()
            .at_location(location)
            .filter(Q(start_at__isnull=False) | Q(end_at__isnull=False))
            .values_list("start_at", "end_at")
        )
        return tuple(Window(start, end) for start, end in rows)

    offers = next_boundary(kept(UPSELLS_CACHE, f"windows:{location}", windows), moment)
    rules = next_rule_boundary(active_price_rules(), moment)
    return min((edge for edge in (offers, rules) if edge is not None), default=None)


def upsell_for_cart(
    *,
    location: str,
    variation_map: dict[int, int | None],
    moment: datetime,
    listed: QuerySet[Upsell] | None = None,
    offset: int = 0,
) -> UpsellOffer | None:
    """The candidate for the cart after skipping `offset`, by priority then id, or in the
    order of a list query's `listed` offers (one query over the candidates' ids)."""
    cart = cart_get(variation_map)
    candidates = {o.id: o for o in location_offers(location) if o.offered_to(cart, moment)}
    if listed is None:
        ranked = sorted(candidates.values(), key=lambda offer: (-offer.priority, offer.id))
        return next(iter(ranked[offset : offset + 1]), None)
    page = listed.filter(pk__in=candidates)
    chosen = next(iter(page.values_list("pk", flat=True)[offset : offset + 1]), None)
    return candidates.get(chosen) if chosen is not None else None
