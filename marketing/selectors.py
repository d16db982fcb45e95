"""Reads of the marketing app."""

from collections import defaultdict
from dataclasses import dataclass, fields
from datetime import datetime

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from catalog.models import PriceRule, Product
from catalog.pricing import next_rule_boundary
from catalog.selectors import active_price_rule_records, active_price_rules, category_index
from catalog.tree import with_ancestors
from infra.cache import kept
from storefront.models import SalesChannel
from storefront.selectors import SALES_CHANNEL_CACHE

from .models import Banner, BannerGroup, Upsell
from .scheduling import Window, next_boundary

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
    """The groups of `codes` visible on `channel`, in the order of `codes`, with every
    active banner (the schedule is applied per moment by `banner_listing_get`).

    Each group gets `product_ids`, `brand_ids` and `category_ids` (lists of ints).
    Five queries whatever the number of groups and banners.
    """
    groups = _with_banners_and_links(
        BannerGroup.objects.for_channel(channel).filter(code__in=codes)
    )
    by_code = {group.code: group for group in groups}
    return [by_code[code] for code in codes if code in by_code]


def _with_banners_and_links(groups: QuerySet[BannerGroup]) -> list[BannerGroup]:
    """The groups with their active banners and the ids they link (five queries)."""
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


def banner_groups_linked_to(
    *, product_ids: frozenset[int], category_ids: frozenset[int], channel: SalesChannel | None
) -> list[BannerGroup]:
    """The groups visible on `channel` that staff linked to one of `product_ids` or
    `category_ids` (a product page's groups), by code, loaded like
    `banner_groups_by_codes`. Five queries whatever the number of groups and banners
    (one when none is linked)."""
    by_product = BannerGroup.products.through.objects.filter(
        bannergroup_id=OuterRef("pk"), product_id__in=product_ids
    )
    by_category = BannerGroup.categories.through.objects.filter(
        bannergroup_id=OuterRef("pk"), category_id__in=category_ids
    )
    return _with_banners_and_links(
        BannerGroup.objects.for_channel(channel)
        .filter(Exists(by_product) | Exists(by_category))
        .order_by("code")
    )


def default_sales_channel() -> SalesChannel | None:
    """The store's default channel (cached with the channels)."""
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


def cart_get(variation_map: dict[int, int | None]) -> Cart:
    """The cart of a variation map, in one query (none for an empty map): the products it
    names and their main products, a row per category link."""
    ids = {*variation_map, *(v for v in variation_map.values() if v is not None)}
    if not ids:
        return Cart(frozenset(), frozenset())
    parents = Product.objects.filter(pk__in=ids).values("parent_id")
    rows = (
        Product.objects.filter(Q(pk__in=ids) | Q(pk__in=parents))
        .order_by()
        .values_list("pk", "main_category_id", "categories__id")
    )
    product_ids, category_ids = set(ids), set[int]()
    for product_id, main_category_id, category_id in rows:
        product_ids.add(product_id)
        category_ids.update(i for i in (main_category_id, category_id) if i is not None)
    return Cart(frozenset(product_ids), with_ancestors(category_index(), category_ids))


def upsell_candidates(*, location: str, cart: Cart, moment: datetime) -> QuerySet[Upsell]:
    """Offers at `location`, live at `moment`, for a sellable product not in the cart, whose
    triggers match the cart (no triggers: always)."""
    by_product = Upsell.trigger_products.through.objects.filter(upsell_id=OuterRef("pk"))
    by_category = Upsell.trigger_categories.through.objects.filter(upsell_id=OuterRef("pk"))
    triggered = (
        (~Exists(by_product) & ~Exists(by_category))
        | Exists(by_product.filter(product_id__in=cart.product_ids))
        | Exists(by_category.filter(category_id__in=cart.category_ids))
    )
    return (
        Upsell.objects.live_at(moment)
        .at_location(location)
        .filter(Q(product__parent__isnull=True) | Q(product__parent__active=True))
        .filter(product__active=True, price_rule__active=True)
        .exclude(product_id__in=cart.product_ids)
        .filter(triggered)
    )


def upsell_answer_valid_until(*, location: str, moment: datetime) -> datetime | None:
    """The next moment an upsell answer at `location` may change by itself: an offer's
    start or end, or a price rule's (cached with the offers; staff changes bump it)."""

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


@dataclass(frozen=True)
class UpsellOffer:
    """The offer for a cart: its row, with its (active) price rule as a record with its
    targets (what the answer's `priceRule` and the offered product's price read)."""

    id: int
    display_title: str
    display_description: str
    display_button_text: str
    quantity: int
    product_id: int
    price_rule: PriceRule


def upsell_for_cart(
    *,
    location: str,
    variation_map: dict[int, int | None],
    moment: datetime,
    filters: Q = Q(),  # noqa: B008  (an empty Q is immutable: filters nothing)
    order_by: tuple[str, ...] = ("-priority", "id"),
    offset: int = 0,
) -> UpsellOffer | None:
    """The offer for the cart: the first candidate matching `filters`, in `order_by` order,
    after skipping `offset` of them (the product comes from the product read model). Two
    queries: the cart, the offer; its rule comes from the cached active rules."""
    candidates = upsell_candidates(location=location, cart=cart_get(variation_map), moment=moment)
    names = [field.name for field in fields(UpsellOffer) if field.name != "price_rule"]
    page = candidates.filter(filters).order_by(*order_by).values(*names, "price_rule_id")
    row = next(iter(page[offset : offset + 1]), None)
    if row is None:
        return None
    # None when the rule was switched off since the offer was read (no offer then)
    rule = active_price_rule_records().get(row.pop("price_rule_id"))
    return None if rule is None else UpsellOffer(**row, price_rule=rule)
