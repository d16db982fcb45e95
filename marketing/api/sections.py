"""The full product's `bannerGroups` (contract 2.11 Upsell product): the groups linked to
the product or its categories, as the banners endpoint renders them. The catalog must not
import marketing, so marketing registers this section with the product read model."""

from datetime import datetime

from catalog.api.fragments import FullProductSection, register_full_product_section
from catalog.models import Product
from storefront.selectors import SALES_CHANNEL_CACHE

from ..selectors import BANNERS_CACHE, banner_groups_linked_to, default_sales_channel
from .listing import group_entries, live_at


def product_banner_groups(
    *, product: Product, category_ids: frozenset[int], moment: datetime, base_url: str
) -> tuple[list[dict], datetime | None]:
    """The groups on the default channel linked to the product (or its main product) or one
    of `category_ids`, with their banners live at `moment`; and the next start or end."""
    channel = default_sales_channel()
    product_ids = frozenset(pid for pid in (product.pk, product.parent_id) if pid is not None)
    groups = banner_groups_linked_to(
        product_ids=product_ids, category_ids=category_ids, channel=channel
    )
    context = {"channel_id": channel.pk if channel else None, "base_url": base_url}
    listing = live_at(group_entries(groups, context), moment)
    return listing.groups, listing.valid_until


def register() -> None:
    namespaces = (BANNERS_CACHE, SALES_CHANNEL_CACHE)
    section = FullProductSection("bannerGroups", namespaces, render=product_banner_groups)
    register_full_product_section(section)
