"""The full product's `bannerGroups` (contract 2.11 Upsell product): the groups linked to
the product or its categories, as the banners endpoint renders them. The catalog must not
import marketing, so marketing registers this section with the product read model."""

from datetime import datetime

from catalog.api.fragments import FullProductSection, register_full_product_section
from catalog.models import Product
from infra.caching.kept import kept_many
from storefront.models import SalesChannel
from storefront.selectors import SALES_CHANNEL_CACHE

from ..selectors import BANNERS_CACHE, banner_groups_on, default_sales_channel, linked_ids
from .listing import BannerGroupEntry, group_entries, live_at

# A group rendered, with the product and category ids it links.
Linked = tuple[frozenset[int], frozenset[int], BannerGroupEntry]


def _channel_groups(channel: SalesChannel | None, base_url: str) -> tuple[Linked, ...]:
    """Every group on `channel`, rendered (kept in this process until a banner, a group, a
    group's links or a sales channel changes: no query per product page)."""
    channel_id = channel.pk if channel is not None else None

    def build(keys: list[tuple[int | None, str]]) -> dict[tuple[int | None, str], tuple]:
        groups = banner_groups_on(channel)
        entries = group_entries(groups, {"channel_id": channel_id, "base_url": base_url})
        linked = tuple(
            (linked_ids(group, "products"), linked_ids(group, "categories"), entry)
            for group, entry in zip(groups, entries, strict=True)
        )
        return dict.fromkeys(keys, linked)

    key = (channel_id, base_url)
    namespaces = (BANNERS_CACHE, SALES_CHANNEL_CACHE)
    return kept_many("product-banner-groups", [key], lambda _: namespaces, build)[key]


def product_banner_groups(
    *, product: Product, category_ids: frozenset[int], moment: datetime, base_url: str
) -> tuple[list[dict], datetime | None]:
    """The groups on the default channel linked to the product (or its main product) or one
    of `category_ids`, with their banners live at `moment`; and the next start or end."""
    channel = default_sales_channel()
    product_ids = frozenset(pid for pid in (product.pk, product.parent_id) if pid is not None)
    entries = [
        entry
        for products, categories, entry in _channel_groups(channel, base_url)
        if products & product_ids or categories & category_ids
    ]
    listing = live_at(entries, moment)
    return listing.groups, listing.valid_until


def register() -> None:
    namespaces = (BANNERS_CACHE, SALES_CHANNEL_CACHE)
    section = FullProductSection("bannerGroups", namespaces, render=product_banner_groups)
    register_full_product_section(section)
