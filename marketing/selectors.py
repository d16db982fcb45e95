"""Reads of the marketing app."""

from collections import defaultdict
from datetime import datetime

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from catalog.models import Product
from catalog.pricing import next_rule_boundary
from catalog.selectors import (
    PRICE_RULE_RELATIONS,
    active_price_rules,
    category_index,
)
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


def cart_product_ids(variation_map: dict[int, int | None]) -> frozenset[int]:
    """Every product the cart holds: the map's products, their variations, and the main
    product of each variation (a variation in the cart puts its product in the cart)."""
    ids = {*variation_map, *(v for v in variation_map.values() if v is not None)}
    if not ids:
        return frozenset()
    parents = Product.objects.filter(pk__in=ids, parent__isnull=False).values_list(
        "parent_id", flat=True
    )
    return frozenset(ids | set(parents))


def cart_category_ids(product_ids: frozenset[int]) -> frozenset[int]:
    """Main and other categories of the cart's products, with their ancestors."""
    if not product_ids:
        return frozenset()
    main = Product.objects.filter(pk__in=product_ids, main_category__isnull=False).values_list(
        "main_category_id", flat=True
    )
    others = Product.categories.through.objects.filter(product_id__in=product_ids).values_list(
        "category_id", flat=True
    )
    return with_ancestors(category_index(), {*main, *others})


def upsell_candidates(
    *, location: str, cart_ids: frozenset[int], moment: datetime
) -> QuerySet[Upsell]:
    """Offers at `location`, live at `moment`, for a sellable product not in the cart, whose
    triggers match the cart (no triggers: always)."""
    category_ids = cart_category_ids(cart_ids)
    by_product = Upsell.trigger_products.through.objects.filter(upsell_id=OuterRef("pk"))
    by_category = Upsell.trigger_categories.through.objects.filter(upsell_id=OuterRef("pk"))
    triggered = (
        (~Exists(by_product) & ~Exists(by_category))
        | Exists(by_product.filter(product_id__in=cart_ids))
        | Exists(by_category.filter(category_id__in=category_ids))
    )
    return (
        Upsell.objects.live_at(moment)
        .at_location(location)
        .filter(Q(product__parent__isnull=True) | Q(product__parent__active=True))
        .filter(product__active=True, price_rule__active=True)
        .exclude(product_id__in=cart_ids)
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


def upsell_for_cart(
    *,
    location: str,
    variation_map: dict[int, int | None],
    moment: datetime,
    filters: Q = Q(),  # noqa: B008  (an empty Q is immutable: filters nothing)
    order_by: tuple[str, ...] = ("-priority", "id"),
    offset: int = 0,
) -> Upsell | None:
    """The offer for the cart: the first candidate matching `filters`, in `order_by` order,
    after skipping `offset` of them; its rule fully loaded (the product comes from the
    product read model)."""
    cart_ids = cart_product_ids(variation_map)
    candidates = upsell_candidates(location=location, cart_ids=cart_ids, moment=moment)
    page = (
        candidates.filter(filters)
        .order_by(*order_by)
        .select_related("price_rule")
        .prefetch_related(
            # feed priceRule.tradePolicies / productIds / productCategoryIds / productBrandIds
            *(f"price_rule__{name}" for name in PRICE_RULE_RELATIONS)
        )
    )
    return next(iter(page[offset : offset + 1]), None)
