"""What marketing adds to the catalog's full product (contract 2.11 Upsell product):
`bannerGroups`, the banner groups staff linked to the product or its categories,
rendered as the banners endpoint renders them (only the banners live at the moment).

The catalog must not import marketing, so marketing registers this section with the
product read model (`catalog.api.fragments.register_full_product_section`) when the app
is ready; the read model keys its fragments under the versions of `namespaces` and keeps
them no longer than the next banner start or end."""

from datetime import datetime

from catalog.api.fragments import FullProductSection, register_full_product_section
from catalog.models import Product
from storefront.selectors import SALES_CHANNEL_CACHE

from ..selectors import BANNERS_CACHE, banner_groups_linked_to, default_sales_channel
from .listing import group_entries, live_at


def product_banner_groups(
    *, product: Product, category_ids: frozenset[int], moment: datetime, base_url: str
) -> tuple[list[dict], datetime | None]:
    """The groups linked to the product (a variation: or to its main product) or to one of
    `category_ids` (its categories with their ancestors), on the default sales channel,
    each with its banners live at `moment` within the group's schedule; and the next
    banner start or end."""
    channel = default_sales_channel()
    product_ids = frozenset(pid for pid in (product.pk, product.parent_id) if pid is not None)
    groups = banner_groups_linked_to(
        product_ids=product_ids, category_ids=category_ids, channel=channel
    )
    context = {"channel_id": channel.pk if channel else None, "base_url": base_url}
    listing = live_at(group_entries(groups, context), moment)
    return listing.groups, listing.valid_until


BANNER_GROUPS_SECTION = FullProductSection(
    field="bannerGroups",
    namespaces=(BANNERS_CACHE, SALES_CHANNEL_CACHE),
    render=product_banner_groups,
)


def register() -> None:
    register_full_product_section(BANNER_GROUPS_SECTION)
